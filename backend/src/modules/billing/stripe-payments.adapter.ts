import { randomUUID } from 'node:crypto';
import { HttpStatus, Logger } from '@nestjs/common';
import Stripe from 'stripe';
import { AppError } from '../../common/app-error.js';
import { BILLING_INVOICES_SHOWN, BILLING_PERIOD_START_DAY, METER_EVENT_MAX_AGE_MS } from '../../common/constants.js';
import type { AppConfig } from '../../config/config.js';
import {
  WebhookSignatureError,
  type BillingEvent,
  type MeterEventInput,
  type PaymentsPort,
  type ProviderCard,
  type ProviderInvoice,
  type ProviderSubscription,
} from './payments.port.js';
import { describeError } from '../../common/error-description.js';
import { toBillingEvent } from './stripe-events.js';

type StripeSettings = NonNullable<AppConfig['stripe']>;

/** The API version this SDK release is pinned to; sent explicitly so an upgrade is a visible change. */
export const STRIPE_API_VERSION = Stripe.API_VERSION;

/**
 * The production adapter: the official `stripe` SDK (23.1.0, API version 2026-10-28.endive).
 * Usage-based billing goes through Billing Meters (`billing.meterEvents.create`): the metered price
 * (STRIPE_PRICE_ID) must be attached to a meter whose event name is STRIPE_METER_EVENT_NAME,
 * aggregation `sum`, customer mapping by `stripe_customer_id`, and cost 1 cent per unit.
 * STRIPE_API_URL points the SDK at another server (tests use a local one).
 */
