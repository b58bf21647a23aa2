import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { AuthThrottle, InProcessThrottleStorage, RedisAuthThrottleStorage } from './auth-throttle.js';
import { AppError } from '../../common/app-error.js';
import { ClientNetworks } from '../../common/client-network.js';

describe('InProcessThrottleStorage', () => {
  afterEach(() => jest.useRealTimers());

  it('blocks a key once the hits in the window exceed the limit, for the block duration', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
    const storage = new InProcessThrottleStorage();
    for (let i = 1; i <= 3; i += 1) {
      const record = await storage.increment('k', 60_000, 3, 120_000, 'n');
      expect(record).toMatchObject({ totalHits: i, isBlocked: false, timeToBlockExpire: 0 });
    }
    const fourth = await storage.increment('k', 60_000, 3, 120_000, 'n');
    expect(fourth).toMatchObject({ isBlocked: true, timeToBlockExpire: 120 });
    expect(await storage.secondsBlocked('k')).toBe(120);
    expect(await storage.secondsBlocked('other')).toBe(0);

    jest.setSystemTime(new Date('2026-11-22T10:01:59Z'));
    expect(await storage.secondsBlocked('k')).toBe(1);
    jest.setSystemTime(new Date('2026-11-22T10:02:01Z'));
    expect(await storage.secondsBlocked('k')).toBe(0);
    // The old hits have left the window: counting starts again.
    expect(await storage.increment('k', 60_000, 3, 120_000, 'n')).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('slides the window: hits older than ttl no longer count', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
    const storage = new InProcessThrottleStorage();
    await storage.increment('k', 10_000, 2, 10_000, 'n');
    await storage.increment('k', 10_000, 2, 10_000, 'n');
    jest.setSystemTime(new Date('2026-11-22T10:00:10.001Z'));
    expect(await storage.increment('k', 10_000, 2, 10_000, 'n')).toMatchObject({ totalHits: 1, isBlocked: false });
  });
});

const LIMITS = { accountRequestsPerIpPerHour: 20 };
const NETWORKS = new ClientNetworks('a-session-secret-of-at-least-32-characters');

describe('AuthThrottle', () => {
  it('refuses the 6th login of an e-mail after 5 failures with a 429 carrying Retry-After in seconds', async () => {
    const throttle = new AuthThrottle(new InProcessThrottleStorage(), LIMITS, NETWORKS);
    for (let i = 0; i < 5; i += 1) {
      await expect(throttle.assertLoginAllowed('a@example.com', '203.0.113.1')).resolves.toBeUndefined();
      await throttle.recordLoginFailure('a@example.com', '203.0.113.1');
    }
    const refusal = await throttle.assertLoginAllowed('a@example.com', '203.0.113.2').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    const error = refusal as AppError;
    expect(error.getStatus()).toBe(429);
    expect(error.code).toBe('RATE_LIMITED');
    expect(Number(error.headers['Retry-After'])).toBe(900);
    await expect(throttle.assertLoginAllowed('b@example.com', '203.0.113.1')).resolves.toBeUndefined();
  });

  it('refuses the 21st account request of a client network within the hour; an IPv6 /64 is one network', async () => {
    const throttle = new AuthThrottle(new InProcessThrottleStorage(), LIMITS, NETWORKS);
    for (let i = 0; i < 20; i += 1) {
      await expect(throttle.hitAccountRequest(`2001:db8:1:2::${(i + 1).toString(16)}`)).resolves.toBeUndefined();
    }
    const refusal = (await throttle.hitAccountRequest('2001:db8:1:2:ffff::9').catch((e: unknown) => e)) as AppError;
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal.getStatus()).toBe(429);
    expect(refusal.code).toBe('RATE_LIMITED');
    expect(Number(refusal.headers['Retry-After'])).toBe(3600);
    await expect(throttle.hitAccountRequest('2001:db8:1:3::1')).resolves.toBeUndefined();
    await expect(throttle.hitAccountRequest('203.0.113.1')).resolves.toBeUndefined();
  });
});

describe('RedisAuthThrottleStorage (real Redis on loopback, TEST_REDIS_URL)', () => {
  const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const clients: Redis[] = [];
  const client = (target = url) => {
    const redis = new Redis(target, { maxRetriesPerRequest: 1, connectTimeout: 500, retryStrategy: () => null });
    redis.on('error', () => undefined);
    clients.push(redis);
    return redis;
  };
  afterAll(async () => {
    for (const redis of clients) {
      if (redis.status === 'ready') await redis.quit();
      else if (redis.status !== 'end') redis.disconnect();
    }
  });

  it('shares a block between API instances: failures counted on one refuse the login on another', async () => {
    const prefix = `test-auth-throttle:${randomUUID()}:`;
    const first = new AuthThrottle(new RedisAuthThrottleStorage(client(), prefix), LIMITS, NETWORKS);
    const second = new AuthThrottle(new RedisAuthThrottleStorage(client(), prefix), LIMITS, NETWORKS);
    for (let i = 0; i < 5; i += 1) {
      await expect(second.assertLoginAllowed('shared@example.com', '203.0.113.9')).resolves.toBeUndefined();
      await first.recordLoginFailure('shared@example.com', '203.0.113.9');
    }
    const refusal = (await second
      .assertLoginAllowed('shared@example.com', '198.51.100.1')
      .catch((error: unknown) => error)) as AppError;
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal.getStatus()).toBe(429);
    expect(Number(refusal.headers['Retry-After'])).toBeGreaterThan(890);
    expect(Number(refusal.headers['Retry-After'])).toBeLessThanOrEqual(900);
    await expect(second.assertLoginAllowed('other@example.com', '198.51.100.1')).resolves.toBeUndefined();
    const keys = await clients[0].keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    await clients[0].del(...keys);
  });

  it('shares account-request counts between API instances', async () => {
    const prefix = `test-auth-throttle:${randomUUID()}:`;
    const first = new AuthThrottle(
      new RedisAuthThrottleStorage(client(), prefix),
      { accountRequestsPerIpPerHour: 3 },
      NETWORKS,
    );
    const second = new AuthThrottle(
      new RedisAuthThrottleStorage(client(), prefix),
      { accountRequestsPerIpPerHour: 3 },
      NETWORKS,
    );
    await first.hitAccountRequest('198.51.100.7');
    await second.hitAccountRequest('198.51.100.7');
    await first.hitAccountRequest('198.51.100.7');
    await expect(second.hitAccountRequest('198.51.100.7')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(second.hitAccountRequest('198.51.100.8')).resolves.toBeUndefined();
    await clients[0].del(...(await clients[0].keys(`${prefix}*`)));
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After while Redis is unreachable (never an unthrottled login)', async () => {
    const throttle = new AuthThrottle(new RedisAuthThrottleStorage(client('redis://127.0.0.1:1')), LIMITS, NETWORKS);
    for (const attempt of [
      () => throttle.assertLoginAllowed('down@example.com', '203.0.113.10'),
      () => throttle.recordLoginFailure('down@example.com', '203.0.113.10'),
    ]) {
      const refusal = (await attempt().catch((error: unknown) => error)) as AppError;
      expect(refusal).toBeInstanceOf(AppError);
      expect(refusal.getStatus()).toBe(503);
      expect(refusal.getResponse()).toEqual({
        error: 'Botsmith is briefly unavailable. Please try again in a moment.',
        code: 'SERVICE_UNAVAILABLE',
      });
      expect(Number(refusal.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    }
  });
});
