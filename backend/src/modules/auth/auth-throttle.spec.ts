import { jest } from '@jest/globals';
import { AuthThrottle, InProcessThrottleStorage } from './auth-throttle.js';
import { AppError } from '../../common/app-error.js';

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

describe('AuthThrottle', () => {
  it('refuses the 6th login of an e-mail after 5 failures with a 429 carrying Retry-After in seconds', async () => {
    const throttle = new AuthThrottle(new InProcessThrottleStorage());
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
});
