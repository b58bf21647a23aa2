import { ApiError } from '../../api/client';
import { FREE_CREDITS } from '../../layout/prices';

/**
 * Why the card step asks for a card (docs/product.md#setup-flow): the free credits are spent first
 * and nothing is charged until they are gone; the card pays for answers after that and keeps abuse out.
 */
export const WHY_A_CARD = `Why a card? Your ${FREE_CREDITS} of free credits are free: nothing is charged until they are used up. After that, the card pays for the answers your bots give (billed monthly, on the 3rd), and asking for one keeps abuse out.`;

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
