import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { nextMessageFits, nextMessageFitsSql } from '../../src/modules/usage/budget.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The bot budget rule is written once (usage/budget.ts) and rendered twice: as TypeScript (the
 * widget's public face, the 100 % alert) and as the SQL condition of the atomic reservation
 * (chat.repository.ts). Both renderings decide the same on every case, on the database engine
 * this run uses (PostgreSQL with TEST_DATABASE_URL, else PGlite).
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const BUDGETS = [0, 1, 2, 50, 99, 100, 101, 1000];
const SPENT = [0, 1, 49, 50, 95, 96, 97, 98, 99, 100, 101, 1000, 5000];
const PRICES = [0, 1, 2, 3, 5];

describe('the bot budget rule (usage/budget.ts)', () => {
  it('says the next message fits exactly when spent + price <= budget, and always without a budget', () => {
    expect(nextMessageFits({ budgetCents: 100, spentCents: 97, priceCents: 3 })).toBe(true);
    expect(nextMessageFits({ budgetCents: 100, spentCents: 98, priceCents: 3 })).toBe(false);
    expect(nextMessageFits({ budgetCents: 0, spentCents: 1_000_000, priceCents: 3 })).toBe(true);
    expect(nextMessageFits({ budgetCents: 100, spentCents: 100, priceCents: 0 })).toBe(true);
    expect(nextMessageFits({ budgetCents: 100, spentCents: 101, priceCents: 0 })).toBe(false);
  });

  it('decides in SQL as in TypeScript on every case', async () => {
    const cases = BUDGETS.flatMap((budgetCents) =>
      SPENT.flatMap((spentCents) => PRICES.map((priceCents) => ({ budgetCents, spentCents, priceCents }))),
    );
    const condition = nextMessageFitsSql({ budgetCents: 'c.budget', spentCents: 'c.spent', priceCents: 'c.price' });
    const rows: Array<{ i: number; fits: boolean }> = await t.dataSource.query(
      `SELECT c.i, ${condition} AS fits
         FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::integer[]) AS c(i, budget, spent, price)
        ORDER BY c.i`,
      [
        cases.map((_c, i) => i),
        cases.map((c) => c.budgetCents),
        cases.map((c) => c.spentCents),
        cases.map((c) => c.priceCents),
      ],
    );
    expect(rows).toHaveLength(cases.length);
    const sqlSays = rows.map((r) => r.fits === true);
    const tsSays = cases.map((c) => nextMessageFits(c));
    expect(sqlSays).toEqual(tsSays);
    // The cases cover both answers, so agreeing is not trivial.
    expect(tsSays.filter(Boolean).length).toBeGreaterThan(0);
    expect(tsSays.filter((fits) => !fits).length).toBeGreaterThan(0);
  });
});
