import { ApiError } from '../../api/client';
import type { CurrentUser } from '../../api/types';

/** The feedback address of the dashboard's note (brief section 2). */
export const FEEDBACK_EMAIL = 'feedback@botsmith.dev';

/**
 * The dashboard gate of the brief's section 4: where an owner who may not see the dashboard goes,
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
  switch (error.code) {
    case 'SETUP_REQUIRED':
      return '/complete-setup';
    case 'SUBSCRIPTION_PENDING':
      return '/setup-success';
    case 'PAYMENT_FAILED':
      return '/billing-issue';
    default:
      return null;
  }
}
