import crypto from 'node:crypto';
import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { NotifyEmailsResponse, NotifyEmailStatus } from '@botsmith/contract';
import { widgetChatLink } from '@botsmith/contract';
import { AppError } from '../../common/app-error.js';
import { MAIL_LIMITS } from '../../common/constants.js';
import { BotsService } from '../bots/bots.service.js';
import { MailService } from '../mail/mail.service.js';
import { UsersService } from '../users/users.service.js';
import { MailConsentRepository, type AgentReplyRow, type ConsentRow } from './mail-consent.repository.js';
import { MailQuotaService } from './mail-quota.service.js';
import { describeError } from '../../common/error-description.js';

/** What the public confirmation page shows (docs/product.md#mail-consent). */
export type ConfirmationView =
  | { kind: 'lead_notice'; email: string; confirmed: boolean }
  | {
      kind: 'owner_reply';
      email: string;
      confirmed: boolean;
      botName: string;
      replies: AgentReplyRow[];
      /** The conversation's page with the widget opening on it (contract widgetChatLink), once confirmed. */
      chatUrl: string | null;
    };

/** An owner's reply that may be mailed to the visitor of its conversation. */
export interface ReplyToMail {
  ownerId: number;
  conversationId: number;
  botId: number;
  botName: string;
  pageUrl: string | null;
  agentName: string;
  content: string;
}

const INVALID_LINK = 'This link is not valid anymore. Confirmation links work for 30 days.';
const DAILY_LIMIT =
  'Your account has sent as many e-mails as it may today. Leads and replies stay in your inbox; e-mails go out again tomorrow (UTC).';

function newToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** The host of an http(s) page address, or null. */
function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname : null;
  } catch {
    return null;
  }
}

/**
 * Mail only to people who asked for it (docs/product.md#mail-consent). A bot's lead address other
 * than the owner's verified account address is mailed a fixed-text confirmation request and gets
 * no lead until it confirms; a visitor's address is mailed an owner's reply only once it confirmed
 * through the fixed-text notice of the first reply. Every mail here counts against the account's
 * daily limit (MailQuotaService).
 */
@Injectable()
export class MailConsentService {
  private readonly logger = new Logger('MailConsent');

  constructor(
    private readonly repository: MailConsentRepository,
    private readonly quota: MailQuotaService,
    private readonly mail: MailService,
    private readonly users: UsersService,
    private readonly bots: BotsService,
  ) {}

  /**
   * Where a lead notice may go now: the confirmed addresses among `notifyEmails` (and the owner's
   * own address when listed); the owner's account address when the list is empty or none of it is
   * confirmed yet, so no lead goes unannounced. Addresses never asked get their request now.
   */
  async leadRecipients(ownerId: number, notifyEmails: string[]): Promise<string[]> {
    const account = (await this.users.findActiveById(ownerId))?.email.toLowerCase();
    if (!account) return [];
    const listed = notifyEmails.map((email) => email.toLowerCase());
    const consents = await this.repository.leadNoticeConsents(ownerId, listed);
    const allowed = listed.filter((email) => email === account || consents.get(email)?.confirmedAt);
    for (const email of listed) {
      if (email !== account && !consents.get(email)?.requestedAt) await this.askLeadAddress(ownerId, email);
    }
    return allowed.length > 0 ? allowed : [account];
  }

  /** True when a lead notice may still go to `email` (a digest checks again when it is due). */
  async mayReceiveLeads(ownerId: number, email: string): Promise<boolean> {
    const account = (await this.users.findActiveById(ownerId))?.email.toLowerCase();
    if (!account) return false;
    if (email === account) return true;
    return Boolean((await this.repository.leadNoticeConsents(ownerId, [email])).get(email)?.confirmedAt);
  }

  /** After the owner saved a bot's lead addresses: each new one is asked to confirm. */
  async leadAddressesSaved(ownerId: number, notifyEmails: string[]): Promise<void> {
    await this.leadRecipients(ownerId, notifyEmails);
  }

  async statuses(ownerId: number, botId: number): Promise<NotifyEmailsResponse> {
    const bot = await this.bots.get(ownerId, botId);
    const account = (await this.users.findActiveById(ownerId))?.email.toLowerCase();
    const listed = bot.leadCapture.notifyEmails.map((email) => email.toLowerCase());
    const consents = await this.repository.leadNoticeConsents(ownerId, listed);
    const addresses = listed.map((email): NotifyEmailStatus => {
      const consent = consents.get(email);
      if (email === account) return { email, state: 'account', confirmationSentAt: null };
      return {
        email,
        state: consent?.confirmedAt ? 'confirmed' : 'pending',
        confirmationSentAt: consent?.requestedAt?.toISOString() ?? null,
      };
    });
    return { addresses };
  }

