import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import Stripe from 'stripe';
import { nextPeriodStart } from '../../src/common/billing-period.js';
import { BillingCycleService } from '../../src/modules/billing/billing-cycle.service.js';
import { MeterReporter } from '../../src/modules/billing/meter-reporter.service.js';
import { UsageLedgerService } from '../../src/modules/usage/usage-ledger.service.js';
import { chargeMessage, userBilling } from '../support/billing-helpers.js';
import { FakeStripeServer } from '../support/fake-stripe-server.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const WEBHOOK_SECRET = 'whsec_botsmith_test_secret';
const PRICE_ID = 'price_metered_botsmith';

let stripe: FakeStripeServer;
let t: TestApp;

beforeAll(async () => {
  stripe = await new FakeStripeServer().start();
  t = await startTestApp({
    STRIPE_SECRET_KEY: 'sk_test_botsmith',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_ID: PRICE_ID,
    STRIPE_METER_EVENT_NAME: 'botsmith_messages',
    STRIPE_API_URL: stripe.url,
  });
});
afterAll(async () => {
  await t.close();
  await stripe.stop();
});

/** Delivers an event as Stripe does: the JSON body, signed with the endpoint's secret. */
function deliver(
  event: Record<string, unknown>,
  options: { secret?: string; body?: string; header?: string | null } = {},
) {
  const payload = options.body ?? JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET });
  const request = t.http().post('/api/billing/webhook').set('Content-Type', 'application/json; charset=utf-8');
  if (options.header !== null) request.set('Stripe-Signature', options.header ?? signature);
  return request.send(payload);
}

async function webhookRows(id: string): Promise<number> {
  const rows: Array<{ n: number }> = await t.dataSource.query(
    `SELECT count(*)::int AS n FROM webhook_events WHERE id = $1`,
    [id],
  );
  return rows[0].n;
}

/** The whole setup: customer, Stripe's hosted page, the webhook, the subscription. */
async function setUpOwner(card: '4242424242424242' | '4000000000000341' = '4242424242424242', creditsCents = 500) {
  const { agent, user } = await signedInAgent(t, { billing: 'none', creditsCents });
  const created = await agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({});
  expect(created.status).toBe(200);
  const sessionId = (created.body.url as string).split('/').pop()!;
  const completed = stripe.completeCheckout(sessionId, card);
  expect((await deliver(completed)).status).toBe(200);
  const subscribed = await agent.post('/api/auth/create-stripe-subscription').set('Origin', t.origin).send({});
  expect(subscribed.status).toBe(200);
  const customerId = (await userBilling(t, user.id)).stripe_customer_id!;
  return { agent, user, customerId, subscriptionItemId: subscribed.body.subscriptionItemId as string };
}

