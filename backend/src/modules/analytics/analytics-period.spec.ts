import { describe, expect, it } from '@jest/globals';
import { periodStarts, resolvePeriod, todayIn } from './analytics-period.js';

const NOW = new Date('2026-11-27T23:30:00Z');

describe('resolvePeriod', () => {
  it('defaults to the last 30 days up to today in the time zone, by day', () => {
    expect(resolvePeriod({}, NOW)).toEqual({ from: '2026-10-29', to: '2026-11-27', groupBy: 'day', timeZone: 'UTC' });
    // 23:30 UTC is already the 28th in Berlin.
    expect(resolvePeriod({ timeZone: 'Europe/Berlin' }, NOW)).toMatchObject({ from: '2026-10-30', to: '2026-11-28' });
    expect(todayIn('America/Los_Angeles', NOW)).toBe('2026-11-27');
  });

  it('refuses dates that do not exist, reversed periods, periods over 366 days and unknown time zones', () => {
    for (const asked of [
      { from: '2026-02-30', to: '2026-03-01' },
      { from: '2026-1-1', to: '2026-03-01' },
      { from: '2026-03-02', to: '2026-03-01' },
      { from: '2025-01-01', to: '2026-01-02' },
      { timeZone: 'Mars/Olympus_Mons' },
      { to: "2026-01-01' OR 1=1" },
    ]) {
      expect(() => resolvePeriod(asked, NOW)).toThrow(expect.objectContaining({ code: 'INVALID_RANGE' }));
    }
    expect(resolvePeriod({ from: '2025-01-01', to: '2026-01-01' }, NOW).from).toBe('2025-01-01');
  });
});

describe('periodStarts', () => {
  it('lists every day, both ends included', () => {
    expect(periodStarts({ from: '2026-02-27', to: '2026-03-02', groupBy: 'day', timeZone: 'UTC' })).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
  });

  it('lists the Monday of every week the period touches', () => {
    // 2026-11-27 is a Friday; 2026-12-08 a Tuesday.
    expect(periodStarts({ from: '2026-11-27', to: '2026-12-08', groupBy: 'week', timeZone: 'UTC' })).toEqual([
      '2026-11-23',
      '2026-11-30',
      '2026-12-07',
    ]);
  });
});
