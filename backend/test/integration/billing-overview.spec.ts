import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Stripe from 'stripe';
import { nextPeriodStart } from '../../src/common/billing-period.js';
import { BILLING_PORTAL_SESSIONS_PER_DAY } from '../../src/common/constants.js';
import { BillingCycleService } from '../../src/modules/billing/billing-cycle.service.js';
import {
  chargeMessage,
  completeSetup,
  FAILING_CARD,
  GOOD_CARD,
  submitTestCard,
  userBilling,
} from '../support/billing-helpers.js';
import { FakeStripeServer } from '../support/fake-stripe-server.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The Settings' Billing section (docs/product.md#billing-api): GET /api/billing and POST /api/billing/portal. */

function nextCycleTime(): Date {
  return new Date(nextPeriodStart(new Date()).getTime() + 60_000);
}

describe('billing overview and "change card" in test mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function checkoutSessions(customerId: string): Promise<number> {
    const rows: Array<{ n: number }> = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM test_payment_checkout_sessions WHERE customer_id = $1`,
      [customerId],
    );
    return rows[0].n;
  }

  it('refuses a signed-out visitor, and a portal request from another site', async () => {
    const anonymous = await t.http().get('/api/billing');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBeDefined();
    const portal = await t.http().post('/api/billing/portal').set('Origin', t.origin).send({});
    expect(portal.status).toBe(401);

    const { agent, user } = await signedInAgent(t, { billing: 'none' });
    await completeSetup(t, agent, GOOD_CARD);
    const customerId = (await userBilling(t, user.id)).stripe_customer_id!;
    const before = await checkoutSessions(customerId);
    const crossSite = await agent.post('/api/billing/portal').set('Origin', 'https://evil.example').send({});
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).not.toHaveProperty('url');
    expect(await checkoutSessions(customerId)).toBe(before);
  });

  it('shows no card and no invoices before setup, and "change card" asks for a card first without creating anything', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'none' });
    const overview = await agent.get('/api/billing');
    expect(overview.status).toBe(200);
    expect(overview.body).toEqual({ card: null, invoices: [], testMode: true });

    const portal = await agent.post('/api/billing/portal').set('Origin', t.origin).send({});
    expect(portal.status).toBe(400);
    expect(portal.body).toEqual({ error: 'Please add a payment method first.', code: 'SETUP_REQUIRED' });
    expect((await userBilling(t, user.id)).stripe_customer_id).toBeNull();
  });

  it('shows the card on file and the invoices, newest first, and changes the card on the test-mode page', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'none', creditsCents: 0 });
    await completeSetup(t, agent, GOOD_CARD);
    const customerId = (await userBilling(t, user.id)).stripe_customer_id!;

    const first = await agent.get('/api/billing');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2039 },
      invoices: [],
      testMode: true,
    });

    await chargeMessage(t, user.id, 7);
    await t.app.get(BillingCycleService).run(nextCycleTime());
    const billed = await agent.get('/api/billing');
    expect(billed.body.invoices).toHaveLength(1);
    expect(billed.body.invoices[0]).toEqual({
      id: expect.stringMatching(/^in_test_/),
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      amountCents: 7,
      status: 'paid',
      url: null,
    });

    const portal = await agent.post('/api/billing/portal').set('Origin', t.origin).send({});
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(new RegExp(`^${t.origin}/billing/test-checkout/cs_test_`));
    const sessions: Array<{ customer_id: string; success_url: string; cancel_url: string }> = await t.dataSource.query(
      `SELECT customer_id, success_url, cancel_url FROM test_payment_checkout_sessions
        WHERE id = $1`,
      [(portal.body.url as string).split('/').pop()],
    );
    expect(sessions).toEqual([
      {
        customer_id: customerId,
        success_url: `${t.origin}/dashboard?settings=billing`,
        cancel_url: `${t.origin}/dashboard?settings=billing`,
      },
    ]);

    const submitted = await submitTestCard(t, portal.body.url as string, FAILING_CARD);
    expect(submitted.status).toBe(303);
    expect(submitted.headers.location).toBe(`${t.origin}/dashboard?settings=billing`);
    const changed = await agent.get('/api/billing');
    expect(changed.body.card).toEqual({ brand: 'visa', last4: '0341', expMonth: 12, expYear: 2039 });
    // The invoice history is unchanged by a new card.
    expect(changed.body.invoices).toEqual(billed.body.invoices);
  });

  it("never shows one owner's card or invoices to another, and a portal page is always the caller's own", async () => {
    const a = await signedInAgent(t, { billing: 'none', creditsCents: 0 });
    const b = await signedInAgent(t, { billing: 'none', creditsCents: 0 });
    await completeSetup(t, a.agent, GOOD_CARD);
    await completeSetup(t, b.agent, FAILING_CARD);
    await chargeMessage(t, a.user.id, 9);
    await t.app.get(BillingCycleService).run(nextCycleTime());

    const ofA = (await a.agent.get('/api/billing')).body;
    const ofB = (await b.agent.get('/api/billing')).body;
    expect(ofA.card.last4).toBe('4242');
    expect(ofB.card.last4).toBe('0341');
    expect(ofA.invoices.map((i: { amountCents: number }) => i.amountCents)).toEqual([9]);
    const idsOfA = new Set(ofA.invoices.map((i: { id: string }) => i.id));
    expect(ofB.invoices.some((i: { id: string }) => idsOfA.has(i.id))).toBe(false);
    expect(JSON.stringify(ofB)).not.toContain('4242');

    const customerOfB = (await userBilling(t, b.user.id)).stripe_customer_id!;
    const portalOfB = await b.agent.post('/api/billing/portal').set('Origin', t.origin).send({});
    const rows: Array<{ customer_id: string }> = await t.dataSource.query(
      `SELECT customer_id FROM test_payment_checkout_sessions WHERE id = $1`,
      [(portalOfB.body.url as string).split('/').pop()],
    );
    expect(rows).toEqual([{ customer_id: customerOfB }]);
    // A body naming another customer is refused outright (the route takes an empty body).
    const smuggled = await b.agent
      .post('/api/billing/portal')
      .set('Origin', t.origin)
      .send({ customerId: (await userBilling(t, a.user.id)).stripe_customer_id });
    expect(smuggled.status).toBe(400);
    expect(smuggled.body.code).toBe('VALIDATION_FAILED');
    expect(smuggled.body).not.toHaveProperty('url');
  });

  it(`opens at most ${BILLING_PORTAL_SESSIONS_PER_DAY} card pages a day per account, then 429 without asking the provider`, async () => {
    const flooder = await signedInAgent(t, { billing: 'none' });
    const bystander = await signedInAgent(t, { billing: 'none' });
    await completeSetup(t, flooder.agent, GOOD_CARD);
    await completeSetup(t, bystander.agent, GOOD_CARD);
    const customerId = (await userBilling(t, flooder.user.id)).stripe_customer_id!;
    const before = await checkoutSessions(customerId);
    const portal = (agent: typeof flooder.agent) => agent.post('/api/billing/portal').set('Origin', t.origin).send({});

    for (let i = 0; i < BILLING_PORTAL_SESSIONS_PER_DAY; i++) expect((await portal(flooder.agent)).status).toBe(200);
    const refused = await portal(flooder.agent);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: `The page to change your card was opened ${BILLING_PORTAL_SESSIONS_PER_DAY} times today. Please try again tomorrow.`,
      code: 'PORTAL_LIMIT_REACHED',
    });
    // Counted down to 00:00 UTC.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(24 * 60 * 60);
    // The refused request created nothing at the provider.
    expect(await checkoutSessions(customerId)).toBe(before + BILLING_PORTAL_SESSIONS_PER_DAY);
    // Another account is not held back.
    expect((await portal(bystander.agent)).status).toBe(200);
  });
});

describe('billing overview and the customer portal through the Stripe adapter', () => {
  const WEBHOOK_SECRET = 'whsec_botsmith_test_secret';
  let stripe: FakeStripeServer;
  let t: TestApp;
  beforeAll(async () => {
    stripe = await new FakeStripeServer().start();
    t = await startTestApp({
      STRIPE_SECRET_KEY: 'sk_test_botsmith',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_ID: 'price_metered_botsmith',
      STRIPE_METER_EVENT_NAME: 'botsmith_messages',
      STRIPE_API_URL: stripe.url,
    });
  });
  afterAll(async () => {
    await t.close();
    await stripe.stop();
  });

  function deliver(event: Record<string, unknown>) {
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    return t
      .http()
      .post('/api/billing/webhook')
      .set('Content-Type', 'application/json; charset=utf-8')
      .set('Stripe-Signature', signature)
      .send(payload);
  }

  async function setUpOwner() {
    const { agent, user } = await signedInAgent(t, { billing: 'none', creditsCents: 0 });
    const created = await agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({});
    expect(created.status).toBe(200);
    expect(
      (await deliver(stripe.completeCheckout((created.body.url as string).split('/').pop()!, '4242424242424242')))
        .status,
    ).toBe(200);
    expect((await agent.post('/api/auth/create-stripe-subscription').set('Origin', t.origin).send({})).status).toBe(
      200,
    );
    return { agent, user, customerId: (await userBilling(t, user.id)).stripe_customer_id! };
  }

  it('reads the default card and the invoices with their Stripe pages', async () => {
    const { agent, customerId } = await setUpOwner();
    const none = await agent.get('/api/billing');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2039 },
      invoices: [],
      testMode: false,
    });

    stripe.meterEvents.set(`manual-${customerId}`, {
      payload: { stripe_customer_id: customerId, value: '12' },
    });
    for (const event of stripe.invoiceUsage()) expect((await deliver(event)).status).toBe(200);
    const invoice = [...stripe.invoices.values()].find((i) => i.customer === customerId)!;

    const billed = await agent.get('/api/billing');
    expect(billed.body.invoices).toEqual([
      {
        id: invoice.id,
        created: new Date(Number(invoice.created) * 1000).toISOString(),
        amountCents: 12,
        status: 'paid',
        url: invoice.hosted_invoice_url,
      },
    ]);
    const listCalls = stripe
      .requestsTo('GET', /^\/v1\/invoices$/)
      .filter((r) => r.query.get('customer') === customerId);
    expect(listCalls.at(-1)!.query.get('limit')).toBe('12');
  });

  it("opens Stripe's customer portal for the caller's own customer, back to the Billing section", async () => {
    const { agent, customerId } = await setUpOwner();
    const other = await setUpOwner();
    const portal = await agent.post('/api/billing/portal').set('Origin', t.origin).send({});
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_bps_/);
    const calls = stripe.requestsTo('POST', /^\/v1\/billing_portal\/sessions$/);
    expect(calls.at(-1)!.body).toEqual({ customer: customerId, return_url: `${t.origin}/dashboard?settings=billing` });
    expect(calls.some((c) => c.body.customer === other.customerId)).toBe(false);

    // The other owner's overview asks Stripe about its own customer only.
    const before = stripe.requests.length;
    await other.agent.get('/api/billing');
    const asked = stripe.requests.slice(before).map((r) => `${r.path}?${r.query.toString()}`);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.some((line) => line.includes(customerId))).toBe(false);
  });

  it('answers 502 with a sentence when Stripe is down, never its internals', async () => {
    const { agent } = await setUpOwner();
    stripe.failWith = 500;
    try {
      const overview = await agent.get('/api/billing');
      expect(overview.status).toBe(502);
      expect(overview.body).toEqual({
        error: 'The payment provider is not reachable right now. Please try again in a moment.',
        code: 'PAYMENT_PROVIDER_ERROR',
      });
      const portal = await agent.post('/api/billing/portal').set('Origin', t.origin).send({});
      expect(portal.status).toBe(502);
      expect(portal.body.code).toBe('PAYMENT_PROVIDER_ERROR');
      expect(JSON.stringify(portal.body)).not.toMatch(/stripe|stack|api_error/i);
    } finally {
      stripe.failWith = null;
    }
  });
});
