import crypto from 'node:crypto';
import { HttpStatus, Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { AppError } from '../../common/app-error.js';
import { ClientNetworks } from '../../common/client-network.js';
import { ACCOUNT_IP_LIMIT_WINDOW_MS, ACCOUNT_MAIL_LIMIT, LOGIN_FAILURE_LIMITS } from '../../common/constants.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { IdleSweep } from '../../common/rate-limit/idle-sweep.js';
import {
  closeRedis,
  OutageAwareRedisThrottlerStorage,
  RedisOutageAnswer,
} from '../../common/rate-limit/redis-outage.js';
import type { ThrottlerStorageRecord } from '../../common/rate-limit/redis-throttler-storage.js';
import type { Redis } from 'ioredis';

/**
 * @nestjs/throttler's storage counts a hit on every call. Login throttling must count only
 * failures, and must refuse a blocked e-mail or IP *before* checking the password (else a correct
 * guess would still get in), so it also needs to read a key without counting.
 */
export interface AuthThrottleStorage extends ThrottlerStorage {
  /** Seconds until `key` is unblocked for that throttler; 0 when it is not blocked. Counts nothing. */
  secondsBlocked(key: string, throttlerName: string): Promise<number>;
}

export const AUTH_THROTTLE_STORAGE = Symbol('AUTH_THROTTLE_STORAGE');

interface Counter {
  /** When each counted hit leaves the window (ms since epoch), oldest first. */
  hits: number[];
  blockedUntil: number;
}

/**
 * The in-process default, with @nestjs/throttler's semantics: a sliding window of `ttl` ms; once
 * the hits in it exceed `limit`, the key is blocked for `blockDuration` ms and further hits are
 * not counted. (@nestjs/throttler's own ThrottlerStorageService is CommonJS requiring the ESM-only
 * @nestjs/common, which Jest on Node 20 cannot load, so the storage is written here.)
 */
export class InProcessThrottleStorage implements AuthThrottleStorage {
  private readonly counters = new Map<string, Counter>();
  /** Drops idle counters, so memory stays bounded by recent traffic. */
  private readonly sweep = new IdleSweep(
    this.counters,
    (counter: Counter, now) => counter.blockedUntil <= now && counter.hits.every((expiry) => expiry <= now),
  );

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    _name?: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    this.sweep.run(now);
    const counter = this.counters.get(key) ?? { hits: [], blockedUntil: 0 };
    this.counters.set(key, counter);
    counter.hits = counter.hits.filter((expiry) => expiry > now);
    if (counter.blockedUntil <= now) {
      counter.blockedUntil = 0;
      counter.hits.push(now + ttl);
      if (counter.hits.length > limit) counter.blockedUntil = now + (blockDuration > 0 ? blockDuration : ttl);
    }
    const seconds = (ms: number) => Math.max(0, Math.ceil((ms - now) / 1000));
    return Promise.resolve({
      totalHits: counter.hits.length,
      timeToExpire: seconds(counter.hits[0] ?? now),
      isBlocked: counter.blockedUntil > now,
      timeToBlockExpire: seconds(counter.blockedUntil),
    });
  }

  secondsBlocked(key: string, _throttlerName?: string): Promise<number> {
    const blockedUntil = this.counters.get(key)?.blockedUntil ?? 0;
    return Promise.resolve(Math.max(0, Math.ceil((blockedUntil - Date.now()) / 1000)));
  }
}

/**
 * With REDIS_URL the counters live in Redis (the chat module's RedisThrottlerStorage and its
 * key layout), so every API instance sees the same failures. While Redis is unreachable the
 * request is a 503 SERVICE_UNAVAILABLE: counting in one process instead would let a guesser
 * spread attempts over the instances and multiply the limit.
 */
