import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import { MemoryThrottlerStorage } from './memory-throttler-storage.js';
import { RedisThrottlerStorage, type ThrottlerStorageRecord } from './redis-throttler-storage.js';

/**
 * The chat limits' storage: Redis when REDIS_URL is set (shared by every instance), else
 * an in-memory storage with the same rules (this instance only). If Redis fails, a hit is counted in
 * memory instead: limits keep holding per instance rather than chat failing or running unlimited.
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
    if (this.redisStorage) {
      try {
        return await this.redisStorage.increment(key, ttl, limit, blockDuration, throttlerName);
      } catch (error) {
        if (Date.now() - this.lastWarning > 60_000) {
          this.lastWarning = Date.now();
          this.logger.warn(
            `Redis rate-limit storage failed (${error instanceof Error ? error.message : String(error)}); counting in memory.`,
          );
        }
      }
    }
    return this.memory.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}
