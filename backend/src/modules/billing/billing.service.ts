import type { BillingOverviewResponse, SubscriptionResponse } from '@botsmith/contract';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { nextPeriodStart, periodStartFor } from '../../common/billing-period.js';
import { AppError } from '../../common/app-error.js';
import { BILLING_PORTAL_SESSIONS_PER_DAY } from '../../common/constants.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { BillingAccountRepository, type BillingAccount } from './billing-account.repository.js';
import { DailyQuotasService } from '../quotas/daily-quotas.service.js';
import { UsersService } from '../users/users.service.js';
import { PAYMENTS, type PaymentsPort } from './payments.port.js';

export type { BillingOverviewResponse, SubscriptionResponse };

const PORTAL_LIMIT_SENTENCE = `The page to change your card was opened ${BILLING_PORTAL_SESSIONS_PER_DAY} times today. Please try again tomorrow.`;

/**
 * The owner's side of billing setup (docs/product.md#setup-flow): customer, card, subscription. Provider
 * calls are never made inside a database transaction; concurrent or repeated requests are made
 * safe by the provider's idempotency keys and by conditional updates of `users`.
 */
@Injectable()
export class BillingService {
  constructor(
    @Inject(PAYMENTS) private readonly payments: PaymentsPort,
    private readonly accounts: BillingAccountRepository,
    private readonly users: UsersService,
    private readonly quotas: DailyQuotasService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** POST /api/auth/create-stripe-customer: the customer (once) and the page where the card is entered. */
  async createCustomer(ownerId: number): Promise<{ url: string }> {
    const account = await this.account(ownerId);
    const customerId = await this.ensureCustomer(account);
    return this.setupSession(account, customerId, '/setup-success', '/complete-setup');
  }

  async hasPaymentMethod(ownerId: number): Promise<{ hasPaymentMethod: boolean }> {
    const account = await this.account(ownerId);
    if (!account.stripeCustomerId) return { hasPaymentMethod: false };
    return { hasPaymentMethod: await this.payments.hasPaymentMethod(account.stripeCustomerId) };
  }

  /**
   * POST /api/auth/create-payment-method-session: a page to add or replace the card. After a
   * failed payment it returns to /billing-issue (which waits for the retried invoice to be paid),
   * otherwise to /setup-success (which creates the subscription).
   */
  async createPaymentMethodSession(ownerId: number): Promise<{ url: string }> {
    const account = await this.account(ownerId);
    const customerId = await this.ensureCustomer(account);
    if (account.hasPaid === false) return this.setupSession(account, customerId, '/billing-issue', '/billing-issue');
    return this.setupSession(account, customerId, '/setup-success', '/complete-setup');
  }

  /** POST /api/auth/create-stripe-subscription: idempotent, a second call returns the same item. */
  async createSubscription(ownerId: number): Promise<{ subscriptionItemId: string }> {
    const account = await this.account(ownerId);
    if (account.subscriptionItemId) return { subscriptionItemId: account.subscriptionItemId };
    if (!account.stripeCustomerId) {
      throw new AppError(HttpStatus.BAD_REQUEST, 'SETUP_REQUIRED', 'Please add a payment method first.');
    }
    const subscription = await this.payments.createSubscription({ ownerId, customerId: account.stripeCustomerId });
    const stored = await this.users.setSubscriptionIfMissing(
      ownerId,
      subscription.subscriptionId,
      subscription.subscriptionItemId,
    );
    return { subscriptionItemId: stored ?? subscription.subscriptionItemId };
  }

  /** GET /api/subscription. */
  async getSubscription(ownerId: number, now = new Date()): Promise<SubscriptionResponse> {
    const account = await this.account(ownerId);
    const provider = account.stripeSubscriptionId
      ? await this.payments.getSubscription(account.stripeSubscriptionId)
      : null;
    return {
      status: provider?.status ?? 'none',
      currentPeriodStart: provider?.currentPeriodStart?.toISOString() ?? null,
      currentPeriodEnd: provider?.currentPeriodEnd?.toISOString() ?? null,
      creditsCents: account.creditsCents,
      hasPaid: account.hasPaid,
      subscriptionItemId: account.subscriptionItemId,
      usagePeriodStart: periodStartFor(now).toISOString(),
      usagePeriodEnd: nextPeriodStart(now).toISOString(),
    };
  }

  /** GET /api/billing: the card on file and the latest invoices (none before a customer exists). */
  async getOverview(ownerId: number): Promise<BillingOverviewResponse> {
    const account = await this.account(ownerId);
    const testMode = this.config.stripe === undefined;
    if (!account.stripeCustomerId) return { card: null, invoices: [], testMode };
    const { card, invoices } = await this.payments.billingOverview(account.stripeCustomerId);
    return {
      card,
      invoices: invoices.map((invoice) => ({ ...invoice, created: invoice.created.toISOString() })),
      testMode,
    };
  }

  /**
   * POST /api/billing/portal: where "Change card" goes (Stripe's customer portal, or the built-in
   * card page in test mode); the browser comes back to the Settings' Billing section.
   */
  async createPortalSession(ownerId: number): Promise<{ url: string }> {
    const account = await this.account(ownerId);
    if (!account.stripeCustomerId) {
      throw new AppError(HttpStatus.BAD_REQUEST, 'SETUP_REQUIRED', 'Please add a payment method first.');
    }
    // Each page is a call to the provider, whose rate limit every owner shares: bounded per account.
    const now = new Date();
    if (
      (await this.quotas.takeUpTo('billing_portal_sessions', ownerId, 1, BILLING_PORTAL_SESSIONS_PER_DAY, now)) === 0
    ) {
      throw AppError.dailyLimit('PORTAL_LIMIT_REACHED', PORTAL_LIMIT_SENTENCE, now);
    }
    return this.payments.createPortalSession({
      ownerId,
      customerId: account.stripeCustomerId,
      returnUrl: `${this.config.publicUrl}/dashboard?settings=billing`,
    });
  }

  private async account(ownerId: number): Promise<BillingAccount> {
    const account = await this.accounts.findActive(ownerId);
    if (!account) throw AppError.unauthorized();
    return account;
  }

  private async ensureCustomer(account: BillingAccount): Promise<string> {
    if (account.stripeCustomerId) return account.stripeCustomerId;
    const { customerId } = await this.payments.createCustomer({ ownerId: account.id, email: account.email });
    // Two tabs at once get the same customer (same idempotency key); keep whichever is stored.
    return (await this.users.setCustomerIfMissing(account.id, customerId)) ?? customerId;
  }

  private setupSession(
    account: BillingAccount,
    customerId: string,
    successPath: string,
    cancelPath: string,
  ): Promise<{ url: string }> {
    const base = this.config.publicUrl;
    const success =
      successPath === '/setup-success' ? `${base}${successPath}?session_id={CHECKOUT_SESSION_ID}` : base + successPath;
    return this.payments
      .createSetupSession({ ownerId: account.id, customerId, successUrl: success, cancelUrl: base + cancelPath })
      .then(({ url }) => ({ url }));
  }
}
