import { ApiError } from '../../api/client';

/** How often /billing-issue asks whether the retried payment went through (every 5 s). */
export const BILLING_POLL_INTERVAL_MS = 5000;

export const AUTH_ERROR_TOAST = 'Authentication error. Redirecting to login.';
export const SUBSCRIPTION_ERROR_TOAST = 'Error creating subscription.';

/** 401 or 403 during setup sends the owner to /login (docs/product.md#billing-setup-screens). */
export function isAuthError(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

/** The server's sentence when it sent one, else a generic one. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.fromServer ? error.message : fallback;
}

/**
 * Leaves the app for the payment provider's hosted page (Stripe Checkout, or the built-in
 * test-mode page). Wrapped so component tests can observe it.
 */
export const externalNavigation = {
  go(url: string): void {
    window.location.assign(url);
  },
};
