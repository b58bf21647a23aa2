import { ApiError } from './client';
import type { CurrentUser } from './types';

/**
 * The dashboard gate (docs/product.md#dashboard-gate): where an owner who may not see the dashboard goes,
 * or null when the dashboard is theirs.
 */
export function gateDestination(user: Pick<CurrentUser, 'stripeCustomerId' | 'subscriptionItemId' | 'hasPaid'>) {
  if (!user.stripeCustomerId) return '/complete-setup';
  if (!user.subscriptionItemId) return '/setup-success';
  if (user.hasPaid === false) return '/billing-issue';
  return null;
}

/**
 * Where a failed dashboard call sends the owner: the session ended (401) or the billing state
 * changed since the page loaded (403 with the billing guard's code). Null for other failures.
 */
export function destinationForError(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 401) return '/login';
  if (error.status !== 403) return null;
  return BILLING_GATE_PAGES[error.code] ?? null;
}

/** The page each billing-guard refusal leads to. */
const BILLING_GATE_PAGES: Partial<Record<string, string>> = {
  SETUP_REQUIRED: '/complete-setup',
  SUBSCRIPTION_PENDING: '/setup-success',
  PAYMENT_FAILED: '/billing-issue',
};
