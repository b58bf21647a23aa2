import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { nextPeriodStart } from '../../src/common/billing-period.js';
import { BillingCycleService } from '../../src/modules/billing/billing-cycle.service.js';
import { MeterReporter } from '../../src/modules/billing/meter-reporter.service.js';
import { UsageLedgerService } from '../../src/modules/usage/usage-ledger.service.js';
import {
  chargeMessage,
  completeSetup,
  FAILING_CARD,
  GOOD_CARD,
  pathOf,
  submitTestCard,
  userBilling,
} from '../support/billing-helpers.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The next 3rd after now, a minute past midnight: when the scheduler would run the cycle. */
function nextCycleTime(): Date {
  return new Date(nextPeriodStart(new Date()).getTime() + 60_000);
}

async function meterEvents(customerId: string) {
  return t.dataSource.query<Array<{ identifier: string; value: number; invoice_id: string | null }>>(
    `SELECT identifier, value, invoice_id FROM test_payment_meter_events WHERE customer_id = $1 ORDER BY identifier`,
    [customerId],
  );
}

async function invoices(customerId: string) {
  return t.dataSource.query<Array<{ amount_cents: number; status: string; attempt_count: number }>>(
    `SELECT amount_cents, status, attempt_count FROM test_payment_invoices WHERE customer_id = $1 ORDER BY created_at`,
    [customerId],
  );
}

describe('setup flow on the test-mode payment page', () => {
  it('creates the customer, collects the 4242 card on the built-in page and subscribes once', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'none' });

    const created = await agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({});
    expect(created.status).toBe(200);
    expect(created.body.url).toMatch(new RegExp(`^${t.origin}/billing/test-checkout/cs_test_[\\w-]{32}$`));
    const afterCustomer = await userBilling(t, user.id);
    expect(afterCustomer.stripe_customer_id).toMatch(/^cus_test_/);
    expect(afterCustomer.subscription_item_id).toBeNull();
    expect((await agent.get('/api/auth/has-payment-method')).body).toEqual({ hasPaymentMethod: false });

    const page = await t.http().get(pathOf(created.body.url)).set('Accept', 'text/html');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Test mode: no real charge');
    expect(page.text).toContain(user.email);
    expect(page.text).toContain(
      'Why a card? Your $5 of free credits are free: nothing is charged until they are used up.',
    );
    expect(page.text).not.toMatch(/<script/i);

    const submitted = await submitTestCard(t, created.body.url, GOOD_CARD);
    expect(submitted.status).toBe(303);
    expect(submitted.headers.location).toMatch(new RegExp(`^${t.origin}/setup-success\\?session_id=cs_test_`));
    expect((await agent.get('/api/auth/has-payment-method')).body).toEqual({ hasPaymentMethod: true });

    const first = await agent.post('/api/auth/create-stripe-subscription').set('Origin', t.origin).send({});
    expect(first.status).toBe(200);
    expect(first.body.subscriptionItemId).toMatch(/^si_test_/);
    const second = await agent.post('/api/auth/create-stripe-subscription').set('Origin', t.origin).send({});
    expect(second.body).toEqual(first.body);
    const subscriptions = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM test_payment_subscriptions WHERE customer_id = $1`,
      [afterCustomer.stripe_customer_id],
    );
    expect(subscriptions[0].n).toBe(1);

    expect(await userBilling(t, user.id)).toMatchObject({
      has_paid: true,
      subscription_item_id: first.body.subscriptionItemId,
    });
    const me = await agent.get('/api/user/me');
    expect(me.body).toMatchObject({ hasPaid: true, subscriptionItemId: first.body.subscriptionItemId });

    const subscription = await agent.get('/api/subscription');
    expect(subscription.status).toBe(200);
    expect(subscription.body).toMatchObject({ status: 'active', creditsCents: 500, hasPaid: true });
    expect(new Date(subscription.body.currentPeriodEnd).getUTCDate()).toBe(3);
  });

  it('reuses the customer when create-stripe-customer is called again', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'none' });
    const a = await agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({});
    const customer = (await userBilling(t, user.id)).stripe_customer_id;
    const b = await agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({});
    expect(b.status).toBe(200);
    expect(b.body.url).not.toBe(a.body.url);
    expect((await userBilling(t, user.id)).stripe_customer_id).toBe(customer);
    const customers = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM test_payment_customers WHERE owner_id = $1`,
      [user.id],
    );
    expect(customers[0].n).toBe(1);
  });

  it('concurrent setup calls (two tabs, double clicks) create one customer and one subscription', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'none' });
    const customers = await Promise.all(
      Array.from({ length: 5 }, () => agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({})),
    );
    expect(customers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const customerRows = await t.dataSource.query<Array<{ id: string }>>(
      `SELECT id FROM test_payment_customers WHERE owner_id = $1`,
      [user.id],
    );
    expect(customerRows).toHaveLength(1);
    expect((await userBilling(t, user.id)).stripe_customer_id).toBe(customerRows[0].id);

    await submitTestCard(t, customers[0].body.url as string, GOOD_CARD);
    const subscriptions = await Promise.all(
      Array.from({ length: 5 }, () =>
        agent.post('/api/auth/create-stripe-subscription').set('Origin', t.origin).send({}),
      ),
    );
    expect(subscriptions.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(subscriptions.map((r) => r.body.subscriptionItemId as string)).size).toBe(1);
    const subscriptionRows = await t.dataSource.query<unknown[]>(
      `SELECT id FROM test_payment_subscriptions WHERE customer_id = $1`,
      [customerRows[0].id],
    );
    expect(subscriptionRows).toHaveLength(1);
  });

  it('rejects a card number that is not a test card, with a clear message, and saves nothing', async () => {
    const { agent } = await signedInAgent(t, { billing: 'none' });
    const created = await agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({});
    const rejected = await submitTestCard(t, created.body.url, '5555 5555 5555 4444');
    expect(rejected.status).toBe(400);
    expect(rejected.text).toContain('accepts only the test cards 4242 4242 4242 4242');
    expect(rejected.text).toContain('Test mode: no real charge');
    expect((await agent.get('/api/auth/has-payment-method')).body).toEqual({ hasPaymentMethod: false });
  });

  it('answers 404 for an unknown payment page and refuses a subscription without a card', async () => {
    const missing = await t.http().get('/billing/test-checkout/cs_test_nope').set('Accept', 'text/html');
    expect(missing.status).toBe(404);
    const { agent } = await signedInAgent(t, { billing: 'none' });
    await agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({});
    const refused = await agent.post('/api/auth/create-stripe-subscription').set('Origin', t.origin).send({});
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'Please add a card first.', code: 'PAYMENT_METHOD_REQUIRED' });
  });

  it('rejects unknown fields and requires a session', async () => {
    const { agent } = await signedInAgent(t, { billing: 'none' });
    const extra = await agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({ priceId: 'x' });
    expect(extra.status).toBe(400);
    expect(extra.body.code).toBe('VALIDATION_FAILED');
    const anonymous = await t.http().post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({});
    expect(anonymous.status).toBe(401);
    expect((await t.http().get('/api/auth/has-payment-method')).status).toBe(401);
  });
});