describe('Stripe adapter: the setup flow through the real stripe SDK', () => {
  it('pins the API version the SDK ships and sends it on every call', async () => {
    expect(Stripe.API_VERSION).toBe('2026-10-28.endive');
    await setUpOwner();
    expect(stripe.requests.length).toBeGreaterThan(3);
    expect(new Set(stripe.requests.map((r) => r.stripeVersion))).toEqual(new Set(['2026-10-28.endive']));
  });

  it('creates the customer once, opens Checkout in setup mode, then subscribes on the metered price anchored on the 3rd', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'none' });
    const first = await agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({});
    expect(first.status).toBe(200);
    expect(first.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const second = await agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({});
    expect(second.status).toBe(200);

    const customerCalls = stripe.requestsTo('POST', /^\/v1\/customers$/).filter((r) => r.body.email === user.email);
    expect(customerCalls).toHaveLength(1);
    expect(customerCalls[0].idempotencyKey).toBe(`customer-${user.id}`);
    expect(customerCalls[0].body.metadata).toEqual({ ownerId: String(user.id) });
    const customerId = (await userBilling(t, user.id)).stripe_customer_id!;
    expect(customerId).toMatch(/^cus_/);

    const sessionCalls = stripe
      .requestsTo('POST', /^\/v1\/checkout\/sessions$/)
      .filter((r) => r.body.customer === customerId);
    expect(sessionCalls).toHaveLength(2);
    expect(sessionCalls[0].body).toMatchObject({
      mode: 'setup',
      currency: 'usd',
      success_url: `${t.origin}/setup-success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${t.origin}/complete-setup`,
    });
    expect(sessionCalls[0].idempotencyKey).toMatch(new RegExp(`^setup-session-${user.id}-`));

    expect((await agent.get('/api/auth/has-payment-method')).body).toEqual({ hasPaymentMethod: false });
    const sessionId = (first.body.url as string).split('/').pop()!;
    const completed = stripe.completeCheckout(sessionId, '4242424242424242');
    const delivered = await deliver(completed);
    expect(delivered.status).toBe(200);
    expect(delivered.body).toEqual({ received: true, duplicate: false });
    expect((await agent.get('/api/auth/has-payment-method')).body).toEqual({ hasPaymentMethod: true });
    // checkout.session.completed made the new card the customer's default.
    const pmId = [...stripe.paymentMethods.values()].find((pm) => pm.customer === customerId)!.id;
    expect((stripe.customers.get(customerId)!.invoice_settings as Record<string, unknown>).default_payment_method).toBe(
      pmId,
    );

    const subscribed = await agent.post('/api/auth/create-stripe-subscription').set('Origin', t.origin).send({});
    expect(subscribed.status).toBe(200);
    expect(subscribed.body.subscriptionItemId).toMatch(/^si_/);
    const again = await agent.post('/api/auth/create-stripe-subscription').set('Origin', t.origin).send({});
    expect(again.body).toEqual(subscribed.body);

    const subscriptionCalls = stripe
      .requestsTo('POST', /^\/v1\/subscriptions$/)
      .filter((r) => r.body.customer === customerId);
    expect(subscriptionCalls).toHaveLength(1);
    expect(subscriptionCalls[0].idempotencyKey).toBe(`subscription-${user.id}-${customerId}`);
    expect(subscriptionCalls[0].body).toMatchObject({
      items: [{ price: PRICE_ID }],
      billing_cycle_anchor_config: { day_of_month: '3', hour: '0', minute: '0', second: '0' },
      proration_behavior: 'none',
      default_payment_method: pmId,
    });
    expect((subscriptionCalls[0].body.items as Array<Record<string, unknown>>)[0]).not.toHaveProperty('quantity');

    expect(await userBilling(t, user.id)).toMatchObject({
      has_paid: true,
      subscription_item_id: subscribed.body.subscriptionItemId,
    });
    const subscription = await agent.get('/api/subscription');
    expect(subscription.status).toBe(200);
    expect(subscription.body).toMatchObject({ status: 'active', creditsCents: 500, hasPaid: true });
    const end = new Date(subscription.body.currentPeriodEnd);
    expect([end.getUTCDate(), end.getUTCHours(), end.getUTCMinutes()]).toEqual([3, 0, 0]);
  });

  it('answers 502 with a sentence, never Stripe internals, when Stripe is down', async () => {
    const { agent } = await signedInAgent(t, { billing: 'none' });
    stripe.failWith = 500;
    try {
      const response = await agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({});
      expect(response.status).toBe(502);
      expect(response.body).toEqual({
        error: 'The payment provider is not reachable right now. Please try again in a moment.',
        code: 'PAYMENT_PROVIDER_ERROR',
      });
    } finally {
      stripe.failWith = null;
    }
  }, 30_000);
});

