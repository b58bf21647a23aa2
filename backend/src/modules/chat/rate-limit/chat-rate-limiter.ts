import { HttpStatus } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { AppError } from '../../../common/app-error.js';
import type { ClientNetworks } from '../../../common/client-network.js';

/** The storage chat rate limits count in: Redis when REDIS_URL is set, else this process's memory. */
export const CHAT_THROTTLER_STORAGE = Symbol('CHAT_THROTTLER_STORAGE');

export interface ChatRateLimits {
  visitorPerMinute: number;
  ipPerMinute: number;
  botPerMinute: number;
}

const MINUTE_MS = 60_000;

/**
 * Ratings of answers (POST /api/chat/feedback): a visitor rates a handful of answers a minute at
 * most, even changing their mind; the per-IP limit holds a script that sends no visitor token.
 */
export const FEEDBACK_RATE_LIMITS = { visitorPerMinute: 30, ipPerMinute: 120 } as const;
/**
 * A visitor deleting their conversation (DELETE /api/chat/conversations/current): once is the
 * normal case; the per-IP limit holds a script that tries tokens or ids one after another.
 */
export const DELETION_RATE_LIMITS = { visitorPerMinute: 5, ipPerMinute: 20 } as const;
/**
 * A visitor's widget reading a person's replies (GET /api/chat/conversations/current/messages
 * every 5 s where server-sent events are blocked, or the events stream reconnecting every 5
 * minutes): 30 a minute leaves room for a few tabs; the per-IP limit holds a script.
 */
export const AGENT_MESSAGES_RATE_LIMITS = { visitorPerMinute: 30, ipPerMinute: 300 } as const;
const TOO_MANY_READS = 'Too many requests for replies right now. Please wait a moment and try again.';
/**
 * Leads (POST /api/chat/lead): each one e-mails the owner, so the limits are tight. A visitor
 * sends the form once or twice; the per-network limit (across all bots) holds a script that sends
 * no visitor token, and the per-bot limit bounds the mail any one owner can be sent.
 */
export const LEAD_RATE_LIMITS = { visitorPerMinute: 5, networkPerMinute: 20, botPerMinute: 30 } as const;
const TOO_MANY_LEADS = 'Too many messages right now. Please wait a moment and try again.';
const TOO_MANY_DELETIONS = 'Too many requests to delete a conversation right now. Please wait a moment and try again.';
const TOO_MANY_MESSAGES = 'Too many messages right now. Please wait a moment and try again.';
const TOO_MANY_RATINGS = 'Too many ratings right now. Please wait a moment and try again.';

/**
 * Per-visitor, per-IP and per-bot limits for chat messages, counted in a @nestjs/throttler
 * storage under named throttlers. Not a guard: the limits need the bot, which is known only after
 * the input is validated, the bot is found and its origin is checked (that order is the contract).
 * The per-IP limit is what bounds a script: a client without a valid visitor token is a new visitor
 * on every message, so the per-visitor limit alone would not stop it. It counts the client's
 * network (an IPv4 address, an IPv6 /64), since one IPv6 client holds a whole /64, under its
 * keyed hash (ClientNetworks): the counters never hold an address.
 */
export class ChatRateLimiter {
  constructor(
    private readonly storage: ThrottlerStorage,
    private readonly limits: ChatRateLimits,
    private readonly networks: ClientNetworks,
  ) {}

  /** Counts one message; throws 429 RATE_LIMITED with Retry-After (seconds) when a limit is passed. */
  async hit(botId: number, visitorKey: string, ip: string): Promise<void> {
    await this.check('chat-visitor', `${botId}:${visitorKey}`, this.limits.visitorPerMinute, TOO_MANY_MESSAGES);
    await this.check('chat-ip', `${botId}:${this.networks.key(ip)}`, this.limits.ipPerMinute, TOO_MANY_MESSAGES);
    await this.check('chat-bot', `${botId}`, this.limits.botPerMinute, TOO_MANY_MESSAGES);
  }

  /** Counts one rating of an answer, per visitor and per client network; 429 as `hit`. */
  async hitFeedback(botId: number, visitorKey: string, ip: string): Promise<void> {
    const network = this.networks.key(ip);
    await this.check(
      'feedback-visitor',
      `${botId}:${visitorKey}`,
      FEEDBACK_RATE_LIMITS.visitorPerMinute,
      TOO_MANY_RATINGS,
    );
    await this.check('feedback-ip', `${botId}:${network}`, FEEDBACK_RATE_LIMITS.ipPerMinute, TOO_MANY_RATINGS);
  }

  /** Counts one request to delete the visitor's conversation, per visitor and per client network; 429 as `hit`. */
  async hitDeletion(botId: number, visitorKey: string, ip: string): Promise<void> {
    const network = this.networks.key(ip);
    await this.check(
      'deletion-visitor',
      `${botId}:${visitorKey}`,
      DELETION_RATE_LIMITS.visitorPerMinute,
      TOO_MANY_DELETIONS,
    );
    await this.check('deletion-ip', `${botId}:${network}`, DELETION_RATE_LIMITS.ipPerMinute, TOO_MANY_DELETIONS);
  }

  /** Counts one read of a person's replies (poll or events stream), per visitor and per client network; 429 as `hit`. */
  async hitAgentMessages(botId: number, visitorKey: string, ip: string): Promise<void> {
    const network = this.networks.key(ip);
    await this.check(
      'agent-visitor',
      `${botId}:${visitorKey}`,
      AGENT_MESSAGES_RATE_LIMITS.visitorPerMinute,
      TOO_MANY_READS,
    );
    await this.check('agent-ip', `${botId}:${network}`, AGENT_MESSAGES_RATE_LIMITS.ipPerMinute, TOO_MANY_READS);
  }

  /** Counts one lead, per visitor, per client network and per bot; 429 as `hit`. */
  async hitLead(botId: number, visitorKey: string, ip: string): Promise<void> {
    await this.check('lead-visitor', `${botId}:${visitorKey}`, LEAD_RATE_LIMITS.visitorPerMinute, TOO_MANY_LEADS);
    await this.check('lead-ip', this.networks.key(ip), LEAD_RATE_LIMITS.networkPerMinute, TOO_MANY_LEADS);
    await this.check('lead-bot', `${botId}`, LEAD_RATE_LIMITS.botPerMinute, TOO_MANY_LEADS);
  }

  private async check(name: string, key: string, limit: number, sentence: string): Promise<void> {
    const record = await this.storage.increment(`${name}:${key}`, MINUTE_MS, limit, 0, name);
    if (!record.isBlocked) return;
    const retryAfter = Math.max(1, record.timeToBlockExpire || record.timeToExpire);
    throw new AppError(HttpStatus.TOO_MANY_REQUESTS, 'RATE_LIMITED', sentence, { 'Retry-After': String(retryAfter) });
  }
}
