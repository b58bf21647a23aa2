import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { LEAD_THANK_YOU_DEFAULT, type LeadField, type LeadResponse, type LeadSummary } from '@botsmith/contract';
import { AppError } from '../../common/app-error.js';
import { CHAT_IN_FLIGHT_TTL_MS } from '../../common/constants.js';
import { TransactionRunner } from '../../database/transaction.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { DailyQuotasService } from '../quotas/daily-quotas.service.js';
import type { BotEntity } from '../bots/bot.entity.js';
import { LeadsService } from '../leads/leads.service.js';
import { MailService } from '../mail/mail.service.js';
import { LeadNoticesService } from '../mail-consent/lead-notices.service.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { ConversationLog } from '../conversations/conversation-log.js';
import { ChatRepository } from './chat.repository.js';
import { ChatService, type ChatCaller } from './chat.service.js';
import type { LeadRequestDto } from './chat.dto.js';
import { ChatRateLimiter } from './rate-limit/chat-rate-limiter.js';
import { describeError } from '../../common/error-description.js';

/** The most recent messages mailed with a lead: enough to see what the visitor needed. */
const TRANSCRIPT_MAX_MESSAGES = 50;
const TRANSCRIPT_MESSAGE_MAX_CHARS = 2000;
/** The visitor's sentence once the bot took its leads for the day. */
export const LEAD_LIMIT_SENTENCE = 'This chatbot cannot take more messages today. Please try again tomorrow.';

const FIELD_NAMES: Record<LeadField, string> = {
  name: 'a name',
  email: 'an e-mail address',
  phone: 'a phone number',
  message: 'a message',
};

export interface CapturedLead {
  body: LeadResponse;
  /** The visitor token to send back (browser callers): a visitor at the cap has none yet. */
  visitorToken: string | undefined;
  lead: LeadSummary;
}

/**
 * POST /api/chat/lead (docs/product.md#leads-and-handoff): a visitor leaves their contact. The
 * caller passes the same checks as a chat message (the bot exists, the site may use it or the
 * bot's API key is given, rate limits) and is identified the same way. Never charged, and not
 * subject to the owner's billing state or the bot's budget: that is when the form matters most.
 *
 * In one transaction: the visitor's conversation (created if needed), marked handed off to a
 * person, and the lead. After the commit, the `lead.created` webhook (and `conversation.handoff`
 * when the lead started the handoff) is queued, and the lead and the transcript are mailed to the
 * bot's confirmed lead addresses (the owner's account address when none is set or confirmed yet;
 * docs/product.md#mail-consent).
 */
@Injectable()
export class LeadCaptureService {
  private readonly logger = new Logger('LeadCapture');

  constructor(
    private readonly chat: ChatService,
    private readonly repository: ChatRepository,
    private readonly log: ConversationLog,
    private readonly transactions: TransactionRunner,
    private readonly rateLimiter: ChatRateLimiter,
    private readonly leads: LeadsService,
    private readonly mail: MailService,
    private readonly webhooks: WebhooksService,
    private readonly leadNotices: LeadNoticesService,
    private readonly dailyQuotas: DailyQuotasService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async capture(input: LeadRequestDto, caller: ChatCaller): Promise<CapturedLead> {
    const { bot, visitor, pageUrl } = await this.chat.resolveCaller(input.botId, caller);
    await this.rateLimiter.hitLead(bot.id, visitor.id, caller.ip);
    const setting = bot.leadCapture;
    if (!setting.enabled) {
      throw new AppError(HttpStatus.CONFLICT, 'LEAD_CAPTURE_DISABLED', 'This chatbot does not take messages.');
    }
    const given = (['name', 'email', 'phone', 'message'] as const).filter((field) => input[field] !== undefined);
    const refused = given.find((field) => !setting.fields.includes(field));
    if (refused) {
      throw AppError.badRequest(`This form does not ask for ${FIELD_NAMES[refused]}.`, 'VALIDATION_FAILED');
    }
    if (input.email === undefined && input.phone === undefined) {
      const either = setting.fields.includes('email') ? 'an e-mail address' : 'a phone number';
      const sentence =
        setting.fields.includes('email') && setting.fields.includes('phone')
          ? 'Please leave an e-mail address or a phone number, so we can get back to you.'
          : `Please leave ${either}, so we can get back to you.`;
      throw AppError.badRequest(sentence, 'VALIDATION_FAILED');
    }

    // The visitor's lock, as for a chat message: one visitor never creates two conversations.
    const reservationId = await this.repository.acquireInFlight(bot.id, visitor.id, CHAT_IN_FLIGHT_TTL_MS);
    if (!reservationId) {
      throw AppError.conflict('Please wait for the answer to your previous message.', 'MESSAGE_IN_FLIGHT');
    }
    let lead: LeadSummary;
    let startedHandoff: boolean;
    try {
      const at = new Date();
      ({ lead, startedHandoff } = await this.transactions.run(async (tx) => {
        // Each lead mails the owner: a bot takes a bounded number a day (docs/product.md#quotas).
        // Counted first, so a refusal rolls back before anything of the lead is written.
        if (!(await this.dailyQuotas.takeOne(tx, 'leads', bot.id, this.config.quotas.leadsPerBotPerDay, at))) {
          throw AppError.dailyLimit('LEAD_LIMIT_REACHED', LEAD_LIMIT_SENTENCE, at);
        }
        const { conversationId, startedHandoff: started } = await this.log.handOffForLead(
          tx,
          { ownerId: bot.ownerId, botId: bot.id, botName: bot.name, visitorId: visitor.id, pageUrl },
          at,
          input.message ?? null,
        );
        const recorded = await this.leads.record(tx, {
          ownerId: bot.ownerId,
          botId: bot.id,
          botName: bot.name,
          conversationId,
          name: input.name ?? null,
          email: input.email ?? null,
          phone: input.phone ?? null,
          message: input.message ?? null,
          createdAt: at,
        });
        return { lead: recorded, startedHandoff: started };
      }));
    } finally {
      await this.repository.releaseInFlight(reservationId);
    }
    // Committed: the webhooks are queued in the background (a webhook problem never fails the lead).
    this.webhooks.notify(bot.ownerId, 'lead.created', { ...lead });
    if (startedHandoff) {
      this.webhooks.notify(bot.ownerId, 'conversation.handoff', { conversationId: lead.conversationId, botId: bot.id });
    }
    await this.notify(bot, lead);
    return { body: { message: setting.thankYouText || LEAD_THANK_YOU_DEFAULT }, visitorToken: visitor.token, lead };
  }

  /** Mails the committed lead; a failure is logged, never the visitor's error (the lead is saved). */
  private async notify(bot: BotEntity, lead: LeadSummary): Promise<void> {
    try {
      // Only confirmed addresses (else the owner's), within the daily limit; past five in ten
      // minutes, the digest (docs/product.md#mail-consent).
      const to = await this.leadNotices.singleNoticeRecipients(bot.ownerId, bot.leadCapture.notifyEmails, lead.id);
      if (to.length === 0) return;
      const messages = await this.log.history(lead.conversationId, TRANSCRIPT_MAX_MESSAGES);
      this.mail.sendLead(to, {
        botName: bot.name,
        name: lead.name,
        email: lead.email,
        phone: lead.phone,
        message: lead.message,
        conversationId: lead.conversationId,
        transcript: messages.map((m) => ({ ...m, content: m.content.slice(0, TRANSCRIPT_MESSAGE_MAX_CHARS) })),
      });
    } catch (error) {
      this.logger.error(`Could not mail lead ${lead.id}: ${describeError(error)}`);
    }
  }
}
