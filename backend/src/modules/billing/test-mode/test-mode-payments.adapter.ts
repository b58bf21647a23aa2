import { randomBytes } from 'node:crypto';
import { HttpStatus, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import { AppError } from '../../../common/app-error.js';
import type { Transaction, TransactionRunner } from '../../../database/transaction.js';
import { isoDate, nextPeriodStart, periodStartFor } from '../../../common/billing-period.js';
import {
  BILLING_INVOICES_SHOWN,
  BILLING_PERIOD_START_DAY,
  TEST_CHECKOUT_SESSION_TTL_MS,
} from '../../../common/constants.js';
import {
  WebhookSignatureError,
  type BillingEvent,
  type MeterEventInput,
  type PaymentsPort,
  type ProviderCard,
  type ProviderInvoice,
  type ProviderSubscription,
} from '../payments.port.js';
import { toBillingEvent } from '../stripe-events.js';
import type { AcceptedCard } from './test-cards.js';
import { TestModeRepository, testId, type TestCheckoutSession, type TestInvoice } from './test-mode.repository.js';
import { describeError } from '../../../common/error-description.js';

/**
 * The Stripe SDK, only to check signatures the way Stripe does: imported on the first signed
 * webhook, not at every start (docs/decisions/0016-chat-path-cost.md, "Start-up"), and once, so
 * concurrent first webhooks share it (Jest's ESM loader fails when two imports link it at once).
 */
let stripeSdk: Promise<typeof Stripe> | undefined;

/** What the test-mode payment page shows for a session. */
export interface TestCheckoutView {
  session: TestCheckoutSession;
  state: 'open' | 'complete' | 'expired';
}

/**
 * The embedded default payment provider (no STRIPE_SECRET_KEY): it behaves like the parts of
 * Stripe we use. Customers, cards, subscriptions, meter events (de-duplicated by identifier),
 * invoices and charges live in `test_payment_*` tables; the card is entered on the built-in page
 * at /billing/test-checkout/:id ("Test mode: no real charge"); its events are delivered to the
 * same handler as Stripe's webhooks, once, in order, after their transaction committed.
 */
export class TestModePaymentsAdapter implements PaymentsPort {
  private readonly logger = new Logger('TestModePayments');
  /** Test mode has no sender of signed webhooks; the endpoint still verifies (and so refuses) them. */
  private readonly webhookSecret = `whsec_${randomBytes(24).toString('base64url')}`;
  private sink: ((event: BillingEvent) => Promise<void>) | null = null;
  private flushing: Promise<void> | null = null;
  private flushAgain = false;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly store: TestModeRepository,
    private readonly publicUrl: string,
    private readonly meterEventName: string,
  ) {}

  setEventSink(sink: (event: BillingEvent) => Promise<void>): void {
    this.sink = sink;
  }

  async createCustomer(input: { ownerId: number; email: string }): Promise<{ customerId: string }> {
    const customerId = await this.store.insertCustomer(null, {
      email: input.email,
      ownerId: input.ownerId,
      idempotencyKey: `customer-${input.ownerId}`,
    });
    return { customerId };
  }

  async createSetupSession(input: {
    ownerId: number;
    customerId: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ url: string; sessionId: string }> {
    const customer = await this.store.findCustomer(null, input.customerId);
    if (!customer) throw unknownCustomer();
    const sessionId = await this.store.insertCheckoutSession(null, {
      customerId: input.customerId,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      expiresAt: new Date(Date.now() + TEST_CHECKOUT_SESSION_TTL_MS),
    });
    return { url: `${this.publicUrl}/billing/test-checkout/${sessionId}`, sessionId };
  }

  async hasPaymentMethod(customerId: string): Promise<boolean> {
    return (await this.store.countPaymentMethods(null, customerId)) > 0;
  }

  async createSubscription(input: { ownerId: number; customerId: string }): Promise<ProviderSubscription> {
    const customer = await this.store.findCustomer(null, input.customerId);
    if (!customer) throw unknownCustomer();
    if (!(await this.store.chargeablePaymentMethod(null, input.customerId))) {
      throw new AppError(HttpStatus.BAD_REQUEST, 'PAYMENT_METHOD_REQUIRED', 'Please add a card first.');
    }
    // Like Stripe for a metered price: nothing is due now, so nothing is charged and it is active.
    const subscription = await this.store.insertSubscription(null, {
      customerId: input.customerId,
      billingCycleDay: BILLING_PERIOD_START_DAY,
      idempotencyKey: `subscription-${input.ownerId}-${input.customerId}`,
    });
    return this.toProviderSubscription(subscription);
  }

  async getSubscription(subscriptionId: string): Promise<ProviderSubscription | null> {
    const subscription = await this.store.findSubscription(null, subscriptionId);
    return subscription ? this.toProviderSubscription(subscription) : null;
  }

  async cancelSubscription(subscriptionId: string, tx?: Transaction): Promise<void> {
    const run = async (work: Transaction) => {
      const tx = work;
      const subscription = await this.store.findSubscription(tx, subscriptionId);
      if (!subscription || subscription.status === 'canceled') return;
      // invoice_now: the usage not yet invoiced is billed on a final invoice.
      const now = new Date();
      const invoice = await this.store.createInvoice(tx, {
        subscription,
        periodStart: isoDate(periodStartFor(now)),
        periodEnd: isoDate(now),
        usageBefore: new Date(now.getTime() + 1),
      });
      if (invoice) await this.charge(tx, invoice, null);
      await this.store.setSubscriptionStatus(tx, subscriptionId, 'canceled');
      await this.emit(tx, 'customer.subscription.deleted', subscription.customerId, { subscriptionId });
    };
    if (tx) {
      await run(tx);
    } else {
      await this.transactions.run(run);
      await this.flushEvents();
    }
  }

  async hasOverdueInvoices(customerId: string): Promise<boolean> {
    return this.store.hasOverdueInvoices(null, customerId);
  }

  async reportUsage(input: MeterEventInput, tx?: Transaction): Promise<void> {
    await this.store.insertMeterEvent(tx ?? null, {
      identifier: input.identifier,
      eventName: this.meterEventName,
      customerId: input.customerId,
      value: input.valueCents,
      timestamp: input.timestamp,
    });
  }

  async useNewPaymentMethod(input: { customerId: string; checkoutSessionId: string }): Promise<void> {
    await this.transactions.run(async (tx) => {
      const paymentMethodId = await this.store.sessionPaymentMethod(tx, input.checkoutSessionId);
      if (!paymentMethodId) return;
      await this.store.setDefaultPaymentMethod(tx, input.customerId, paymentMethodId);
      for (const invoice of await this.store.openInvoices(tx, input.customerId)) {
        await this.charge(tx, invoice, paymentMethodId);
      }
    });
    await this.flushEvents();
  }

  async closePeriod(input: { periodStart: Date; periodEnd: Date }, tx: Transaction): Promise<{ invoices: number }> {
    let invoices = 0;
    for (const subscription of await this.store.billableSubscriptions(tx)) {
      const invoice = await this.store.createInvoice(tx, {
        subscription,
        periodStart: isoDate(input.periodStart),
        periodEnd: isoDate(input.periodEnd),
        usageBefore: input.periodEnd,
      });
      if (!invoice) continue;
      invoices += 1;
      await this.charge(tx, invoice, null);
    }
    return { invoices };
  }

  async flushEvents(): Promise<void> {
    if (this.flushing) {
      // A delivery is under way (possibly the caller itself, from inside the sink): it will pick
      // these events up too. Waiting for it here could wait for ourselves.
      this.flushAgain = true;
      return;
    }
    this.flushing = (async () => {
      try {
        do {
          this.flushAgain = false;
          for (;;) {
            const events = await this.store.pendingEvents(null, 50);
            if (events.length === 0 || !this.sink) break;
            for (const event of events) {
              try {
                await this.sink(event);
              } catch (error) {
                // Left pending: delivered again on the next flush, as Stripe retries a webhook.
                this.logger.error(`Delivering ${event.type} ${event.id} failed: ${describeError(error)}`);
                return;
              }
              await this.store.markEventDelivered(null, event.id);
            }
          }
        } while (this.flushAgain);
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  async billingOverview(customerId: string): Promise<{ card: ProviderCard | null; invoices: ProviderInvoice[] }> {
    const [card, invoices] = await Promise.all([
      this.store.cardOnFile(null, customerId),
      this.store.latestInvoices(null, customerId, BILLING_INVOICES_SHOWN),
    ]);
    // The test mode has no invoice pages.
    return { card, invoices: invoices.map((invoice) => ({ ...invoice, url: null })) };
  }

  /** Test mode has no customer portal: "change card" is the built-in card page, back to `returnUrl`. */
  async createPortalSession(input: {
    ownerId: number;
    customerId: string;
    returnUrl: string;
  }): Promise<{ url: string }> {
    const { url } = await this.createSetupSession({
      ownerId: input.ownerId,
      customerId: input.customerId,
      successUrl: input.returnUrl,
      cancelUrl: input.returnUrl,
    });
    return { url };
  }

  async parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<BillingEvent> {
    if (!signature) throw new WebhookSignatureError('The Stripe-Signature header is missing.');
    stripeSdk ??= import('stripe').then((module) => module.default);
    const sdk = await stripeSdk;
    try {
      return toBillingEvent(sdk.webhooks.constructEvent(rawBody, signature, this.webhookSecret));
    } catch (error) {
      throw new WebhookSignatureError((error as Error).message);
    }
  }

  // ---- the built-in payment page -------------------------------------------------------------

  async viewCheckout(sessionId: string): Promise<TestCheckoutView | null> {
    const session = await this.store.findCheckoutSession(null, sessionId);
    if (!session) return null;
    const state = session.status === 'open' && session.expiresAt.getTime() <= Date.now() ? 'expired' : session.status;
    return { session, state };
  }

  /**
   * The card was entered: attach it (both test cards attach; 0341 only fails when charged),
   * complete the session and queue `payment_method.attached` + `checkout.session.completed`.
   * Returns the URL to send the browser to, or null when the session cannot be completed.
   */
  async completeCheckout(sessionId: string, accepted: AcceptedCard): Promise<string | null> {
    const redirect = await this.transactions.run(async (tx) => {
      const session = await this.store.findCheckoutSession(tx, sessionId, true);
      if (!session) return null;
      if (session.status === 'complete') return successUrl(session);
      if (session.status !== 'open' || session.expiresAt.getTime() <= Date.now()) return null;
      const paymentMethodId = await this.store.insertPaymentMethod(tx, {
        customerId: session.customerId,
        brand: accepted.card.brand,
        last4: accepted.last4,
        expMonth: accepted.expMonth,
        expYear: accepted.expYear,
        chargesSucceed: accepted.card.chargesSucceed,
      });
      await this.store.completeCheckoutSession(tx, session.id, paymentMethodId);
      await this.emit(tx, 'payment_method.attached', session.customerId, {});
      await this.emit(tx, 'checkout.session.completed', session.customerId, {
        checkoutSessionId: session.id,
        checkoutMode: 'setup',
      });
      return successUrl(session);
    });
    await this.flushEvents();
    return redirect;
  }

  // ---- internals -------------------------------------------------------------------------------

  /** "Charges" the card for an invoice: a $0 invoice is paid without a charge, as at Stripe. */
  private async charge(tx: Transaction, invoice: TestInvoice, paymentMethodId: string | null): Promise<void> {
    let succeeded = true;
    if (invoice.amountCents > 0) {
      const method = paymentMethodId
        ? { id: paymentMethodId, chargesSucceed: await this.chargesSucceed(tx, invoice.customerId, paymentMethodId) }
        : await this.store.chargeablePaymentMethod(tx, invoice.customerId);
      succeeded = method?.chargesSucceed === true;
      await this.store.recordCharge(tx, {
        invoiceId: invoice.id,
        paymentMethodId: method?.id ?? null,
        amountCents: invoice.amountCents,
        succeeded,
        failure: succeeded ? undefined : method ? 'Your card was declined.' : 'The customer has no card.',
      });
    } else {
      await this.store.markInvoicePaid(tx, invoice.id);
    }
    await this.store.setSubscriptionStatus(tx, invoice.subscriptionId, succeeded ? 'active' : 'past_due');
    await this.emit(tx, succeeded ? 'invoice.paid' : 'invoice.payment_failed', invoice.customerId, {
      invoiceId: invoice.id,
      subscriptionId: invoice.subscriptionId,
    });
    this.logger.log(
      `Test-mode invoice ${invoice.id} for ${invoice.customerId}: ${invoice.amountCents}¢ ${succeeded ? 'paid' : 'payment failed'} (no real charge)`,
    );
  }

  private async chargesSucceed(tx: Transaction, customerId: string, paymentMethodId: string): Promise<boolean> {
    const method = await this.store.chargeablePaymentMethod(tx, customerId);
    if (method?.id === paymentMethodId) return method.chargesSucceed;
    return this.store.paymentMethodChargesSucceed(tx, paymentMethodId);
  }

  private async emit(tx: Transaction, type: string, customerId: string, extra: Partial<BillingEvent>): Promise<void> {
    await this.store.insertEvent(tx, { id: testId('evt', 16), type, created: new Date(), customerId, ...extra });
  }

  private toProviderSubscription(s: {
    id: string;
    itemId: string;
    status: string;
    createdAt: Date;
  }): ProviderSubscription {
    const now = new Date();
    const start = periodStartFor(now);
    return {
      subscriptionId: s.id,
      subscriptionItemId: s.itemId,
      status: s.status,
      // The first period runs from the subscription's creation to the next 3rd.
      currentPeriodStart: s.status === 'canceled' ? null : s.createdAt > start ? s.createdAt : start,
      currentPeriodEnd: s.status === 'canceled' ? null : nextPeriodStart(now),
    };
  }
}

function successUrl(session: TestCheckoutSession): string {
  return session.successUrl.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id));
}

function unknownCustomer(): AppError {
  return new AppError(HttpStatus.BAD_GATEWAY, 'PAYMENT_PROVIDER_ERROR', 'The payment customer was not found.');
}
