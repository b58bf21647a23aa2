import { Injectable, Logger } from '@nestjs/common';
import { MAIL_LIMITS } from '../../common/constants.js';
import { MailService } from '../mail/mail.service.js';
import { MailConsentRepository, type DigestRow } from './mail-consent.repository.js';
import { MailConsentService } from './mail-consent.service.js';
import { MailQuotaService } from './mail-quota.service.js';
import { describeError } from '../../common/error-description.js';

/** The most digest items one run sends (the next run takes the rest). */
const DIGEST_BATCH = 500;

/**
 * Who is mailed a lead now (docs/product.md#mail-consent): the confirmed lead addresses, each within
 * its 10-minute window's first five notices and the account's daily limit. Past the fifth, the lead
 * waits for the window's digest, sent by `sendDueDigests` (LeadDigestWorker on every instance; each
 * item is claimed once).
 */
@Injectable()
export class LeadNoticesService {
  private readonly logger = new Logger('LeadNotices');

  constructor(
    private readonly repository: MailConsentRepository,
    private readonly consent: MailConsentService,
    private readonly quota: MailQuotaService,
    private readonly mail: MailService,
  ) {}

  /** The addresses to mail this lead to one by one now; the others get it in a digest, or not at all. */
  async singleNoticeRecipients(
    ownerId: number,
    notifyEmails: string[],
    leadId: number,
    now = new Date(),
  ): Promise<string[]> {
    const to: string[] = [];
    for (const email of await this.consent.leadRecipients(ownerId, notifyEmails)) {
      const { windowStart, place } = await this.repository.countLeadNotice(
        ownerId,
        email,
        now,
        MAIL_LIMITS.digestWindowMs,
      );
      if (place > MAIL_LIMITS.singleNoticesPerWindow) {
        const dueAt = new Date(windowStart.getTime() + MAIL_LIMITS.digestWindowMs);
        await this.repository.queueDigestItem(ownerId, email, leadId, dueAt);
      } else if (await this.quota.take(ownerId, now)) {
        to.push(email);
      }
    }
    return to;
  }

  /** Sends every digest due at `now`: one mail per owner and address. Returns how many went out. */
  async sendDueDigests(now = new Date()): Promise<number> {
    let sent = 0;
    for (;;) {
      const rows = await this.repository.claimDueDigestItems(now, DIGEST_BATCH);
      const groups = new Map<string, DigestRow[]>();
      for (const row of rows) {
        const key = `${row.ownerId} ${row.to}`;
        groups.set(key, [...(groups.get(key) ?? []), row]);
      }
      for (const group of groups.values()) {
        const { ownerId, to } = group[0];
        try {
          // The address may have left the bot's list, or the account its limit, since the window began.
          if (!(await this.consent.mayReceiveLeads(ownerId, to))) continue;
          if (!(await this.quota.take(ownerId, now))) continue;
          this.mail.sendLeadDigest(to, group);
          sent += 1;
        } catch (error) {
          this.logger.error(`Could not mail a lead digest: ${describeError(error)}`);
        }
      }
      if (rows.length < DIGEST_BATCH) return sent;
    }
  }
}
