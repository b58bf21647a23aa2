import { describe, expect, it } from 'vitest';
import {
  formatCostTooltip,
  formatDayLabel,
  formatDollars,
  formatTokensTooltip,
  formatUtcDay,
  hasAnyUsage,
  toChartData,
  usagePeriod,
} from './usageFormat';
import { usageLimitInput, usageLimitValue } from './usageLimit';
import { history } from '../../test/fixtures';

describe('formatDollars', () => {
  it.each([
    [0, '$0.00'],
    [3, '$0.03'],
    [50, '$0.50'],
    [1234, '$12.34'],
    [100000, '$1,000.00'],
  ])('shows %i cents as %s (two decimals)', (cents, text) => {
    expect(formatDollars(cents)).toBe(text);
  });
});

describe('formatDayLabel', () => {
  it('turns the API day into a short label without shifting it by the time zone', () => {
    expect(formatDayLabel('2026-11-21')).toBe('Nov 21');
    expect(formatDayLabel('2027-01-03')).toBe('Jan 3');
    expect(formatDayLabel('2026-12-31')).toBe('Dec 31');
  });

  it('leaves a label it does not understand as it is', () => {
    expect(formatDayLabel('Nov 21')).toBe('Nov 21');
  });
});

describe('toChartData', () => {
  it('plots messages x2, tokens /100 and cost in dollars (cents /100), keeping the real counts', () => {
    const data = toChartData(history());
    expect(data.labels).toEqual([
      'Nov 13',
      'Nov 14',
      'Nov 15',
      'Nov 16',
      'Nov 17',
      'Nov 18',
      'Nov 19',
      'Nov 20',
      'Nov 21',
      'Nov 22',
    ]);
    expect(data.messages).toEqual([0, 0, 0, 0, 0, 0, 0, 2, 0, 6]);
    expect(data.tokens).toEqual([0, 0, 0, 0, 0, 0, 0, 1.5, 0, 4.2]);
    expect(data.cost).toEqual([0, 0, 0, 0, 0, 0, 0, 0.05, 0, 0.15]);
    expect(data.messageCounts).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 0, 3]);
  });

  it('formats the tooltips: tokens with (x100), cost with a $', () => {
    expect(formatTokensTooltip(4.2)).toBe('4.2 (x100)');
    expect(formatTokensTooltip(12)).toBe('12 (x100)');
    expect(formatTokensTooltip(0.05)).toBe('0.05 (x100)');
    expect(formatCostTooltip(0.15)).toBe('$0.15');
    expect(formatCostTooltip(2)).toBe('$2.00');
    expect(formatCostTooltip(null)).toBe('');
  });

  it('knows when ten days had no message at all', () => {
    expect(hasAnyUsage(history())).toBe(true);
    expect(hasAnyUsage(history({ messageCounts: Array<number>(10).fill(0) }))).toBe(false);
  });
});

describe('usage limit field', () => {
  it('keeps digits only', () => {
    expect(usageLimitInput('12')).toBe('12');
    expect(usageLimitInput('a1b2c')).toBe('12');
    expect(usageLimitInput('-5')).toBe('5');
    expect(usageLimitInput('1e3')).toBe('13');
    expect(usageLimitInput(' 4 0 ')).toBe('40');
    expect(usageLimitInput('$')).toBe('');
  });

  it('saves an empty field as 0 and digits as whole dollars', () => {
    expect(usageLimitValue('')).toBe(0);
    expect(usageLimitValue('0')).toBe(0);
    expect(usageLimitValue('007')).toBe(7);
    expect(usageLimitValue('250')).toBe(250);
  });

  it('caps the field at 7 digits (the server allows up to 1,000,000 dollars)', () => {
    expect(usageLimitInput('123456789')).toBe('1234567');
  });
});

describe('usagePeriod', () => {
  const period = (iso: string) => {
    const { start, end } = usagePeriod(new Date(iso));
    return [formatUtcDay(start), formatUtcDay(end)];
  };

  it('runs from the 3rd, 00:00 UTC, to the next 3rd', () => {
    expect(period('2026-11-22T10:00:00Z')).toEqual(['Nov 3, 2026', 'Dec 3, 2026']);
    expect(period('2026-11-03T00:00:00Z')).toEqual(['Nov 3, 2026', 'Dec 3, 2026']);
    expect(period('2026-11-02T23:59:59.999Z')).toEqual(['Oct 3, 2026', 'Nov 3, 2026']);
  });

  it('crosses the year end', () => {
    expect(period('2027-01-02T12:00:00Z')).toEqual(['Dec 3, 2026', 'Jan 3, 2027']);
    expect(period('2026-12-31T23:00:00Z')).toEqual(['Dec 3, 2026', 'Jan 3, 2027']);
  });
});
