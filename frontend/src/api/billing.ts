import { apiFetch } from './client';
import type { BillingOverviewResponse } from '@botsmith/contract';
import type { SubscriptionResponse, UrlResponse } from './types';

export const billingApi = {
  /** Creates the payment-provider customer and returns the hosted page where the card is entered. */
  createStripeCustomer: () => apiFetch<UrlResponse>('/api/auth/create-stripe-customer', { method: 'POST', body: {} }),
  hasPaymentMethod: () => apiFetch<{ hasPaymentMethod: boolean }>('/api/auth/has-payment-method'),
  createPaymentMethodSession: () =>
    apiFetch<UrlResponse>('/api/auth/create-payment-method-session', { method: 'POST' }),
  /** Idempotent: a second call returns the same subscription. */
  createStripeSubscription: () =>
    apiFetch<{ subscriptionItemId: string }>('/api/auth/create-stripe-subscription', { method: 'POST' }),
  getSubscription: () => apiFetch<SubscriptionResponse>('/api/subscription'),
  /** The card on file and the latest invoices (Settings > Billing). */
  getOverview: () => apiFetch<BillingOverviewResponse>('/api/billing'),
  /** Where "Change card" goes: Stripe's customer portal, or the test-mode card page. */
  createPortalSession: () => apiFetch<UrlResponse>('/api/billing/portal', { method: 'POST', body: {} }),
};
