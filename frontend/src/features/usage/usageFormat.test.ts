import { describe, expect, it } from 'vitest';
import {
  formatCostAxis,
  formatCostTooltip,
  formatDayLabel,
  formatDollars,
  formatTotals,
  formatUtcDay,
  forecastSentence,
  hasAnyUsage,
  ordinalDay,
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
  it('plots answers beside visitor messages as counts, and the cost in dollars (cents /100)', () => {
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
    // Not both sides summed (or doubled): each series is what it says.
    expect(data.answers).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 0, 3]);
    expect(data.visitorMessages).toEqual([0, 0, 0, 0, 0, 0, 0, 2, 0, 4]);
    expect(data.cost).toEqual([0, 0, 0, 0, 0, 0, 0, 0.05, 0, 0.15]);
    expect(data.totals).toEqual({ answers: 4, visitorMessages: 6, tokens: 570, cents: 20 });
  });

  it('words the totals and formats the cost axis and tooltip in dollars', () => {
    expect(formatTotals({ answers: 4, visitorMessages: 6, tokens: 3400, cents: 45 })).toBe(
      '4 answers · 6 visitor messages · 3,400 tokens · $0.45',
    );
    expect(formatTotals({ answers: 1, visitorMessages: 1, tokens: 1, cents: 0 })).toBe(
      '1 answer · 1 visitor message · 1 token · $0.00',
    );
    expect(formatCostTooltip(0.15)).toBe('$0.15');
    expect(formatCostTooltip(2)).toBe('$2.00');
    expect(formatCostTooltip(null)).toBe('');
    expect(formatCostAxis(0.05)).toBe('$0.05');
    expect(formatCostAxis(3)).toBe('$3');
  });

  it('knows when ten days had no message at all', () => {
    expect(hasAnyUsage(history())).toBe(true);
    // A handed-off conversation has visitor messages and no answer: still usage to show.
    expect(hasAnyUsage(history({ messageCounts: Array<number>(10).fill(0) }))).toBe(true);
    expect(
      hasAnyUsage(history({ messageCounts: Array<number>(10).fill(0), visitorMessages: Array<number>(10).fill(0) })),
    ).toBe(false);
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

describe('ordinalDay', () => {
  it.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [23, '23rd'],
    [24, '24th'],
    [30, '30th'],
    [31, '31st'],
  ])('%i -> %s', (day, text) => expect(ordinalDay(day)).toBe(text));
});

describe('forecastSentence', () => {
  const figures = (over: Partial<Parameters<typeof forecastSentence>[0]> = {}) => ({
    periodEnd: '2026-12-02',
    spentCents: 600,
    forecastCents: 1240,
    budgetCents: null,
    budgetReachedOn: null,
    ...over,
  });
  const today = '2026-11-20';

  it('names the day a bot reaches its budget, or the account its spend alert', () => {
    const reached = figures({ budgetCents: 1000, budgetReachedOn: '2026-11-24' });
    expect(forecastSentence(reached, 'Shop helper', today)).toBe(
      'At this pace, Shop helper reaches its $10 budget around the 24th.',
    );
    expect(forecastSentence({ ...reached, budgetCents: 2000 }, null, today)).toBe(
      'At this pace, your spend reaches your $20 alert around the 24th.',
    );
    expect(forecastSentence(figures({ budgetCents: 1050, budgetReachedOn: '2026-12-01' }), 'Bot', today)).toBe(
      'At this pace, Bot reaches its $10.50 budget around the 1st.',
    );
    // Today is still "around": the day is not over.
    expect(forecastSentence(figures({ budgetCents: 500, budgetReachedOn: today }), 'Bot', today)).toBe(
      'At this pace, Bot reaches its $5 budget around the 20th.',
    );
  });

  it('says the budget was reached when the day has gone', () => {
    const gone = figures({ budgetCents: 1000, budgetReachedOn: '2026-11-03' });
    expect(forecastSentence(gone, 'Shop helper', today)).toBe('Shop helper reached its $10 budget on the 3rd.');
    expect(forecastSentence(gone, null, today)).toBe('Your spend passed your $10 alert on the 3rd.');
  });

  it('says where the period ends without a budget, or when the budget is not reached', () => {
    expect(forecastSentence(figures(), 'Shop helper', today)).toBe('At this pace, this period ends at about $12.40.');
    expect(forecastSentence(figures({ budgetCents: 5000 }), null, today)).toBe(
      'At this pace, this period ends at about $12.40.',
    );
  });
});