export class StripePaymentsAdapter implements PaymentsPort {
  private readonly logger = new Logger('StripePayments');
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    const target = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
    this.stripe = new Stripe(settings.secretKey, {
      apiVersion: STRIPE_API_VERSION,
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'Botsmith' },
      ...(target
        ? {
            host: target.hostname,
            port: target.port || (target.protocol === 'https:' ? 443 : 80),
            protocol: target.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
  }

  async createCustomer(input: { ownerId: number; email: string }): Promise<{ customerId: string }> {
    const customer = await this.call(() =>
      this.stripe.customers.create(
        { email: input.email, metadata: { ownerId: String(input.ownerId) } },
        { idempotencyKey: `customer-${input.ownerId}` },
      ),
    );
    return { customerId: customer.id };
  }

  async createSetupSession(input: {
    ownerId: number;
    customerId: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ url: string; sessionId: string }> {
    const session = await this.call(() =>
      this.stripe.checkout.sessions.create(
        {
          mode: 'setup',
          customer: input.customerId,
          currency: 'usd',
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata: { ownerId: String(input.ownerId) },
        },
        // A new page each time it is asked for; the key only makes the SDK's retries safe.
        { idempotencyKey: `setup-session-${input.ownerId}-${randomUUID()}` },
      ),
    );
    if (!session.url) throw providerError('The payment page could not be opened.');
    return { url: session.url, sessionId: session.id };
  }

  async hasPaymentMethod(customerId: string): Promise<boolean> {
    const methods = await this.call(() => this.stripe.customers.listPaymentMethods(customerId, { limit: 1 }));
    return methods.data.length > 0;
  }

  async createSubscription(input: { ownerId: number; customerId: string }): Promise<ProviderSubscription> {
    const paymentMethod = await this.defaultPaymentMethod(input.customerId);
    if (!paymentMethod) {
      throw new AppError(HttpStatus.BAD_REQUEST, 'PAYMENT_METHOD_REQUIRED', 'Please add a card first.');
    }
    const priceId = this.settings.priceId;
    if (!priceId) throw providerError('Billing is not configured (STRIPE_PRICE_ID is missing).');
    const subscription = await this.call(() =>
      this.stripe.subscriptions.create(
        {
          customer: input.customerId,
          // Metered price: no quantity.
          items: [{ price: priceId }],
          default_payment_method: paymentMethod,
          billing_cycle_anchor_config: { day_of_month: BILLING_PERIOD_START_DAY, hour: 0, minute: 0, second: 0 },
          proration_behavior: 'none',
          metadata: { ownerId: String(input.ownerId) },
        },
        { idempotencyKey: `subscription-${input.ownerId}-${input.customerId}` },
      ),
    );
    return toProviderSubscription(subscription);
  }

  async getSubscription(subscriptionId: string): Promise<ProviderSubscription | null> {
    try {
      return toProviderSubscription(await this.stripe.subscriptions.retrieve(subscriptionId));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      throw this.translate(error);
    }
  }

  async cancelSubscription(subscriptionId: string): Promise<void> {
    const current = await this.getSubscription(subscriptionId);
    if (!current || current.status === 'canceled') return;
    await this.call(() => this.stripe.subscriptions.cancel(subscriptionId, { invoice_now: true, prorate: false }));
  }

  async hasOverdueInvoices(customerId: string): Promise<boolean> {
    const open = await this.call(() => this.stripe.invoices.list({ customer: customerId, status: 'open', limit: 20 }));
    return open.data.some((invoice) => invoice.attempt_count > 0);
  }

  async reportUsage(input: MeterEventInput): Promise<void> {
    // Stripe accepts timestamps from the past 35 days only; older usage is reported as of now.
    const oldest = Date.now() - METER_EVENT_MAX_AGE_MS;
    const at = Math.max(input.timestamp.getTime(), oldest);
    await this.call(() =>
      this.stripe.billing.meterEvents.create(
        {
          event_name: this.settings.meterEventName,
          payload: { stripe_customer_id: input.customerId, value: String(input.valueCents) },
          identifier: input.identifier,
          timestamp: Math.floor(at / 1000),
        },
        { idempotencyKey: `meter-${input.identifier}` },
      ),
    );
  }

  async useNewPaymentMethod(input: { customerId: string; checkoutSessionId: string }): Promise<void> {
    const session = await this.call(() =>
      this.stripe.checkout.sessions.retrieve(input.checkoutSessionId, { expand: ['setup_intent'] }),
    );
    const intent = session.setup_intent;
    const method = intent && typeof intent !== 'string' ? intent.payment_method : null;
    const paymentMethodId = typeof method === 'string' ? method : (method?.id ?? null);
    if (!paymentMethodId) return;
    await this.call(() =>
      this.stripe.customers.update(input.customerId, {
        invoice_settings: { default_payment_method: paymentMethodId },
      }),
    );
    const subscriptions = await this.call(() =>
      this.stripe.subscriptions.list({ customer: input.customerId, status: 'all', limit: 10 }),
    );
    for (const subscription of subscriptions.data) {
      if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') continue;
      await this.call(() =>
        this.stripe.subscriptions.update(subscription.id, { default_payment_method: paymentMethodId }),
      );
    }
    // Retry what failed with the new card: a success sends invoice.paid, which restores access.
    const open = await this.call(() =>
      this.stripe.invoices.list({ customer: input.customerId, status: 'open', limit: 20 }),
    );
    for (const invoice of open.data) {
      if (!invoice.id) continue;
      const invoiceId = invoice.id;
      try {
        await this.stripe.invoices.pay(invoiceId, { payment_method: paymentMethodId });
      } catch (error) {
        // A declined retry is reported by Stripe as invoice.payment_failed; nothing else to do.
        this.logger.warn(`Retrying invoice ${invoiceId} failed: ${describeError(error)}`);
      }
    }
  }

  async billingOverview(customerId: string): Promise<{ card: ProviderCard | null; invoices: ProviderInvoice[] }> {
    const methodId = await this.defaultPaymentMethod(customerId);
    const method = methodId ? await this.call(() => this.stripe.paymentMethods.retrieve(methodId)) : null;
    const invoices = await this.call(() =>
      this.stripe.invoices.list({ customer: customerId, limit: BILLING_INVOICES_SHOWN }),
    );
    return {
      card: method?.card
        ? {
            brand: method.card.brand,
            last4: method.card.last4,
            expMonth: method.card.exp_month,
            expYear: method.card.exp_year,
          }
        : null,
      invoices: invoices.data.map((invoice) => ({
        id: invoice.id ?? '',
        created: new Date(invoice.created * 1000),
        // What was charged once paid, what is due before.
        amountCents: invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_due,
        status: invoice.status ?? 'draft',
        url: invoice.hosted_invoice_url ?? null,
      })),
    };
  }

  async createPortalSession(input: {
    ownerId: number;
    customerId: string;
    returnUrl: string;
  }): Promise<{ url: string }> {
    // Stripe's hosted customer portal (its default configuration): cards, invoices, billing address.
    const session = await this.call(() =>
      this.stripe.billingPortal.sessions.create({ customer: input.customerId, return_url: input.returnUrl }),
    );
    return { url: session.url };
  }

  closePeriod(): Promise<{ invoices: number }> {
    // Stripe invoices each subscription on its anchor (the 3rd) by itself, after a grace period
    // during which late meter events still count.
    return Promise.resolve({ invoices: 0 });
  }

  flushEvents(): Promise<void> {
    return Promise.resolve();
  }

  setEventSink(): void {
    // Stripe delivers its events as webhooks.
  }

  async parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<BillingEvent> {
    const secret = this.settings.webhookSecret;
    if (!secret) throw new WebhookSignatureError('STRIPE_WEBHOOK_SECRET is not set: webhooks cannot be verified.');
    if (!signature) throw new WebhookSignatureError('The Stripe-Signature header is missing.');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, secret);
    } catch (error) {
      throw new WebhookSignatureError((error as Error).message);
    }
    return toBillingEvent(event);
  }

  private async defaultPaymentMethod(customerId: string): Promise<string | null> {
    const customer = await this.call(() => this.stripe.customers.retrieve(customerId));
    if (!('deleted' in customer && customer.deleted)) {
      const configured = customer.invoice_settings?.default_payment_method;
      if (configured) return typeof configured === 'string' ? configured : configured.id;
    }
    const methods = await this.call(() => this.stripe.customers.listPaymentMethods(customerId, { limit: 1 }));
    return methods.data[0]?.id ?? null;
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw this.translate(error);
    }
  }

  /** Provider failures become 502 with a sentence; never the provider's internals. */
  private translate(error: unknown): Error {
    if (error instanceof AppError) return error;
    const message = describeError(error);
    this.logger.error(`Stripe call failed: ${message}`);
    if (error instanceof Stripe.errors.StripeCardError) {
      return new AppError(HttpStatus.PAYMENT_REQUIRED, 'CARD_DECLINED', 'Your card was declined.');
    }
    return providerError('The payment provider is not reachable right now. Please try again in a moment.');
  }
}

function providerError(message: string): AppError {
  return new AppError(HttpStatus.BAD_GATEWAY, 'PAYMENT_PROVIDER_ERROR', message);
}

function toProviderSubscription(subscription: Stripe.Subscription): ProviderSubscription {
  const item = subscription.items.data[0];
  if (!item) throw providerError('The subscription has no item.');
  return {
    subscriptionId: subscription.id,
    subscriptionItemId: item.id,
    status: subscription.status,
    // Since API 2025-03-31.basil the period lives on the subscription item.
    currentPeriodStart: item.current_period_start ? new Date(item.current_period_start * 1000) : null,
    currentPeriodEnd: item.current_period_end ? new Date(item.current_period_end * 1000) : null,
  };
}