describe('Stripe webhooks', () => {
  it('refuses a missing, forged, wrongly keyed or re-serialised signature with 400 and changes nothing', async () => {
    const { user, customerId } = await setUpOwner();
    const failed = stripe.event('invoice.payment_failed', { id: 'in_forged', object: 'invoice', customer: customerId });
    const reserialised = JSON.stringify(failed, null, 2);

    const missing = await deliver(failed, { header: null });
    const forged = await deliver(failed, {
      header: 't=1700000000,v1=0000000000000000000000000000000000000000000000000000000000000000',
    });
    const wrongSecret = await deliver(failed, { secret: 'whsec_someone_else' });
    const tampered = await t
      .http()
      .post('/api/billing/webhook')
      .set('Content-Type', 'application/json')
      .set(
        'Stripe-Signature',
        Stripe.webhooks.generateTestHeaderString({ payload: JSON.stringify(failed), secret: WEBHOOK_SECRET }),
      )
      .send(reserialised);

    for (const response of [missing, forged, wrongSecret, tampered]) {
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: 'The webhook signature could not be verified.',
        code: 'WEBHOOK_SIGNATURE_INVALID',
      });
    }
    expect(await webhookRows(failed.id as string)).toBe(0);
    expect((await userBilling(t, user.id)).has_paid).toBe(true);
  });

  it('processes an event id once: a replay is acknowledged and has no effect', async () => {
    const { user, customerId } = await setUpOwner();
    const failed = stripe.event('invoice.payment_failed', {
      id: 'in_replayed',
      object: 'invoice',
      customer: customerId,
    });
    const first = await deliver(failed);
    expect(first.body).toEqual({ received: true, duplicate: false });
    expect((await userBilling(t, user.id)).has_paid).toBe(false);

    // Fixed meanwhile by hand; the replay of the old failure must not undo that.
    await t.dataSource.query(`UPDATE users SET has_paid = true WHERE id = $1`, [user.id]);
    const replay = await deliver(failed);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect(await webhookRows(failed.id as string)).toBe(1);
    expect((await userBilling(t, user.id)).has_paid).toBe(true);
  });

  it('payment failure blocks the dashboard and chat; a new card pays the invoice and restores access', async () => {
    const { agent, user, customerId } = await setUpOwner('4000000000000341', 0);
    await chargeMessage(t, user.id, 4);
    await t.app.get(BillingCycleService).run(new Date(nextPeriodStart(new Date()).getTime() + 60_000));
    const [failure] = stripe
      .invoiceUsage()
      .filter((e) => (e.data as { object: { customer: string } }).object.customer === customerId);
    expect(failure.type).toBe('invoice.payment_failed');
    expect((await deliver(failure)).status).toBe(200);

    expect((await userBilling(t, user.id)).has_paid).toBe(false);
    expect((await agent.get('/api/subscription')).body.code).toBe('PAYMENT_FAILED');
    expect(await t.app.get(UsageLedgerService).getOwnerBillingState(user.id)).toEqual({
      canServe: false,
      code: 'PAYMENT_FAILED',
    });

    // A late, older invoice.paid (events are not ordered) must not undo the newer failure.
    const stale = stripe.event(
      'invoice.paid',
      { id: 'in_old', object: 'invoice', customer: customerId },
      (failure.created as number) - 60,
    );
    expect((await deliver(stale)).status).toBe(200);
    expect((await userBilling(t, user.id)).has_paid).toBe(false);

    // /billing-issue -> Update Payment Method: Checkout in setup mode, back to /billing-issue.
    const session = await agent.post('/api/auth/create-payment-method-session').set('Origin', t.origin).send({});
    expect(session.status).toBe(200);
    const sessionCall = stripe.requestsTo('POST', /^\/v1\/checkout\/sessions$/).at(-1)!;
    expect(sessionCall.body).toMatchObject({
      mode: 'setup',
      customer: customerId,
      success_url: `${t.origin}/billing-issue`,
    });
    const completed = stripe.completeCheckout((session.body.url as string).split('/').pop()!, '4242424242424242');
    expect((await deliver(completed)).status).toBe(200);

    // The open invoice was retried with the new card; Stripe then sends invoice.paid.
    const paid = stripe.sentByPay.at(-1)!;
    expect(paid.type).toBe('invoice.paid');
    expect((await deliver(paid)).status).toBe(200);
    expect((await userBilling(t, user.id)).has_paid).toBe(true);
    expect((await agent.get('/api/user/me')).body.hasPaid).toBe(true);
    expect((await agent.get('/api/subscription')).status).toBe(200);
  });

  it('customer.subscription.deleted takes the owner back to SUBSCRIPTION_PENDING', async () => {
    const { agent, user, customerId } = await setUpOwner();
    const subscriptionId = (await userBilling(t, user.id)).stripe_subscription_id!;
    const deleted = stripe.event('customer.subscription.deleted', {
      ...stripe.subscriptions.get(subscriptionId)!,
      status: 'canceled',
    });
    expect((await deliver(deleted)).status).toBe(200);
    expect(await userBilling(t, user.id)).toMatchObject({ stripe_customer_id: customerId, subscription_item_id: null });
    expect((await agent.get('/api/subscription')).body.code).toBe('SUBSCRIPTION_PENDING');
  });

  it('is not subject to the Origin check for browser requests (Stripe sends no Origin; a foreign one changes nothing)', async () => {
    const { agent } = await signedInAgent(t, { billing: 'paid' });
    const event = stripe.event('customer.updated', { id: 'cus_y', object: 'customer' });
    const payload = JSON.stringify(event);
    const response = await agent
      .post('/api/billing/webhook')
      .set('Origin', 'https://elsewhere.example')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }))
      .send(payload);
    expect(response.status).toBe(200);
    // Whereas a setup call from that origin, riding the owner's cookie, is refused.
    const csrf = await agent
      .post('/api/auth/create-stripe-customer')
      .set('Origin', 'https://elsewhere.example')
      .send({});
    expect(csrf.status).toBe(403);
    expect(csrf.body.code).toBe('ORIGIN_NOT_ALLOWED');
  });

  it('acknowledges events it does not act on', async () => {
    const event = stripe.event('customer.updated', { id: 'cus_x', object: 'customer' });
    const response = await deliver(event);
    expect(response.status).toBe(200);
    expect(await webhookRows(event.id as string)).toBe(1);
  });
});

