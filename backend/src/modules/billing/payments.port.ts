import type { Transaction } from '../../database/transaction.js';

/**
 * The payment provider, as the rest of the code sees it. Two adapters implement it, chosen by
 * configuration: Stripe (STRIPE_SECRET_KEY set) and the embedded test mode (the default). Nothing
 * outside `modules/billing` knows which one runs.
 *
 * Every call that creates something at the provider carries an idempotency key derived from what
 * it is for (`customer-<ownerId>`, `subscription-<ownerId>-<customerId>`, a meter event's ledger
 * identifier), so a retry, a double click or a second instance never creates it twice.
 */
export interface PaymentsPort {
  /** Creates (or, for the same owner, returns again) the provider's customer. */
  createCustomer(input: { ownerId: number; email: string }): Promise<{ customerId: string }>;

  /**
   * A hosted page where the owner enters a card (Checkout in setup mode, or the built-in test-mode
   * page). `successUrl` may contain `{CHECKOUT_SESSION_ID}`.
   */
  createSetupSession(input: {
    ownerId: number;
    customerId: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ url: string; sessionId: string }>;

  hasPaymentMethod(customerId: string): Promise<boolean>;

  /** The metered subscription, its billing cycle anchored on the 3rd, 00:00 UTC. Idempotent per owner. */
  createSubscription(input: { ownerId: number; customerId: string }): Promise<ProviderSubscription>;

  getSubscription(subscriptionId: string): Promise<ProviderSubscription | null>;

  /** Cancels at once, invoicing what was used (an account deleted during the period). Idempotent. */
  cancelSubscription(subscriptionId: string, tx?: Transaction): Promise<void>;

  /** Whether an invoice of this customer is still unpaid after a payment attempt. */
  hasOverdueInvoices(customerId: string): Promise<boolean>;

  /**
   * Reports billable usage as one meter event. The provider de-duplicates on `identifier`, so
   * sending the same event again (a retry, a crash before we recorded it) never bills twice.
   * `tx`: the caller's transaction, for an adapter that stores data in our database.
   */
  reportUsage(input: MeterEventInput, tx?: Transaction): Promise<void>;

  /**
   * After a new card was collected (checkout session completed): make it the default for the
   * customer and the subscription, and retry invoices whose payment failed.
   */
  useNewPaymentMethod(input: { customerId: string; checkoutSessionId: string }): Promise<void>;

  /**
   * Closes a billing period at the provider, inside the monthly job's transaction. Stripe
   * invoices by itself on the anchor date (nothing to do); the test mode invoices the usage it was
   * sent and "charges" the test card.
   */
  closePeriod(input: { periodStart: Date; periodEnd: Date }, tx: Transaction): Promise<{ invoices: number }>;

  /**
   * Delivers provider events produced by earlier calls. Stripe delivers them itself as webhooks
   * (nothing to do); the test mode hands them to the event sink once their transaction committed.
   */
  flushEvents(): Promise<void>;

  /**
   * The card on file (the default one, else the newest) and the customer's latest invoices, newest
   * first (at most BILLING_INVOICES_SHOWN), for the Settings' Billing section.
   */
  billingOverview(customerId: string): Promise<{ card: ProviderCard | null; invoices: ProviderInvoice[] }>;

  /**
   * A page where the owner changes the card and sees invoices: Stripe's customer portal, or the
   * built-in test-mode card page. The browser comes back to `returnUrl`.
   */
  createPortalSession(input: { ownerId: number; customerId: string; returnUrl: string }): Promise<{ url: string }>;

  /** Verifies a webhook's signature on the raw body and reads the event; throws WebhookSignatureError. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<BillingEvent>;

  /** Where the adapter hands events it produces itself (the test mode's in-process "webhooks"). */
  setEventSink(sink: (event: BillingEvent) => Promise<void>): void;
}

export const PAYMENTS = Symbol('PAYMENTS');

export interface ProviderSubscription {
  subscriptionId: string;
  subscriptionItemId: string;
  status: string;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
}

export interface ProviderCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface ProviderInvoice {
  id: string;
  created: Date;
  amountCents: number;
  status: string;
  /** The provider's page of the invoice, or null. */
  url: string | null;
}

export interface MeterEventInput {
  customerId: string;
  /** The ledger row's stable identifier. */
  identifier: string;
  /** Billable cents (the meter's unit is one US cent). */
  valueCents: number;
  /** When the message was answered: decides the provider's billing period. */
  timestamp: Date;
}

/** A provider event, reduced to what we act on. */
export interface BillingEvent {
  id: string;
  type: string;
  created: Date;
  customerId: string | null;
  checkoutSessionId?: string;
  /** Checkout mode: only `setup` sessions collect a card. */
  checkoutMode?: string;
  subscriptionId?: string;
  invoiceId?: string;
}

export class WebhookSignatureError extends Error {}

/** The events we act on (everything else is acknowledged and ignored). */
export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'payment_method.attached',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.deleted',
] as const;
