import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisThrottlerStorage } from '../../../common/rate-limit/redis-throttler-storage.js';
import { ChatThrottlerStorage } from '../../../common/rate-limit/chat-throttler-storage.js';
import { MemoryThrottlerStorage } from '../../../common/rate-limit/memory-throttler-storage.js';
import { ChatRateLimiter } from './chat-rate-limiter.js';
import { AppError } from '../../../common/app-error.js';
import { ClientNetworks } from '../../../common/client-network.js';

/**
 * Against the real Redis on loopback (TEST_REDIS_URL, default redis://127.0.0.1:6379). Every test
 * uses its own key prefix, so runs never see each other's counters.
 */
const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
let redis: Redis;
let prefix: string;

beforeAll(async () => {
  redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: true });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`These tests need Redis at ${url} (start redis-server or set TEST_REDIS_URL).`, { cause: error });
  }
});

afterAll(async () => {
  const keys = await redis.keys('test-throttle:*');
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

beforeEach(() => {
  prefix = `test-throttle:${randomUUID()}:`;
});

const stores: Array<[string, () => RedisThrottlerStorage | MemoryThrottlerStorage]> = [
  ['Redis', () => new RedisThrottlerStorage(redis, prefix)],
  ['in-memory', () => new MemoryThrottlerStorage()],
];

describe.each(stores)('the %s throttler storage (same rules in both)', (_name, make) => {
  it('counts hits in a window and blocks past the limit, like @nestjs/throttler storage does', async () => {
    const storage = make();
    const results = [];
    for (let i = 0; i < 4; i += 1) results.push(await storage.increment('visitor-1', 60_000, 3, 0, 'chat-visitor'));
    expect(results.map((r) => r.isBlocked)).toEqual([false, false, false, true]);
    expect(results.map((r) => r.totalHits)).toEqual([1, 2, 3, 4]);
    expect(results[0].timeToExpire).toBe(60);
    expect(results[3].timeToBlockExpire).toBeGreaterThanOrEqual(59);
    expect(results[3].timeToBlockExpire).toBeLessThanOrEqual(60);
    // Another key and another throttler name count separately.
    expect((await storage.increment('visitor-2', 60_000, 3, 0, 'chat-visitor')).totalHits).toBe(1);
    expect((await storage.increment('visitor-1', 60_000, 3, 0, 'chat-bot')).totalHits).toBe(1);
  });

  it('starts a new window when the old one expires', async () => {
    const storage = make();
    await storage.increment('k', 300, 1, 0, 'chat-ip');
    expect((await storage.increment('k', 300, 1, 0, 'chat-ip')).isBlocked).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const fresh = await storage.increment('k', 300, 1, 0, 'chat-ip');
    expect(fresh).toMatchObject({ isBlocked: false, totalHits: 1 });
  });

  it('keeps a block for blockDuration, refusing even after the window would have reset', async () => {
    const storage = make();
    await storage.increment('k', 200, 1, 800, 'chat-ip');
    const blocked = await storage.increment('k', 200, 1, 800, 'chat-ip');
    expect(blocked.isBlocked).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await storage.increment('k', 200, 1, 800, 'chat-ip')).isBlocked).toBe(true);
  });
});

describe('RedisThrottlerStorage (real Redis)', () => {
  it('is atomic: 100 concurrent hits from two clients give exactly `limit` passes', async () => {
    const other = new Redis(url);
    try {
      const a = new RedisThrottlerStorage(redis, prefix);
      const b = new RedisThrottlerStorage(other, prefix);
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).increment('bot-7', 60_000, 25, 0, 'chat-bot')),
      );
      expect(results.filter((r) => !r.isBlocked)).toHaveLength(25);
      expect(new Set(results.map((r) => r.totalHits)).size).toBe(100);
    } finally {
      await other.quit();
    }
  });

  it('drives the chat limiter to 429 RATE_LIMITED with Retry-After, shared by two instances', async () => {
    const other = new Redis(url);
    try {
      const limits = { visitorPerMinute: 2, ipPerMinute: 100, botPerMinute: 100 };
      const networks = new ClientNetworks('a-session-secret-of-at-least-32-characters');
      const one = new ChatRateLimiter(new RedisThrottlerStorage(redis, prefix), limits, networks);
      const two = new ChatRateLimiter(new RedisThrottlerStorage(other, prefix), limits, networks);
      await one.hit(5, 'visitor-a', '10.0.0.1');
      await two.hit(5, 'visitor-a', '10.0.0.1');
      const error = await two.hit(5, 'visitor-a', '10.0.0.1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).getStatus()).toBe(429);
      expect((error as AppError).code).toBe('RATE_LIMITED');
      expect(Number((error as AppError).headers['Retry-After'])).toBeGreaterThanOrEqual(1);
      await expect(one.hit(5, 'visitor-b', '10.0.0.1')).resolves.toBeUndefined();
    } finally {
      await other.quit();
    }
  });

  it('refuses with 503 SERVICE_UNAVAILABLE while Redis is unreachable, instead of counting per instance', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    dead.on('error', () => undefined);
    const storage = new ChatThrottlerStorage(dead);
    const refusal = (await storage.increment('k', 60_000, 1, 0, 'chat-visitor').catch((e: unknown) => e)) as AppError;
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal.getStatus()).toBe(503);
    expect(refusal.code).toBe('SERVICE_UNAVAILABLE');
    expect(refusal.headers['Retry-After']).toBe('5');
    await storage.onApplicationShutdown();
  });
});