describe('metered usage through Billing Meters', () => {
  it('reports each billable row once as a meter event with its ledger identifier', async () => {
    const { user, customerId } = await setUpOwner('4242424242424242', 3);
    await t.app.get(MeterReporter).reportPending();
    await chargeMessage(t, user.id, 5); // credits 3, billable 2
    await chargeMessage(t, user.id, 4); // billable 4
    await chargeMessage(t, user.id, 0); // nothing

    await t.app.get(MeterReporter).reportPending();
    const rows: Array<{ report_identifier: string; billable_cents: number; reported_at: Date | null }> =
      await t.dataSource.query(
        `SELECT report_identifier, billable_cents, reported_at FROM usage_events WHERE owner_id = $1 AND billable_cents > 0 ORDER BY id`,
        [user.id],
      );
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.reported_at !== null)).toBe(true);
    const sent = stripe
      .requestsTo('POST', /^\/v1\/billing\/meter_events$/)
      .filter((r) => (r.body.payload as Record<string, string>).stripe_customer_id === customerId);
    // Sent a few at a time, so in any order.
    const byIdentifier = (a: { identifier?: unknown }, b: { identifier?: unknown }) =>
      String(a.identifier).localeCompare(String(b.identifier));
    expect(sent.map((r) => r.body).sort(byIdentifier)).toEqual(
      [...rows]
        .sort((a, b) => a.report_identifier.localeCompare(b.report_identifier))
        .map((row) => ({
          event_name: 'botsmith_messages',
          identifier: row.report_identifier,
          payload: { stripe_customer_id: customerId, value: String(row.billable_cents) },
          timestamp: expect.stringMatching(/^\d+$/),
        })),
    );
    expect(sent.map((r) => r.idempotencyKey).sort()).toEqual(
      rows.map((row) => `meter-${row.report_identifier}`).sort(),
    );

    // The cycle, twice: nothing left to report, nothing sent again.
    const at = new Date(nextPeriodStart(new Date()).getTime() + 60_000);
    await t.app.get(BillingCycleService).run(at);
    await t.app.get(BillingCycleService).run(at);
    const after = stripe
      .requestsTo('POST', /^\/v1\/billing\/meter_events$/)
      .filter((r) => (r.body.payload as Record<string, string>).stripe_customer_id === customerId);
    expect(after).toHaveLength(2);
  });

  it('a crash between Stripe accepting the event and marking the row re-sends the same event, counted once', async () => {
    const { user, customerId } = await setUpOwner('4242424242424242', 0);
    await t.app.get(MeterReporter).reportPending();
    await chargeMessage(t, user.id, 5);

    const ledger = t.app.get(UsageLedgerService);
    const spy = jest.spyOn(ledger, 'markReported').mockRejectedValueOnce(new Error('process killed'));
    await expect(t.app.get(MeterReporter).reportPending()).rejects.toThrow('process killed');
    spy.mockRestore();
    await t.app.get(BillingCycleService).run(new Date(nextPeriodStart(new Date()).getTime() + 60_000));

    const sent = stripe
      .requestsTo('POST', /^\/v1\/billing\/meter_events$/)
      .filter((r) => (r.body.payload as Record<string, string>).stripe_customer_id === customerId);
    expect(sent).toHaveLength(2);
    expect(sent[1].body).toEqual(sent[0].body);
    expect(sent[1].idempotencyKey).toBe(sent[0].idempotencyKey);
    const kept = [...stripe.meterEvents.values()].filter(
      (e) => (e.payload as Record<string, string>).stripe_customer_id === customerId,
    );
    expect(kept).toHaveLength(1);
    const [row] = await t.dataSource.query(`SELECT reported_at FROM usage_events WHERE owner_id = $1`, [user.id]);
    expect(row.reported_at).not.toBeNull();
  });

  it('ends a deleted account’s subscription at the cycle with a final invoice, after reporting its usage', async () => {
    const { user, customerId } = await setUpOwner('4242424242424242', 0);
    await chargeMessage(t, user.id, 3);
    await t.dataSource.query(`UPDATE users SET deleted_at = now() WHERE id = $1`, [user.id]);
    const subscriptionId = (await userBilling(t, user.id)).stripe_subscription_id!;

    await t.app.get(BillingCycleService).run(new Date(nextPeriodStart(new Date()).getTime() + 60_000));
    expect(
      [...stripe.meterEvents.values()].filter(
        (e) => (e.payload as Record<string, string>).stripe_customer_id === customerId,
      ),
    ).toHaveLength(1);
    const cancel = stripe.requestsTo('DELETE', new RegExp(`^/v1/subscriptions/${subscriptionId}$`));
    expect(cancel).toHaveLength(1);
    const cancelParams = { ...Object.fromEntries(cancel[0].query), ...cancel[0].body };
    expect(cancelParams).toMatchObject({ invoice_now: 'true', prorate: 'false' });
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    expect((await userBilling(t, user.id)).stripe_subscription_id).toBeNull();
  });
});
