import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { renderAtDashboard } from '../../test/render';
import { externalNavigation } from '../billing/billingFlow';
import { BillingTab } from './BillingTab';

const api = vi.hoisted(() => ({
  billingApi: { getOverview: vi.fn(), createPortalSession: vi.fn() },
}));
vi.mock('../../api', () => api);

const CARD = { brand: 'visa', last4: '4242', expMonth: 3, expYear: 2031 };

describe('Settings > Billing', () => {
  beforeEach(() => {
    vi.restoreAllMocks();
    api.billingApi.getOverview.mockReset();
    api.billingApi.createPortalSession.mockReset();
  });

  it('shows the card on file and each invoice with its date, amount, status and link', async () => {
    api.billingApi.getOverview.mockResolvedValue({
      card: CARD,
      testMode: false,
      invoices: [
        {
          id: 'in_2',
          created: '2026-11-03T00:05:00.000Z',
          amountCents: 1234,
          status: 'open',
          url: 'https://invoice.stripe.com/i/2',
        },
        {
          id: 'in_1',
          created: '2026-10-03T00:05:00.000Z',
          amountCents: 700,
          status: 'paid',
          url: 'https://invoice.stripe.com/i/1',
        },
      ],
    });
    renderAtDashboard(<BillingTab />);
    expect(await screen.findByTestId('billing-card')).toHaveTextContent('Visa ending in 4242');
    expect(screen.getByText('Expires 03/2031')).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Invoices' })).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Nov 3, 2026');
    expect(rows[1]).toHaveTextContent('$12.34');
    expect(rows[1]).toHaveTextContent('Due');
    expect(within(rows[1]).getByRole('link', { name: /View invoice of Nov 3, 2026/ })).toHaveAttribute(
      'href',
      'https://invoice.stripe.com/i/2',
    );
    expect(rows[2]).toHaveTextContent('$7.00');
    expect(rows[2]).toHaveTextContent('Paid');
    expect(screen.queryByText(/Test mode/)).not.toBeInTheDocument();
  });

  it('sends the browser to the card page on Change card', async () => {
    api.billingApi.getOverview.mockResolvedValue({ card: CARD, testMode: true, invoices: [] });
    api.billingApi.createPortalSession.mockResolvedValue({ url: 'http://localhost/billing/test-checkout/cs_test_1' });
    const go = vi.spyOn(externalNavigation, 'go').mockImplementation(() => undefined);
    renderAtDashboard(<BillingTab />);
    expect(await screen.findByText(/No invoices yet/)).toBeInTheDocument();
    expect(screen.getByText(/Test mode: no real charge/)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Change card' }));
    expect(go).toHaveBeenCalledWith('http://localhost/billing/test-checkout/cs_test_1');
  });

  it("shows the server's sentence when the card page cannot open, and stays", async () => {
    api.billingApi.getOverview.mockResolvedValue({ card: CARD, testMode: false, invoices: [] });
    api.billingApi.createPortalSession.mockRejectedValue(
      new ApiError(400, 'SETUP_REQUIRED', 'Please add a payment method first.', true),
    );
    const go = vi.spyOn(externalNavigation, 'go').mockImplementation(() => undefined);
    renderAtDashboard(<BillingTab />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Change card' }));
    expect(await screen.findByText('Please add a payment method first.')).toBeInTheDocument();
    expect(go).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Change card' })).toBeEnabled();
  });

  it('says when there is no card yet and disables Change card', async () => {
    api.billingApi.getOverview.mockResolvedValue({ card: null, testMode: false, invoices: [] });
    renderAtDashboard(<BillingTab />);
    expect(await screen.findByText('No card on file yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change card' })).toBeDisabled();
  });

  it('shows an error with Try again when the billing details cannot be read', async () => {
    api.billingApi.getOverview.mockRejectedValueOnce(
      new ApiError(502, 'PAYMENT_PROVIDER_ERROR', 'The payment provider is not reachable right now.', true),
    );
    api.billingApi.getOverview.mockResolvedValueOnce({ card: CARD, testMode: false, invoices: [] });
    renderAtDashboard(<BillingTab />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The payment provider is not reachable right now.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('billing-card')).toHaveTextContent('Visa ending in 4242');
  });
});
