import { ApiError } from '../../api/client';
import type { CurrentUser } from '../../api/types';

/** The password rule (docs/product.md#field-rules): the contract's, which the server enforces too. */
export { PASSWORD_HINT, PASSWORD_PATTERN } from '@botsmith/contract';

export const TERMS_REQUIRED = 'You must agree to the Terms of Service and Privacy Policy.';
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match.';
export const INVALID_EMAIL = 'Please enter a valid email address.';
export const PASSWORD_REQUIRED = 'Please enter your password.';
export const CHECK_YOUR_EMAIL = 'Please check your email to verify your account.';
export const LOGIN_FAILED = 'Login failed: please check your credentials.';
export const RESET_FAILED = 'Error resetting password.';
export const RESET_INSTRUCTIONS_SENT = 'Check your email for reset instructions.';

/** Redirect to /login 2000 ms after a reset, and 3 s after a verification (docs/product.md#account-screens). */
export const RESET_REDIRECT_MS = 2000;
export const VERIFY_REDIRECT_MS = 3000;

export function isValidEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());
}

/** The signup answer switches the page to its confirmation view when it says "check your email". */
export function asksToCheckEmail(message: string): boolean {
  return /check your email/i.test(message);
}

/**
 * Where a freshly signed-in owner goes (docs/product.md#after-login): a failed payment first, then a complete
 * subscription to the dashboard, a customer without subscription to /setup-success, else setup.
 */
export function routeAfterLogin(user: CurrentUser): string {
  if (user.hasPaid === false) return '/billing-issue';
  if (user.stripeCustomerId && user.subscriptionItemId) return '/dashboard';
  if (user.stripeCustomerId) return '/setup-success';
  return '/complete-setup';
}

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Something went wrong.';
}

/** An answer from the server with an error status (as opposed to no answer, or an unreadable one). */
function isErrorAnswer(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status >= 400;
}

/** 'Error: ' plus the message (network or parse failures; every forgot-password failure). */
export function errorPrefixed(error: unknown): string {
  return `Error: ${messageOf(error)}`;
}

/** Signup: the server's error text in red, else 'Error: ' plus the message. */
export function signupErrorText(error: unknown): string {
  return isErrorAnswer(error) && error.fromServer ? error.message : errorPrefixed(error);
}

/** Login: the server's error text, or LOGIN_FAILED; otherwise 'Error: ' plus the message. */
export function loginErrorText(error: unknown): string {
  if (isErrorAnswer(error)) return error.fromServer ? error.message : LOGIN_FAILED;
  return errorPrefixed(error);
}

/** Reset: the server's error text, or 'Error resetting password.'; otherwise 'Error: ' plus the message. */
export function resetErrorText(error: unknown): string {
  if (isErrorAnswer(error)) return error.fromServer ? error.message : RESET_FAILED;
  return errorPrefixed(error);
}

/** Verification: the server's message, else 'Error: ' plus the message. */
/** What /verify-email/:token ends with: the message shown, then /dashboard when ok, else /login. */
export type VerifyOutcome = { ok: boolean; message: string };

export function verifiedOutcome(message: string | undefined): VerifyOutcome {
  return { ok: true, message: message || 'Your email has been verified.' };
}

export function verifyErrorText(error: unknown): string {
  return isErrorAnswer(error) && error.fromServer ? error.message : errorPrefixed(error);
}
