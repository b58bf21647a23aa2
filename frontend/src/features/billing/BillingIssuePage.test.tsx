import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, billingApi, userApi } from '../../api';
import type { CurrentUser } from '../../api/types';
import { BillingIssuePage } from './BillingIssuePage';
import { BILLING_POLL_INTERVAL_MS, externalNavigation } from './billingFlow';
import { renderBillingPage } from '../../test/render';

function me(hasPaid: boolean): CurrentUser {
  return { id: 1, email: 'owner@example.com', hasPaid, stripeCustomerId: 'cus_1', subscriptionItemId: 'si_1' };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('BillingIssuePage', () => {
  it('shows its texts and the button', async () => {
    vi.spyOn(userApi, 'me').mockResolvedValue(me(false));
    renderBillingPage('/billing-issue', <BillingIssuePage />);
    expect(screen.getByRole('heading', { name: 'Fix Your Billing Info' })).toBeInTheDocument();
    expect(
      screen.getByText('Your last payment failed. Please update your card to restore access.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update Payment Method' })).toBeEnabled();
  });

  it("shows 'Redirecting…' while it opens the payment-method page", async () => {
    vi.spyOn(userApi, 'me').mockResolvedValue(me(false));
    vi.spyOn(billingApi, 'createPaymentMethodSession').mockResolvedValue({ url: 'https://pay.example/cs_3' });
    const go = vi.spyOn(externalNavigation, 'go').mockImplementation(() => {});
    renderBillingPage('/billing-issue', <BillingIssuePage />);
    fireEvent.click(screen.getByRole('button', { name: 'Update Payment Method' }));
    expect(await screen.findByRole('button', { name: 'Redirecting…' })).toBeDisabled();
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://pay.example/cs_3'));
  });

  it('shows the server message and enables the button again when the session cannot be opened', async () => {
    vi.spyOn(userApi, 'me').mockResolvedValue(me(false));
    vi.spyOn(billingApi, 'createPaymentMethodSession').mockRejectedValue(
      new ApiError(502, 'PAYMENT_PROVIDER_ERROR', 'The payment provider is not reachable right now.', true),
    );
    renderBillingPage('/billing-issue', <BillingIssuePage />);
    fireEvent.click(screen.getByRole('button', { name: 'Update Payment Method' }));
    expect(await screen.findByText('The payment provider is not reachable right now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update Payment Method' })).toBeEnabled();
  });

  it('polls every 5 s and opens the dashboard once the account is paid again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const poll = vi
      .spyOn(userApi, 'me')
      .mockResolvedValueOnce(me(false))
      .mockResolvedValueOnce(me(false))
      .mockResolvedValue(me(true));
    const { router } = renderBillingPage('/billing-issue', <BillingIssuePage />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(poll).toHaveBeenCalledTimes(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(BILLING_POLL_INTERVAL_MS - 1);
    });
    expect(poll).toHaveBeenCalledTimes(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(poll).toHaveBeenCalledTimes(2);
    expect(router.state.location.pathname).toBe('/billing-issue');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(BILLING_POLL_INTERVAL_MS);
    });
    expect(poll).toHaveBeenCalledTimes(3);
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(BILLING_POLL_INTERVAL_MS).toBe(5000);
  });

  it('sends a signed-out owner to /login', async () => {
    vi.spyOn(userApi, 'me').mockRejectedValue(new ApiError(401, 'UNAUTHORIZED', 'Please sign in.', true));
    const { router } = renderBillingPage('/billing-issue', <BillingIssuePage />);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
