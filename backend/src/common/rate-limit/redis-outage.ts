import type { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { isServiceOutage, serviceUnavailable } from '../outage.js';
import { RedisThrottlerStorage, type ThrottlerStorageRecord } from './redis-throttler-storage.js';
import { describeError } from '../error-description.js';

/**
 * What a Redis-backed limit answers while Redis is unreachable: 503 SERVICE_UNAVAILABLE, as every
 * route does in an outage, rather than counting in one process, which would let a client spread
 * its requests over the instances and multiply the limit. A warning is logged at most once a
 * minute; any other error is a bug and is passed on unchanged.
 */
export class RedisOutageAnswer {
  private lastWarning = 0;

  constructor(
    private readonly logger: Logger,
    /** Names the store in the warning, e.g. 'Redis throttle storage'. */
    private readonly storageName: string,
  ) {}

  /** The error to throw for `error`, raised by a Redis call. */
  failure(error: unknown): unknown {
    if (!isServiceOutage(error)) return error;
    if (Date.now() - this.lastWarning >= 60_000) {
      this.lastWarning = Date.now();
      const reason = describeError(error);
      this.logger.warn(`${this.storageName} is unreachable (${reason}); answering 503.`);
    }
    return serviceUnavailable();
  }
}

/** Ends a Redis connection at shutdown: politely, or at once when Redis cannot be reached. */
export async function closeRedis(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}

/** A RedisThrottlerStorage whose hits answer by `outage` while Redis is unreachable. */
export class OutageAwareRedisThrottlerStorage extends RedisThrottlerStorage {
  constructor(
    redis: Redis,
    prefix: string | undefined,
    protected readonly outage: RedisOutageAnswer,
  ) {
    super(redis, prefix);
  }

  override async increment(...hit: Parameters<RedisThrottlerStorage['increment']>): Promise<ThrottlerStorageRecord> {
    try {
      return await super.increment(...hit);
    } catch (error) {
      throw this.outage.failure(error);
    }
  }
}
