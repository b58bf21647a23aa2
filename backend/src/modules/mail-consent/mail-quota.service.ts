import { Inject, Injectable, Logger } from '@nestjs/common';
import type { MailUsageResponse } from '@botsmith/contract';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { DailyQuotasService } from '../quotas/daily-quotas.service.js';

/** A count with no cap of its own (the column is a 32-bit integer). */
const UNCAPPED = 2_147_483_647;

/**
 * The daily limit on mails an owner can trigger: lead notices, digests, replies to visitors and
 * confirmation requests (MAIL_DAILY_LIMIT_PER_ACCOUNT per UTC day, docs/product.md#mail-consent).
 * A mail past it is not sent; what it announced stays in the inbox, and the dashboard says so.
 * Counted with the other daily quotas (quotas/), so it holds across instances.
 */
@Injectable()
export class MailQuotaService {
  private readonly logger = new Logger('MailQuota');

  constructor(
    private readonly quotas: DailyQuotasService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** True when the owner may send one more mail today (and it is counted); false past the limit. */
  async take(ownerId: number, now = new Date()): Promise<boolean> {
    const limit = this.config.mailLimits.dailyPerAccount;
    if ((await this.quotas.takeUpTo('mails', ownerId, 1, limit, now)) === 1) return true;
    await this.quotas.takeUpTo('mails_held_back', ownerId, 1, UNCAPPED, now);
    this.logger.warn(`Account ${ownerId} reached its daily mail limit: a mail was held back`);
    return false;
  }

  async usage(ownerId: number, now = new Date()): Promise<MailUsageResponse> {
    const [sent, heldBack] = await Promise.all([
      this.quotas.usedOn('mails', ownerId, now),
      this.quotas.usedOn('mails_held_back', ownerId, now),
    ]);
    const dailyLimit = this.config.mailLimits.dailyPerAccount;
    return { sentToday: sent, dailyLimit, limitReached: heldBack > 0 || sent >= dailyLimit };
  }
}
