import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';
import { MemoryThrottlerStorage } from './memory-throttler-storage.js';
import { closeRedis, OutageAwareRedisThrottlerStorage, RedisOutageAnswer } from './redis-outage.js';
import type { ThrottlerStorageRecord } from './redis-throttler-storage.js';

/**
 * The chat limits' storage (the widget's routes, and the owners' replies in the inbox): Redis when REDIS_URL is set (shared by every instance), else
 * an in-memory storage with the same rules (this instance only). While Redis is unreachable a
 * message is refused with 503 SERVICE_UNAVAILABLE: counting per instance instead would multiply
 * every limit by the number of instances, and the owner pays for each answer.
 */
export class ChatThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly memory = new MemoryThrottlerStorage();
  private readonly redisStorage?: OutageAwareRedisThrottlerStorage;

  constructor(private readonly redis?: Redis) {
    const outage = new RedisOutageAnswer(new Logger('ChatThrottlerStorage'), 'Redis rate-limit storage');
    if (redis) this.redisStorage = new OutageAwareRedisThrottlerStorage(redis, undefined, outage);
  }

  /**
   * ioredis is imported only with REDIS_URL, to keep it out of the default start
   * (docs/decisions/0016-chat-path-cost.md, "Start-up").
   */
  static async fromUrl(redisUrl: string | undefined): Promise<ChatThrottlerStorage> {
    if (!redisUrl) return new ChatThrottlerStorage();
    const { Redis } = await import('ioredis');
    const redis = new Redis(redisUrl, {
      lazyConnect: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      enableOfflineQueue: true,
    });
    redis.on('error', () => undefined); // reported per hit (RedisOutageAnswer), not as an unhandled event
    return new ChatThrottlerStorage(redis);
  }

  get backend(): 'redis' | 'memory' {
    return this.redisStorage ? 'redis' : 'memory';
  }

  increment(...hit: Parameters<ThrottlerStorage['increment']>): Promise<ThrottlerStorageRecord> {
    return (this.redisStorage ?? this.memory).increment(...hit);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis) await closeRedis(this.redis);
  }
}
