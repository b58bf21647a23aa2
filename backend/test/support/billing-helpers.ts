import type request from 'supertest';
import { expect } from '@jest/globals';
import { UsageLedgerService, type ChargeInput } from '../../src/modules/usage/usage-ledger.service.js';
import type { TestApp } from './test-app.js';
import { transactionOf } from '../../src/database/transaction.js';

export const GOOD_CARD = '4242 4242 4242 4242';
export const FAILING_CARD = '4000 0000 0000 0341';

/** Path of a URL on the app's own origin (what a browser would follow). */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** Fills the test-mode payment page like a person would, and returns the redirect it answers. */
export async function submitTestCard(t: TestApp, pageUrl: string, cardNumber: string): Promise<request.Response> {
  return t
    .http()
    .post(pathOf(pageUrl))
    .set('Origin', t.origin)
    .type('form')
    .send({ cardNumber, expiry: '12 / 39', cvc: '123', name: 'Test Owner' });
}

/** The whole setup flow through the HTTP API, as the /complete-setup and /setup-success pages run it. */
export async function completeSetup(t: TestApp, agent: request.Agent, cardNumber = GOOD_CARD) {
  const customer = await agent.post('/api/auth/create-stripe-customer').set('Origin', t.origin).send({});
  expect(customer.status).toBe(200);
  const submitted = await submitTestCard(t, customer.body.url as string, cardNumber);
  expect(submitted.status).toBe(303);
  const subscription = await agent.post('/api/auth/create-stripe-subscription').set('Origin', t.origin).send({});
  expect(subscription.status).toBe(200);
  return { pageUrl: customer.body.url as string, subscriptionItemId: subscription.body.subscriptionItemId as string };
}

/**
 * One answered message charged through the ledger, as the chat engine does (no bot, the gpt-4o
 * tier, 30 tokens, unless `details` says otherwise).
 */
export function chargeMessage(
  t: TestApp,
  ownerId: number,
  priceCents: number,
  at?: Date,
  details: Partial<Omit<ChargeInput, 'ownerId' | 'priceCents' | 'at'>> = {},
) {
  const ledger = t.app.get(UsageLedgerService);
  return t.dataSource.transaction((manager) =>
    ledger.chargeAnsweredMessage(transactionOf(manager), {
      ownerId,
      botId: null,
      messageId: null,
      modelTier: 'gpt-4o',
      upstreamModel: 'gpt-4o',
      priceCents,
      promptTokens: 10,
      completionTokens: 20,
      at,
      ...details,
    }),
  );
}

export async function userBilling(t: TestApp, ownerId: number) {
  const rows: Array<{
    stripe_customer_id: string | null;
    stripe_subscription_id: string | null;
    subscription_item_id: string | null;
    has_paid: boolean | null;
    credits_cents: number;
  }> = await t.dataSource.query(
    `SELECT stripe_customer_id, stripe_subscription_id, subscription_item_id, has_paid, credits_cents FROM users WHERE id = $1`,
    [ownerId],
  );
  return rows[0];
}
