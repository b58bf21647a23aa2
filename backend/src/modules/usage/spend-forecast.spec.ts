import { describe, expect, it } from '@jest/globals';
import { forecastSpend } from './spend-forecast.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `cents(day)` for every day from `from` to `to` (both included, YYYY-MM-DD). */
function series(from: string, to: string, cents: (day: Date) => number): Map<string, number> {
  const days = new Map<string, number>();
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += DAY_MS) {
    days.set(new Date(at).toISOString().slice(0, 10), cents(new Date(at)));
  }
  return days;
}

describe('forecastSpend', () => {
  it('carries a steady pace to the end of the billing period (the 3rd to the 2nd)', () => {
    // 100 cents every day; on the 13th at midnight the period (from the 3rd) has had 10 days.
    const forecast = forecastSpend({
      now: new Date('2026-11-13T00:00:00Z'),
      dailyCents: series('2026-10-16', '2026-11-12', () => 100),
      budgetCents: 2500,
    });
    // 1,000 spent + 20 days left (the 13th to 2 December) x 100; 2,500 is reached on the 27th.
    expect(forecast).toEqual({
      periodEnd: '2026-12-02',
      spentCents: 1000,
      forecastCents: 3000,
      budgetReachedOn: '2026-11-27',
    });
  });

  it('weights weekdays like the last four weeks: a shop that sells only on Mondays', () => {
    // 2026-11-09 was a Monday. Mondays 700 cents, other days nothing.
    const dailyCents = series('2026-10-13', '2026-11-09', (day) => (day.getUTCDay() === 1 ? 700 : 0));
    const forecast = forecastSpend({ now: new Date('2026-11-10T00:00:00Z'), dailyCents, budgetCents: 2000 });
    // Spent this period: Monday the 9th (700). Mondays left: 16th, 23rd, 30th: 3 x 700 more.
    expect(forecast).toEqual({
      periodEnd: '2026-12-02',
      spentCents: 700,
      forecastCents: 2800,
      budgetReachedOn: '2026-11-23',
    });
  });

  it("early in a period, takes the last four weeks' average as the pace", () => {
    const dailyCents = series('2026-10-06', '2026-11-02', () => 100);
    dailyCents.set('2026-11-03', 50);
    const forecast = forecastSpend({ now: new Date('2026-11-03T06:00:00Z'), dailyCents, budgetCents: null });
    // A quarter of the 3rd has gone: 50 spent, 0.75 x 100 for the rest of it, 29 days x 100.
    expect(forecast).toEqual({ periodEnd: '2026-12-02', spentCents: 50, forecastCents: 3025, budgetReachedOn: null });
  });

  it('forecasts nothing more than what was spent with no history and no time gone', () => {
    expect(forecastSpend({ now: new Date('2026-11-03T00:00:00Z'), dailyCents: new Map(), budgetCents: 1000 })).toEqual({
      periodEnd: '2026-12-02',
      spentCents: 0,
      forecastCents: 0,
      budgetReachedOn: null,
    });
  });

  it('names today when the budget is already spent, and no day when it is never reached', () => {
    const dailyCents = series('2026-10-16', '2026-11-12', () => 100);
    const now = new Date('2026-11-13T00:00:00Z');
    expect(forecastSpend({ now, dailyCents, budgetCents: 900 }).budgetReachedOn).toBe('2026-11-13');
    expect(forecastSpend({ now, dailyCents, budgetCents: 5000 }).budgetReachedOn).toBeNull();
    expect(forecastSpend({ now, dailyCents, budgetCents: 0 }).budgetReachedOn).toBeNull();
  });

  it('ends a period that started in the previous month on the 2nd of this one', () => {
    const forecast = forecastSpend({ now: new Date('2026-12-01T12:00:00Z'), dailyCents: new Map(), budgetCents: null });
    expect(forecast.periodEnd).toBe('2026-12-02');
    expect(
      forecastSpend({ now: new Date('2026-12-03T00:00:00Z'), dailyCents: new Map(), budgetCents: null }).periodEnd,
    ).toBe('2027-01-02');
  });
});
