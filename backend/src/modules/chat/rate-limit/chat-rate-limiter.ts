import { HttpStatus } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { AppError } from '../../../common/app-error.js';

/** The storage chat rate limits count in: Redis when REDIS_URL is set, else this process's memory. */
export const CHAT_THROTTLER_STORAGE = Symbol('CHAT_THROTTLER_STORAGE');

export interface ChatRateLimits {
  visitorPerMinute: number;
  ipPerMinute: number;
  botPerMinute: number;
}

const MINUTE_MS = 60_000;

/**
 * Per-visitor, per-IP and per-bot limits for chat messages, counted in a @nestjs/throttler
 * storage under named throttlers. Not a guard: the limits need the bot, which is known only after
 * the input is validated, the bot is found and its origin is checked (that order is the contract).
 * The per-IP limit backs the per-visitor one, since a client chooses its own visitor id.
 */
export class ChatRateLimiter {
  constructor(
    private readonly storage: ThrottlerStorage,
    private readonly limits: ChatRateLimits,
  ) {}

  /** Counts one message; throws 429 RATE_LIMITED with Retry-After (seconds) when a limit is passed. */
  async hit(botId: number, visitorKey: string, ip: string): Promise<void> {
    await this.check('chat-visitor', `${botId}:${visitorKey}`, this.limits.visitorPerMinute);
    await this.check('chat-ip', `${botId}:${ip}`, this.limits.ipPerMinute);
    await this.check('chat-bot', `${botId}`, this.limits.botPerMinute);
  }

  private async check(name: string, key: string, limit: number): Promise<void> {
    const record = await this.storage.increment(`${name}:${key}`, MINUTE_MS, limit, 0, name);
    if (!record.isBlocked) return;
    const retryAfter = Math.max(1, record.timeToBlockExpire || record.timeToExpire);
    throw new AppError(
      HttpStatus.TOO_MANY_REQUESTS,
      'RATE_LIMITED',
      'Too many messages right now. Please wait a moment and try again.',
      { 'Retry-After': String(retryAfter) },
    );
  }
}
