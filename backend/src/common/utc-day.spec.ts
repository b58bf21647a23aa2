import { nextUtcDay, secondsToNextUtcDay, startOfUtcDay } from './utc-day.js';

describe('UTC days (daily quotas)', () => {
  it('starts the day at 00:00 UTC, whatever the instant', () => {
    expect(startOfUtcDay(new Date('2026-11-27T23:59:59.999Z')).toISOString()).toBe('2026-11-27T00:00:00.000Z');
    expect(startOfUtcDay(new Date('2026-11-27T00:00:00.000Z')).toISOString()).toBe('2026-11-27T00:00:00.000Z');
    expect(nextUtcDay(new Date('2026-12-31T12:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('answers a Retry-After of whole seconds to midnight, at least 1', () => {
    expect(secondsToNextUtcDay(new Date('2026-11-27T23:00:00Z'))).toBe(3600);
    expect(secondsToNextUtcDay(new Date('2026-11-27T23:59:59.500Z'))).toBe(1);
    expect(secondsToNextUtcDay(new Date('2026-11-27T00:00:00Z'))).toBe(86_400);
  });
});