export class RedisAuthThrottleStorage
  extends OutageAwareRedisThrottlerStorage
  implements AuthThrottleStorage, OnApplicationShutdown
{
  constructor(redis: Redis, prefix = 'botsmith:auth-throttle:') {
    super(redis, prefix, new RedisOutageAnswer(new Logger('AuthThrottle'), 'Redis throttle storage'));
  }

  async secondsBlocked(key: string, throttlerName: string): Promise<number> {
    try {
      // RedisThrottlerStorage keeps a block as `<prefix><name>:{<key>}:block` with a TTL.
      const ms = await this.redis.pttl(`${this.prefix}${throttlerName}:{${key}}:block`);
      return ms > 0 ? Math.ceil(ms / 1000) : 0;
    } catch (error) {
      throw this.outage.failure(error);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await closeRedis(this.redis);
  }
}

/**
 * ioredis is imported only with REDIS_URL, to keep it out of the default start
 * (docs/decisions/0016-chat-path-cost.md, "Start-up").
 */
export async function createAuthThrottleStorage(config: AppConfig): Promise<AuthThrottleStorage> {
  if (!config.redisUrl) return new InProcessThrottleStorage();
  const { Redis } = await import('ioredis');
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
  redis.on('error', () => undefined); // reported per call by RedisAuthThrottleStorage
  return new RedisAuthThrottleStorage(redis);
}

function key(kind: string, value: string): string {
  return crypto.createHash('sha256').update(`${kind}:${value}`).digest('hex');
}

function rateLimited(seconds: number, message: string): AppError {
  const retryAfter = Math.max(1, seconds);
  return new AppError(HttpStatus.TOO_MANY_REQUESTS, 'RATE_LIMITED', message, { 'Retry-After': String(retryAfter) });
}

const TOO_MANY_LOGINS = 'Too many failed login attempts. Please wait a few minutes and try again.';
const TOO_MANY_MAILS = 'Too many requests for this email address. Please wait a few minutes and try again.';
const TOO_MANY_ACCOUNT_REQUESTS =
  'Too many sign-up and password reset requests from your network. Please wait a while and try again.';

/** Login, account-mail and account-request throttling (429 RATE_LIMITED with Retry-After in seconds). */
@Injectable()
export class AuthThrottle {
  constructor(
    @Inject(AUTH_THROTTLE_STORAGE) private readonly storage: AuthThrottleStorage,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'accountRequestsPerIpPerHour'>,
    private readonly networks: ClientNetworks,
  ) {}

  /**
   * Counts a signup, forgot-password or reset-password request from a client network (one
   * bucket for the three) and refuses it past SIGNUP_IP_RATE_LIMIT an hour. Called before any
   * password is hashed, so a flood costs a counter increment per request, not an argon2 run.
   */
  async hitAccountRequest(ip: string | undefined): Promise<void> {
    const limit = this.config.accountRequestsPerIpPerHour;
    const windowMs = ACCOUNT_IP_LIMIT_WINDOW_MS;
    const record = await this.storage.increment(
      key('account-ip', this.networks.key(ip)),
      windowMs,
      limit,
      windowMs,
      'account-ip',
    );
    if (record.isBlocked) throw rateLimited(record.timeToBlockExpire, TOO_MANY_ACCOUNT_REQUESTS);
  }

  /**
   * Refuses a login attempt for an e-mail or client network that has failed too often lately.
   * One IPv6 client usually holds a whole /64: failures count per network, not per address.
   */
  async assertLoginAllowed(email: string, ip: string | undefined): Promise<void> {
    const seconds = Math.max(
      await this.storage.secondsBlocked(key('login-email', email), 'login-email'),
      await this.storage.secondsBlocked(key('login-ip', this.networks.key(ip)), 'login-ip'),
    );
    if (seconds > 0) throw rateLimited(seconds, TOO_MANY_LOGINS);
  }

  /** Counts one failed login against the e-mail and the client network. */
  async recordLoginFailure(email: string, ip: string | undefined): Promise<void> {
    const { perEmail, perIp } = LOGIN_FAILURE_LIMITS;
    // The storage blocks once hits EXCEED the limit it is given, so `limit - 1` blocks at `limit`.
    await this.storage.increment(
      key('login-email', email),
      perEmail.windowMs,
      perEmail.limit - 1,
      perEmail.windowMs,
      'login-email',
    );
    const network = key('login-ip', this.networks.key(ip));
    await this.storage.increment(network, perIp.windowMs, perIp.limit - 1, perIp.windowMs, 'login-ip');
  }

  /** Counts a signup or forgot-password request for an address; refuses past the limit. */
  async hitAccountMail(email: string): Promise<void> {
    const { limit, windowMs } = ACCOUNT_MAIL_LIMIT;
    const record = await this.storage.increment(key('account-mail', email), windowMs, limit, windowMs, 'account-mail');
    if (record.isBlocked) throw rateLimited(record.timeToBlockExpire, TOO_MANY_MAILS);
  }
}
