import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, billingApi, userApi } from '../../api';
import type { CurrentUser } from '../../api/types';
import { externalNavigation } from './billingFlow';
import { renderBillingPage } from '../../test/render';
import { SetupSuccessPage } from './SetupSuccessPage';

function me(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 1,
    email: 'owner@example.com',
    hasPaid: false,
    stripeCustomerId: 'cus_1',
    subscriptionItemId: null,
    ...overrides,
  };
}

afterEach(() => vi.restoreAllMocks());

describe('SetupSuccessPage', () => {
  it('shows its title and text, creates the subscription once there is a card, then opens the dashboard', async () => {
    vi.spyOn(userApi, 'me').mockResolvedValue(me());
    vi.spyOn(billingApi, 'hasPaymentMethod').mockResolvedValue({ hasPaymentMethod: true });
    let finish!: (value: { subscriptionItemId: string }) => void;
    const create = vi
      .spyOn(billingApi, 'createStripeSubscription')
      .mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const { router } = renderBillingPage('/setup-success', <SetupSuccessPage />);
    expect(screen.getByRole('heading', { name: 'Finishing Setup' })).toBeInTheDocument();
    expect(screen.getByText('Creating your subscription...')).toBeInTheDocument();
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    finish({ subscriptionItemId: 'si_1' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('goes straight to /dashboard when the subscription exists', async () => {
    vi.spyOn(userApi, 'me').mockResolvedValue(me({ subscriptionItemId: 'si_1', hasPaid: true }));
    const create = vi.spyOn(billingApi, 'createStripeSubscription');
    const { router } = renderBillingPage('/setup-success', <SetupSuccessPage />);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(create).not.toHaveBeenCalled();
  });

  it('without a card, redirects to a payment-method session instead of subscribing', async () => {
    vi.spyOn(userApi, 'me').mockResolvedValue(me());
    vi.spyOn(billingApi, 'hasPaymentMethod').mockResolvedValue({ hasPaymentMethod: false });
    vi.spyOn(billingApi, 'createPaymentMethodSession').mockResolvedValue({ url: 'https://pay.example/cs_2' });
    const create = vi.spyOn(billingApi, 'createStripeSubscription');
    const go = vi.spyOn(externalNavigation, 'go').mockImplementation(() => {});
    renderBillingPage('/setup-success', <SetupSuccessPage />);
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://pay.example/cs_2'));
    expect(create).not.toHaveBeenCalled();
  });

  it("toasts 'Error creating subscription.' when the subscription cannot be created", async () => {
    vi.spyOn(userApi, 'me').mockResolvedValue(me());
    vi.spyOn(billingApi, 'hasPaymentMethod').mockResolvedValue({ hasPaymentMethod: true });
    vi.spyOn(billingApi, 'createStripeSubscription').mockRejectedValue(
      new ApiError(502, 'PAYMENT_PROVIDER_ERROR', 'The payment provider is not reachable right now.', true),
    );
    const { router } = renderBillingPage('/setup-success', <SetupSuccessPage />);
    expect((await screen.findAllByText('Error creating subscription.')).length).toBeGreaterThan(0);
    expect(router.state.location.pathname).toBe('/setup-success');
  });

  it.each([401, 403])('sends the owner to /login on %i', async (status) => {
    vi.spyOn(userApi, 'me').mockResolvedValue(me());
    vi.spyOn(billingApi, 'hasPaymentMethod').mockRejectedValue(new ApiError(status, 'ERROR', 'No.', true));
    const { router } = renderBillingPage('/setup-success', <SetupSuccessPage />);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText('Authentication error. Redirecting to login.')).toBeInTheDocument();
  });
});
