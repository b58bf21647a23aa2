import { HttpStatus, Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { OWNER_REPLY_LIMITS, type OwnerReplyResponse } from '@botsmith/contract';
import { AppError } from '../../common/app-error.js';
import { BackgroundTasks } from '../../common/background-tasks.js';
import { TransactionRunner } from '../../database/transaction.js';
import { ConversationLogRepository } from './conversation-log.repository.js';
import { MailConsentService } from '../mail-consent/mail-consent.service.js';
import { UsersService } from '../users/users.service.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { ConversationsRepository } from './conversations.repository.js';

/** The storage the owners' reply limit counts in (Redis when REDIS_URL is set, else memory). */
export const OWNER_REPLY_THROTTLER_STORAGE = Symbol('OWNER_REPLY_THROTTLER_STORAGE');

const NOT_FOUND = 'This conversation does not exist.';
const BOT_DELETED = 'The chatbot of this conversation was deleted, so its visitor can no longer receive replies.';
const TOO_MANY = 'Too many replies right now. Please wait a moment and try again.';

/** What happens after a reply commits (the visitor's e-mail, the handoff webhook). */
export interface ReplySent {
  ownerId: number;
  conversationId: number;
  botId: number;
  botName: string;
  pageUrl: string | null;
  agentName: string;
  content: string;
  /** The reply began the handoff (the conversation was the bot's until now). */
  startedHandoff: boolean;
}

/**
 * The owner answers a visitor in person from the inbox (docs/product.md#owner-replies). A reply is
 * an 'agent' message in the chat log: never charged (no ledger row, cost 0), it marks the
 * conversation handed off (the bot stays quiet there) until the owner hands it back. The visitor's
 * widget reads it from the database (GET /api/chat/conversations/current/events), so it reaches
 * them whichever instance they are connected to.
 *
 * The chat log is written through this module's ConversationLogRepository (its tables, one owner).
 */
@Injectable()
export class OwnerRepliesService implements OnApplicationShutdown {
  private readonly logger = new Logger('OwnerReplies');
  /** Mail lookups under way (tests and shutdown wait for them). */
  private readonly background = new BackgroundTasks(this.logger);

  constructor(
    private readonly chatLog: ConversationLogRepository,
    private readonly transactions: TransactionRunner,
    private readonly users: UsersService,
    private readonly webhooks: WebhooksService,
    private readonly mailConsent: MailConsentService,
    private readonly conversations: ConversationsRepository,
    @Inject(OWNER_REPLY_THROTTLER_STORAGE) private readonly limits: ThrottlerStorage,
  ) {}

  async reply(ownerId: number, conversationId: number, content: string): Promise<OwnerReplyResponse> {
    await this.countReply(ownerId);
    const agentName = await this.users.agentNameOf(ownerId);
    if (agentName === null) throw AppError.unauthorized();
    const at = new Date();
    const sent = await this.transactions.run(async (tx) => {
      // The owner's row first, as the chat's charge does: both then insert messages (whose foreign
      // key share-locks the owner) and update the conversation, so they queue instead of deadlocking.
      await this.chatLog.lockOwner(tx, ownerId);
      const target = await this.chatLog.lockReplyTarget(tx, ownerId, conversationId);
      if (!target) throw AppError.notFound(NOT_FOUND, 'CONVERSATION_NOT_FOUND');
      if (target.botId === null) throw AppError.conflict(BOT_DELETED, 'BOT_DELETED');
      const [id] = await this.chatLog.logMessages(tx, target.id, ownerId, [
        { role: 'agent', content, createdAt: at, costCents: 0, agentName },
      ]);
      if (target.handoffAt === null) await this.chatLog.startHandoff(tx, target.id, at);
      return { id, target };
    });
    this.afterReply({
      ownerId,
      conversationId,
      botId: sent.target.botId!,
      botName: sent.target.botName,
      pageUrl: sent.target.pageUrl,
      agentName,
      content,
      startedHandoff: sent.target.handoffAt === null,
    });
    return {
      message: {
        id: sent.id,
        role: 'agent',
        content,
        name: agentName,
        createdAt: at.toISOString(),
        citations: [],
        rating: null,
        unanswered: false,
      },
    };
  }

  /** The bot answers the conversation again. */
  async handBack(ownerId: number, conversationId: number): Promise<void> {
    if (!(await this.chatLog.endHandoff(ownerId, conversationId))) {
      throw AppError.notFound(NOT_FOUND, 'CONVERSATION_NOT_FOUND');
    }
  }

  /** After the commit, in the background: nothing here may fail or delay the owner's reply. */
  private afterReply(sent: ReplySent): void {
    if (sent.startedHandoff) {
      // Queued in the background: a webhook problem never fails the reply (docs/product.md#webhooks).
      this.webhooks.notify(sent.ownerId, 'conversation.handoff', {
        conversationId: sent.conversationId,
        botId: sent.botId,
      });
    }
    // To the address the visitor left in a lead (if any): the reply once that address confirmed,
    // else the fixed-text notice whose link confirms it (docs/product.md#mail-consent).
    this.background.start(async () => {
      const to = await this.conversations.visitorEmailOf(sent.ownerId, sent.conversationId);
      if (to) await this.mailConsent.mailReply(sent, to);
    }, `Could not mail a reply in conversation ${sent.conversationId}`);
  }

  /** Resolves when every reply's mail has been handed to the mail service. */
  settled(): Promise<void> {
    return this.background.settled();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  private async countReply(ownerId: number): Promise<void> {
    const record = await this.limits.increment(
      `owner-reply:${ownerId}`,
      60_000,
      OWNER_REPLY_LIMITS.perMinute,
      0,
      'owner-reply',
    );
    if (!record.isBlocked) return;
    const retryAfter = Math.max(1, record.timeToBlockExpire || record.timeToExpire);
    throw new AppError(HttpStatus.TOO_MANY_REQUESTS, 'RATE_LIMITED', TOO_MANY, { 'Retry-After': String(retryAfter) });
  }
}