describe('the billing-state guard on a dashboard route (GET /api/subscription)', () => {
  it.each([
    ['none', 'SETUP_REQUIRED'],
    ['customer', 'SUBSCRIPTION_PENDING'],
    ['failed', 'PAYMENT_FAILED'],
  ] as const)('answers 403 %s -> %s', async (billing, code) => {
    const { agent } = await signedInAgent(t, { billing });
    const response = await agent.get('/api/subscription');
    expect(response.status).toBe(403);
    expect(response.body.code).toBe(code);
  });

  it('lets a paid owner through and a stranger not at all', async () => {
    const { agent } = await signedInAgent(t, { billing: 'paid' });
    expect((await agent.get('/api/subscription')).status).toBe(200);
    expect((await t.http().get('/api/subscription')).status).toBe(401);
  });
});

describe('metered usage, the cycle and payment failures (test mode)', () => {
  it('bills only what free credits did not cover, once, however many times the cycle runs', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'none', creditsCents: 7 });
    await completeSetup(t, agent, GOOD_CARD);
    const customerId = (await userBilling(t, user.id)).stripe_customer_id!;

    await chargeMessage(t, user.id, 5); // credits 5
    await chargeMessage(t, user.id, 5); // credits 2, billable 3
    await chargeMessage(t, user.id, 4); // billable 4

    const cycle = t.app.get(BillingCycleService);
    const at = nextCycleTime();
    const first = await cycle.run(at);
    expect(first).toMatchObject({ ran: true, reportedEvents: 2, reportedCents: 7 });
    const second = await cycle.run(at);
    expect(second).toMatchObject({ ran: true, reportedEvents: 0, reportedCents: 0, invoices: 0 });

    const events = await meterEvents(customerId);
    expect(events.map((e) => e.value).sort()).toEqual([3, 4]);
    expect(await invoices(customerId)).toEqual([{ amount_cents: 7, status: 'paid', attempt_count: 1 }]);
    expect((await userBilling(t, user.id)).has_paid).toBe(true);
  });

  it('a crash between reporting and marking still bills the usage once', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'none', creditsCents: 0 });
    await completeSetup(t, agent, GOOD_CARD);
    const customerId = (await userBilling(t, user.id)).stripe_customer_id!;
    await t.app.get(MeterReporter).reportPending(); // nothing of other tests left pending
    await chargeMessage(t, user.id, 5);

    // The minute reporter sends the meter event, then "crashes" before recording it.
    const ledger = t.app.get(UsageLedgerService);
    const spy = jest.spyOn(ledger, 'markReported').mockRejectedValueOnce(new Error('process killed'));
    await expect(t.app.get(MeterReporter).reportPending()).rejects.toThrow('process killed');
    spy.mockRestore();
    const unmarked = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM usage_events WHERE owner_id = $1 AND reported_at IS NULL`,
      [user.id],
    );
    expect(unmarked[0].n).toBe(1);
    expect(await meterEvents(customerId)).toHaveLength(1);

    // The next pass sends it again with the same identifier: the provider keeps one.
    await t.app.get(MeterReporter).reportPending();
    await t.app.get(BillingCycleService).run(nextCycleTime());
    expect(await meterEvents(customerId)).toHaveLength(1);
    expect(await invoices(customerId)).toEqual([{ amount_cents: 5, status: 'paid', attempt_count: 1 }]);
  });

  it('the failing card makes the account hasPaid=false at the cycle, and a new card restores it', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'none', creditsCents: 0 });
    await completeSetup(t, agent, FAILING_CARD);
    expect((await userBilling(t, user.id)).has_paid).toBe(true);
    expect((await agent.get('/api/subscription')).status).toBe(200);
    const customerId = (await userBilling(t, user.id)).stripe_customer_id!;
    await chargeMessage(t, user.id, 3);

    await t.app.get(BillingCycleService).run(nextCycleTime());
    expect(await invoices(customerId)).toEqual([{ amount_cents: 3, status: 'open', attempt_count: 1 }]);
    expect((await userBilling(t, user.id)).has_paid).toBe(false);
    const blocked = await agent.get('/api/subscription');
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('PAYMENT_FAILED');
    expect(await t.app.get(UsageLedgerService).getOwnerBillingState(user.id)).toEqual({
      canServe: false,
      code: 'PAYMENT_FAILED',
    });

    // /billing-issue -> Update Payment Method -> the test page -> back to /billing-issue.
    const session = await agent.post('/api/auth/create-payment-method-session').set('Origin', t.origin).send({});
    expect(session.status).toBe(200);
    const submitted = await submitTestCard(t, session.body.url, GOOD_CARD);
    expect(submitted.status).toBe(303);
    expect(submitted.headers.location).toBe(`${t.origin}/billing-issue`);

    expect(await invoices(customerId)).toEqual([{ amount_cents: 3, status: 'paid', attempt_count: 2 }]);
    expect((await userBilling(t, user.id)).has_paid).toBe(true);
    expect((await agent.get('/api/user/me')).body.hasPaid).toBe(true);
    expect((await agent.get('/api/subscription')).status).toBe(200);
  });

  it('still bills an account deleted during the period, then ends its subscription', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'none', creditsCents: 0 });
    await completeSetup(t, agent, GOOD_CARD);
    const customerId = (await userBilling(t, user.id)).stripe_customer_id!;
    await chargeMessage(t, user.id, 4);
    await t.dataSource.query(`UPDATE users SET deleted_at = now() WHERE id = $1`, [user.id]);

    const result = await t.app.get(BillingCycleService).run(nextCycleTime());
    expect(result.closedSubscriptions).toBeGreaterThanOrEqual(1);
    expect(await invoices(customerId)).toEqual([{ amount_cents: 4, status: 'paid', attempt_count: 1 }]);
    const [subscription] = await t.dataSource.query(
      `SELECT status FROM test_payment_subscriptions WHERE customer_id = $1`,
      [customerId],
    );
    expect(subscription.status).toBe('canceled');
    expect((await userBilling(t, user.id)).stripe_subscription_id).toBeNull();
  });
});

describe('webhooks in test mode', () => {
  it('refuses an unsigned or badly signed webhook with 400 and changes nothing', async () => {
    const body = JSON.stringify({ id: 'evt_forged', type: 'invoice.paid', data: { object: { customer: 'cus_x' } } });
    const unsigned = await t.http().post('/api/billing/webhook').set('Content-Type', 'application/json').send(body);
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.code).toBe('WEBHOOK_SIGNATURE_INVALID');
    const forged = await t
      .http()
      .post('/api/billing/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', 't=1,v1=deadbeef')
      .send(body);
    expect(forged.status).toBe(400);
    const recorded = await t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_events WHERE id = 'evt_forged'`);
    expect(recorded[0].n).toBe(0);
  });
});