  /** The owner asks again for a pending address's confirmation (not within 10 minutes of the last). */
  async resend(ownerId: number, botId: number, rawEmail: string): Promise<NotifyEmailsResponse> {
    const email = rawEmail.trim().toLowerCase();
    const current = await this.statuses(ownerId, botId);
    const status = current.addresses.find((address) => address.email === email);
    if (!status || status.state !== 'pending') {
      throw AppError.conflict(
        "This address is not waiting for a confirmation: add it to the bot's lead addresses and save first.",
        'NOTIFY_EMAIL_NOT_PENDING',
      );
    }
    const now = new Date();
    const { token, hash } = newToken();
    const askedBefore = new Date(now.getTime() - MAIL_LIMITS.resendAfterMs);
    const max = MAIL_LIMITS.requestsPerLeadAddress;
    if (!(await this.repository.claimLeadNoticeRequest(ownerId, email, hash, now, askedBefore, max))) {
      if ((await this.repository.leadNoticeRequests(ownerId, email)) >= max) {
        throw AppError.conflict(
          `This address was asked ${max} times and has not confirmed, so it is not asked again. Remove it, or ask its owner to look for our e-mail.`,
          'CONFIRMATION_REQUESTS_SPENT',
        );
      }
      throw new AppError(
        HttpStatus.TOO_MANY_REQUESTS,
        'CONFIRMATION_RECENTLY_SENT',
        'A confirmation was sent to this address less than 10 minutes ago. Please wait before sending another.',
        { 'Retry-After': String(Math.ceil(MAIL_LIMITS.resendAfterMs / 1000)) },
      );
    }
    if (!(await this.quota.take(ownerId, now))) {
      await this.repository.unclaimRequest(hash);
      throw AppError.dailyLimit('MAIL_DAILY_LIMIT', DAILY_LIMIT, now);
    }
    this.mail.sendLeadAddressConfirmation(email, token);
    return this.statuses(ownerId, botId);
  }

  /**
   * After an owner's reply: mailed to the visitor's address `to` if it confirmed; else, once per
   * link, the fixed-text notice whose link confirms it and shows the replies. Nothing else.
   */
  async mailReply(reply: ReplyToMail, rawTo: string): Promise<void> {
    const to = rawTo.trim().toLowerCase();
    const now = new Date();
    const consent = await this.repository.replyConsent(reply.conversationId, to);
    if (consent?.confirmedAt) {
      if (await this.quota.take(reply.ownerId, now)) {
        this.mail.sendAgentReply(to, {
          agentName: reply.agentName,
          botName: reply.botName,
          content: reply.content,
          chatUrl: widgetChatLink(reply.pageUrl, reply.botId),
        });
      }
      return;
    }
    const { token, hash } = newToken();
    const askedBefore = new Date(now.getTime() - MAIL_LIMITS.confirmationLinkMs);
    // A notice whose link still works already covers this reply: its page shows every reply.
    if (!(await this.repository.claimReplyRequest(reply.ownerId, reply.conversationId, to, hash, now, askedBefore))) {
      return;
    }
    if (!(await this.quota.take(reply.ownerId, now))) {
      await this.repository.unclaimRequest(hash);
      return;
    }
    this.mail.sendReplyNotice(to, { botName: reply.botName, site: await this.siteOf(reply) }, token);
  }

  /** What the link of a confirmation mail shows; 404 when it is unknown or past its time. */
  async view(token: string, now = new Date()): Promise<ConfirmationView> {
    return this.toView(await this.consentOf(token, now));
  }

  /** Confirms the address of the link (a second time changes nothing), then what the page shows. */
  async confirm(token: string, now = new Date()): Promise<ConfirmationView> {
    const consent = await this.consentOf(token, now);
    await this.repository.confirm(consent.id, now);
    return this.toView({ ...consent, confirmedAt: consent.confirmedAt ?? now });
  }

  private async consentOf(token: string, now: Date): Promise<ConsentRow> {
    const consent = /^[A-Za-z0-9_-]{43}$/.test(token) ? await this.repository.findByTokenHash(hashToken(token)) : null;
    const fresh =
      consent?.requestedAt && now.getTime() - consent.requestedAt.getTime() < MAIL_LIMITS.confirmationLinkMs;
    if (!consent || !fresh) throw AppError.notFound(INVALID_LINK, 'CONFIRMATION_LINK_INVALID');
    return consent;
  }

  private async toView(consent: ConsentRow): Promise<ConfirmationView> {
    const confirmed = consent.confirmedAt !== null;
    if (consent.kind === 'lead_notice') return { kind: 'lead_notice', email: consent.email, confirmed };
    // The replies only once confirmed: the page before asks, so a link scanner's visit confirms nothing.
    const { botName, botId, pageUrl, replies } = await this.repository.repliesOf(consent.conversationId!);
    // The link names the bot, not the conversation: the visitor's own browser (its token) shows it.
    const chatUrl = confirmed && botId !== null ? widgetChatLink(pageUrl, botId) : null;
    return {
      kind: 'owner_reply',
      email: consent.email,
      confirmed,
      botName,
      replies: confirmed ? replies : [],
      chatUrl,
    };
  }

  private async askLeadAddress(ownerId: number, email: string): Promise<void> {
    const now = new Date();
    const { token, hash } = newToken();
    const max = MAIL_LIMITS.requestsPerLeadAddress;
    if (!(await this.repository.claimLeadNoticeRequest(ownerId, email, hash, now, new Date(0), max))) return;
    if (!(await this.quota.take(ownerId, now))) {
      await this.repository.unclaimRequest(hash);
      return;
    }
    this.mail.sendLeadAddressConfirmation(email, token);
  }

  /** The bot's allowed domain when it is locked to one, else the host of the conversation's page. */
  private async siteOf(reply: ReplyToMail): Promise<string> {
    try {
      const bot = await this.bots.get(reply.ownerId, reply.botId);
      if (bot.allowedDomain) return bot.allowedDomain;
    } catch (error) {
      this.logger.warn(`No bot for a reply notice: ${describeError(error)}`);
    }
    return hostOf(reply.pageUrl) ?? 'our website';
  }
}
