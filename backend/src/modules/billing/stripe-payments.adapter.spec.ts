import { describe, expect, it } from '@jest/globals';
import Stripe from 'stripe';
import { toBillingEvent } from './stripe-events.js';

const SECRET = 'whsec_unit_test';

function signedEvent(type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({ id: 'evt_1', object: 'event', type, created: 1_790_000_000, data: { object } });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
  return Stripe.webhooks.constructEvent(payload, header, SECRET);
}

describe('toBillingEvent (what we read from a verified Stripe event)', () => {
  it('reads an invoice event, its subscription from parent.subscription_details (basil and later)', () => {
    const event = signedEvent('invoice.payment_failed', {
      id: 'in_1',
      object: 'invoice',
      customer: 'cus_1',
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1' } },
    });
    expect(toBillingEvent(event)).toEqual({
      id: 'evt_1',
      type: 'invoice.payment_failed',
      created: new Date(1_790_000_000_000),
      customerId: 'cus_1',
      invoiceId: 'in_1',
      subscriptionId: 'sub_1',
    });
  });

  it('reads a completed setup-mode checkout session and an expanded customer', () => {
    const event = signedEvent('checkout.session.completed', {
      id: 'cs_1',
      object: 'checkout.session',
      mode: 'setup',
      customer: { id: 'cus_2', object: 'customer' },
    });
    expect(toBillingEvent(event)).toMatchObject({
      customerId: 'cus_2',
      checkoutSessionId: 'cs_1',
      checkoutMode: 'setup',
    });
  });

  it('reads a deleted subscription', () => {
    const event = signedEvent('customer.subscription.deleted', {
      id: 'sub_3',
      object: 'subscription',
      customer: 'cus_3',
    });
    expect(toBillingEvent(event)).toMatchObject({ customerId: 'cus_3', subscriptionId: 'sub_3' });
  });
});
