import { isoDate, lastDays, nextPeriodStart, periodStartFor } from './billing-period.js';

describe('billing periods (from the 3rd, UTC)', () => {
  it('starts the period on the 3rd at 00:00 UTC exactly', () => {
    expect(periodStartFor(new Date('2026-11-03T00:00:00.000Z')).toISOString()).toBe('2026-11-03T00:00:00.000Z');
    expect(periodStartFor(new Date('2026-11-02T23:59:59.999Z')).toISOString()).toBe('2026-10-03T00:00:00.000Z');
  });

  it('wraps across the new year', () => {
    expect(periodStartFor(new Date('2027-01-01T12:00:00Z')).toISOString()).toBe('2026-12-03T00:00:00.000Z');
    expect(nextPeriodStart(new Date('2026-12-20T00:00:00Z')).toISOString()).toBe('2027-01-03T00:00:00.000Z');
  });

  it('lists the last 10 UTC days oldest first, ending today', () => {
    const days = lastDays(new Date('2026-11-21T23:30:00-05:00'));
    expect(days).toHaveLength(10);
    expect(days[0]).toBe('2026-11-13');
    expect(days[9]).toBe('2026-11-22');
    expect(isoDate(new Date('2026-03-03T00:00:00Z'))).toBe('2026-03-03');
  });
});
