import type Stripe from 'stripe';
import type { BillingEvent } from './payments.port.js';

/*
 * What a verified Stripe event means to us, apart from the Stripe adapter: the test mode reads its
 * own signed events with it, and only types come from the SDK here, so the default start does not
 * load it (docs/decisions/0016-chat-path-cost.md, "Start-up").
 */

function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'id' in value && typeof value.id === 'string') return value.id;
  return null;
}

/** Reduces a verified Stripe event to what we act on. */
export function toBillingEvent(event: Stripe.Event): BillingEvent {
  const object = event.data.object as unknown as Record<string, unknown>;
  const result: BillingEvent = {
    id: event.id,
    type: event.type,
    created: new Date(event.created * 1000),
    customerId: idOf(object.customer),
  };
  // Only a few types matter; every other one is acknowledged as is.
  const type: string = event.type;
  switch (type) {
    case 'checkout.session.completed':
      result.checkoutSessionId = idOf(object.id) ?? undefined;
      result.checkoutMode = typeof object.mode === 'string' ? object.mode : undefined;
      break;
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      result.invoiceId = idOf(object.id) ?? undefined;
      // basil and later: invoice.parent.subscription_details.subscription
      const parent = object.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
      result.subscriptionId = idOf(parent?.subscription_details?.subscription) ?? undefined;
      break;
    }
    case 'customer.subscription.deleted':
      result.subscriptionId = idOf(object.id) ?? undefined;
      break;
    default:
      break;
  }
  return result;
}
