import { AppError } from '../../common/app-error.js';
import { hashPassword, PASSWORD_HASHING, verifyPassword } from './passwords.js';

describe('password hashing under a burst', () => {
  it('never runs more than the bound of argon2 hashes and verifies at once', async () => {
    const startedBefore = PASSWORD_HASHING.started;
    const hashes = await Promise.all(Array.from({ length: 12 }, (_, i) => hashPassword(`Burst!pass${i}`)));
    const checks = await Promise.all(hashes.map((h, i) => verifyPassword(h, `Burst!pass${i}`)));
    expect(checks).toEqual(new Array(12).fill(true));
    expect(PASSWORD_HASHING.started - startedBefore).toBe(24);
    expect(PASSWORD_HASHING.concurrency).toBeGreaterThanOrEqual(2);
    expect(PASSWORD_HASHING.concurrency).toBeLessThanOrEqual(4);
    expect(PASSWORD_HASHING.peakActive).toBe(PASSWORD_HASHING.concurrency);
    expect(PASSWORD_HASHING.running).toBe(0);
  });

  it('answers 503 SERVICE_UNAVAILABLE past the queue instead of queueing without bound', async () => {
    const burst = PASSWORD_HASHING.concurrency + PASSWORD_HASHING.maxQueued + 5;
    const results = await Promise.allSettled(Array.from({ length: burst }, () => verifyPassword('x', 'y')));
    const refused = results.filter((r) => r.status === 'rejected').map((r) => r.reason);
    expect(refused).toHaveLength(5);
    for (const error of refused) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).getStatus()).toBe(503);
      expect((error as AppError).code).toBe('SERVICE_UNAVAILABLE');
    }
  });
});
