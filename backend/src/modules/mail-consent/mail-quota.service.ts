import { Inject, Injectable, Logger } from '@nestjs/common';
import type { MailUsageResponse } from '@botsmith/contract';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { MailConsentRepository, utcDay } from './mail-consent.repository.js';

/**
 * The daily limit on mails an owner can trigger: lead notices, digests, replies to visitors and
 * confirmation requests (MAIL_DAILY_LIMIT_PER_ACCOUNT per UTC day, docs/product.md#mail-consent).
 * A mail past it is not sent; what it announced stays in the inbox, and the dashboard says so.
 */
@Injectable()
export class MailQuotaService {
  private readonly logger = new Logger('MailQuota');

  constructor(
    private readonly repository: MailConsentRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** True when the owner may send one more mail today (and it is counted); false past the limit. */
  async take(ownerId: number, now = new Date()): Promise<boolean> {
    const taken = await this.repository.takeMailSlot(ownerId, utcDay(now), this.config.mailLimits.dailyPerAccount);
    if (!taken) this.logger.warn(`Account ${ownerId} reached its daily mail limit: a mail was held back`);
    return taken;
  }

  async usage(ownerId: number, now = new Date()): Promise<MailUsageResponse> {
    const { sent, heldBack } = await this.repository.mailCountOf(ownerId, utcDay(now));
    const dailyLimit = this.config.mailLimits.dailyPerAccount;
    return { sentToday: sent, dailyLimit, limitReached: heldBack > 0 || sent >= dailyLimit };
  }
}
