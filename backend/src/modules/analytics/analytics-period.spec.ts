import { describe, expect, it } from '@jest/globals';
import { inQuarterHours, periodStarts, resolvePeriod, todayIn, type AnalyticsPeriodQuery } from './analytics-period.js';

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

describe('inQuarterHours', () => {
  const year = (timeZone: string, from = '2025-11-25', to = '2026-11-25'): AnalyticsPeriodQuery => ({
    from,
    to,
    groupBy: 'week',
    timeZone,
  });

  it('is true for zones a whole number of quarter hours from UTC, summer time included', () => {
    for (const zone of [
      'UTC',
      'Europe/Berlin',
      'America/New_York',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Australia/Adelaide',
      'America/St_Johns',
      'Pacific/Chatham',
      'Australia/Lord_Howe',
      'Asia/Tokyo',
    ]) {
      expect([zone, inQuarterHours(year(zone))]).toEqual([zone, true]);
    }
    // One day, both ends the same.
    expect(inQuarterHours(year('Asia/Kathmandu', '2026-11-27', '2026-11-27'))).toBe(true);
  });

  it('is false for a period when the zone kept its local mean time, an offset in minutes and seconds', () => {
    // Kathmandu was +05:41:16 until 1920-01-01, then +05:30 until 1986, then +05:45.
    expect(inQuarterHours(year('Asia/Kathmandu', '1919-01-01', '1919-12-31'))).toBe(false);
    // A period that reaches it only through the day before its first (read too).
    expect(inQuarterHours(year('Asia/Kathmandu', '1920-01-01', '1920-01-31'))).toBe(false);
    expect(inQuarterHours(year('Asia/Kathmandu', '1920-01-02', '1920-12-31'))).toBe(true);
    expect(inQuarterHours(year('Asia/Kathmandu', '1985-06-01', '1986-06-01'))).toBe(true);
  });
});
