import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import { isServiceOutage, serviceUnavailable } from '../../../common/outage.js';
import { MemoryThrottlerStorage } from '../../../common/rate-limit/memory-throttler-storage.js';
import {
  RedisThrottlerStorage,
  type ThrottlerStorageRecord,
} from '../../../common/rate-limit/redis-throttler-storage.js';

/**
 * The chat limits' storage: Redis when REDIS_URL is set (shared by every instance), else
 * an in-memory storage with the same rules (this instance only). While Redis is unreachable a
 * message is refused with 503 SERVICE_UNAVAILABLE: counting per instance instead would multiply
 * every limit by the number of instances, and the owner pays for each answer.
 */
export class ChatThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('ChatThrottlerStorage');
  private readonly memory = new MemoryThrottlerStorage();
  private readonly redisStorage?: RedisThrottlerStorage;
  private lastWarning = 0;

  constructor(private readonly redis?: Redis) {
    if (redis) this.redisStorage = new RedisThrottlerStorage(redis);
  }

  static fromUrl(redisUrl: string | undefined): ChatThrottlerStorage {
    if (!redisUrl) return new ChatThrottlerStorage();
    const redis = new Redis(redisUrl, {
      lazyConnect: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      enableOfflineQueue: true,
    });
    redis.on('error', () => undefined); // reported per hit below, not as an unhandled event
    return new ChatThrottlerStorage(redis);
  }

  get backend(): 'redis' | 'memory' {
    return this.redisStorage ? 'redis' : 'memory';
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    if (!this.redisStorage) return this.memory.increment(key, ttl, limit, blockDuration, throttlerName);
    try {
      return await this.redisStorage.increment(key, ttl, limit, blockDuration, throttlerName);
    } catch (error) {
      if (!isServiceOutage(error)) throw error;
      if (Date.now() - this.lastWarning > 60_000) {
        this.lastWarning = Date.now();
        this.logger.warn(
          `Redis rate-limit storage is unreachable (${error instanceof Error ? error.message : String(error)}); answering 503.`,
        );
      }
      throw serviceUnavailable();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}
