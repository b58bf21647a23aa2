import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UsageLedgerService } from '../../src/modules/usage/usage-ledger.service.js';
import { UserEntity } from '../../src/modules/users/user.entity.js';
import { chargeMessage } from '../support/billing-helpers.js';
import { createUser } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { transactionOf } from '../../src/database/transaction.js';

let t: TestApp;
let ledger: UsageLedgerService;

beforeAll(async () => {
  t = await startTestApp();
  ledger = t.app.get(UsageLedgerService);
});
afterAll(() => t.close());

const charge = (ownerId: number, priceCents: number, at?: Date) =>
  chargeMessage(t, ownerId, priceCents, at, {
    upstreamModel: 'gpt-4o-2024-08-06',
    promptTokens: 120,
    completionTokens: 30,
  });

async function credits(ownerId: number): Promise<number> {
  const user = await t.dataSource.getRepository(UserEntity).findOneByOrFail({ id: ownerId });
  return user.creditsCents;
}

async function usageRows(ownerId: number) {
  return t.dataSource.query<Array<Record<string, unknown>>>(
    `SELECT price_cents, credits_cents, billable_cents, period_start::text AS period_start, report_identifier,
            total_tokens, model_tier, upstream_model
       FROM usage_events WHERE owner_id = $1 ORDER BY id`,
    [ownerId],
  );
}

describe('chargeAnsweredMessage', () => {
  it('spends free credits before anything is billable, splitting the message that crosses zero', async () => {
    const owner = await createUser(t, { creditsCents: 7 });
    await expect(charge(owner.id, 5)).resolves.toMatchObject({ creditsCents: 5, billableCents: 0 });
    await expect(charge(owner.id, 5)).resolves.toMatchObject({ creditsCents: 2, billableCents: 3 });
    await expect(charge(owner.id, 5)).resolves.toMatchObject({ creditsCents: 0, billableCents: 5 });
    expect(await credits(owner.id)).toBe(0);
    const rows = await usageRows(owner.id);
    expect(rows.map((r) => [r.price_cents, r.credits_cents, r.billable_cents])).toEqual([
      [5, 5, 0],
      [5, 2, 3],
      [5, 0, 5],
    ]);
    expect(rows[0]).toMatchObject({ total_tokens: 150, model_tier: 'gpt-4o', upstream_model: 'gpt-4o-2024-08-06' });
    expect(new Set(rows.map((r) => r.report_identifier)).size).toBe(3);
  });

  it('files the row under the billing period that starts on the 3rd, 00:00 UTC', async () => {
    const owner = await createUser(t);
    await charge(owner.id, 3, new Date('2026-03-02T23:59:59Z'));
    await charge(owner.id, 3, new Date('2026-03-03T00:00:00Z'));
    const rows = await usageRows(owner.id);
    expect(rows.map((r) => r.period_start)).toEqual(['2026-02-03', '2026-03-03']);
  });

  it('never takes credits below zero under 50 concurrent charges', async () => {
    const owner = await createUser(t, { creditsCents: 100 });
    const results = await Promise.all(Array.from({ length: 50 }, () => charge(owner.id, 3)));
    const fromCredits = results.reduce((sum, r) => sum + r.creditsCents, 0);
    const billable = results.reduce((sum, r) => sum + r.billableCents, 0);
    expect(fromCredits).toBe(100);
    expect(billable).toBe(150 - 100);
    expect(await credits(owner.id)).toBe(0);
    expect(await usageRows(owner.id)).toHaveLength(50);
  });

  it('charges nothing when the caller rolls its transaction back', async () => {
    const owner = await createUser(t, { creditsCents: 50 });
    await expect(
      t.dataSource.transaction(async (manager) => {
        await ledger.chargeAnsweredMessage(transactionOf(manager), {
          ownerId: owner.id,
          botId: null,
          messageId: null,
          modelTier: 'gpt-4o',
          upstreamModel: 'gpt-4o',
          priceCents: 5,
          promptTokens: 1,
          completionTokens: 1,
        });
        throw new Error('the answer failed after all');
      }),
    ).rejects.toThrow('the answer failed after all');
    expect(await credits(owner.id)).toBe(50);
    expect(await usageRows(owner.id)).toHaveLength(0);
  });

  it('answers 404 when the owner no longer exists, writing nothing', async () => {
    const owner = await createUser(t, { creditsCents: 50 });
    await t.dataSource.query(`DELETE FROM users WHERE id = $1`, [owner.id]);
    await expect(charge(owner.id, 3)).rejects.toMatchObject({ status: 404 });
    expect(await usageRows(owner.id)).toHaveLength(0);
  });

  it('never bills the system account and leaves its balance alone', async () => {
    const system = await createUser(t, { billing: 'none', creditsCents: 0 });
    await t.dataSource.query(`UPDATE users SET is_system = true WHERE id = $1`, [system.id]);
    await expect(charge(system.id, 5)).resolves.toMatchObject({ creditsCents: 5, billableCents: 0 });
    expect(await credits(system.id)).toBe(0);
    expect(await ledger.getOwnerBillingState(system.id)).toEqual({ canServe: true });
  });
});

describe('getOwnerBillingState', () => {
  it('serves a paid subscription even with no credits left', async () => {
    const owner = await createUser(t, { billing: 'paid', creditsCents: 0 });
    expect(await ledger.getOwnerBillingState(owner.id)).toEqual({ canServe: true });
  });

  it('refuses with PAYMENT_FAILED after a failed payment, credits or not', async () => {
    const owner = await createUser(t, { billing: 'failed', creditsCents: 500 });
    expect(await ledger.getOwnerBillingState(owner.id)).toEqual({ canServe: false, code: 'PAYMENT_FAILED' });
  });

  it('serves an owner without a subscription only while free credits last', async () => {
    const owner = await createUser(t, { billing: 'customer', creditsCents: 3 });
    expect(await ledger.getOwnerBillingState(owner.id)).toEqual({ canServe: true });
    await charge(owner.id, 3);
    expect(await ledger.getOwnerBillingState(owner.id)).toEqual({ canServe: false, code: 'OUT_OF_CREDITS' });
  });

  it('refuses a deleted or unknown owner', async () => {
    const owner = await createUser(t);
    await t.dataSource.query(`UPDATE users SET deleted_at = now() WHERE id = $1`, [owner.id]);
    expect(await ledger.getOwnerBillingState(owner.id)).toEqual({ canServe: false, code: 'SETUP_REQUIRED' });
    expect(await ledger.getOwnerBillingState(99_999)).toEqual({ canServe: false, code: 'SETUP_REQUIRED' });
  });
});
