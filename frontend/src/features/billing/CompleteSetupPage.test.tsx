import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, billingApi, userApi } from '../../api';
import type { CurrentUser } from '../../api/types';
import { externalNavigation } from './billingFlow';
import { CompleteSetupPage } from './CompleteSetupPage';
import { renderBillingPage } from '../../test/render';

function me(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 1,
    email: 'owner@example.com',
    hasPaid: false,
    stripeCustomerId: null,
    subscriptionItemId: null,
    ...overrides,
  };
}

afterEach(() => vi.restoreAllMocks());

describe('CompleteSetupPage', () => {
  it('creates the customer and goes to the returned payment page when there is none', async () => {
    vi.spyOn(userApi, 'me').mockResolvedValue(me());
    const create = vi.spyOn(billingApi, 'createStripeCustomer').mockResolvedValue({ url: 'https://pay.example/cs_1' });
    const go = vi.spyOn(externalNavigation, 'go').mockImplementation(() => {});
    renderBillingPage('/complete-setup', <CompleteSetupPage />);
    expect(screen.getByRole('heading', { name: 'Almost There' })).toBeInTheDocument();
    // Why a card, plainly: the $5 is free, the card is for what comes after and against abuse.
    expect(
      screen.getByText(
        'Why a card? Your $5 of free credits are free: nothing is charged until they are used up. After that, the card pays for the answers your bots give (billed monthly, on the 3rd), and asking for one keeps abuse out.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://pay.example/cs_1'));
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('goes to /dashboard with a customer and a subscription, without creating anything', async () => {
    vi.spyOn(userApi, 'me').mockResolvedValue(
      me({ stripeCustomerId: 'cus_1', subscriptionItemId: 'si_1', hasPaid: true }),
    );
    const create = vi.spyOn(billingApi, 'createStripeCustomer');
    const { router } = renderBillingPage('/complete-setup', <CompleteSetupPage />);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(create).not.toHaveBeenCalled();
  });

  it('goes to /setup-success with a customer only', async () => {
    vi.spyOn(userApi, 'me').mockResolvedValue(me({ stripeCustomerId: 'cus_1' }));
    const { router } = renderBillingPage('/complete-setup', <CompleteSetupPage />);
    await waitFor(() => expect(router.state.location.pathname).toBe('/setup-success'));
  });

  it('shows the server message when the payment setup fails', async () => {
    vi.spyOn(userApi, 'me').mockResolvedValue(me());
    vi.spyOn(billingApi, 'createStripeCustomer').mockRejectedValue(
      new ApiError(502, 'PAYMENT_PROVIDER_ERROR', 'The payment provider is not reachable right now.', true),
    );
    const go = vi.spyOn(externalNavigation, 'go').mockImplementation(() => {});
    renderBillingPage('/complete-setup', <CompleteSetupPage />);
    expect(await screen.findByText('The payment provider is not reachable right now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(go).not.toHaveBeenCalled();
  });

  it('sends a signed-out visitor to /login with the authentication toast', async () => {
    vi.spyOn(userApi, 'me').mockRejectedValue(new ApiError(401, 'UNAUTHORIZED', 'Please sign in.', true));
    const { router } = renderBillingPage('/complete-setup', <CompleteSetupPage />);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText('Authentication error. Redirecting to login.')).toBeInTheDocument();
  });
});
