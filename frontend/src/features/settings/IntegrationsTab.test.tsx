import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WebhookDelivery, WebhookEndpoint } from '@botsmith/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { renderAtDashboard } from '../../test/render';
import { IntegrationsTab } from './IntegrationsTab';

const api = vi.hoisted(() => ({
  webhooksApi: { list: vi.fn(), create: vi.fn(), remove: vi.fn(), test: vi.fn(), deliveries: vi.fn(), enable: vi.fn() },
}));
vi.mock('../../api', () => api);

function delivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: 1,
    eventId: 'evt_1',
    type: 'lead.created',
    status: 'delivered',
    statusCode: 200,
    attempts: 1,
    nextAttemptAt: null,
    lastError: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    lastAttemptAt: '2026-11-20T10:00:00.000Z',
    deliveredAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

const ENDPOINT: WebhookEndpoint = {
  id: 4,
  url: 'https://hooks.example.com/botsmith',
  events: ['lead.created', 'bot.budget_reached'],
  createdAt: '2026-11-19T10:00:00.000Z',
  lastDelivery: delivery({ status: 'failed', statusCode: 500 }),
  failingSince: null,
  disabledAt: null,
};

const failure = (status = 500, code = 'INTERNAL_ERROR', message = 'boom') =>
  Promise.reject(new ApiError(status, code as never, message, true));

describe('IntegrationsTab', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    api.webhooksApi.list.mockResolvedValue({ webhooks: [ENDPOINT] });
    api.webhooksApi.deliveries.mockResolvedValue({ deliveries: [] });
  });

  it('shows loading, then the endpoints with their events and latest delivery', async () => {
    renderAtDashboard(<IntegrationsTab />);
    expect(screen.getByLabelText('Loading webhooks')).toBeInTheDocument();
    const item = await screen.findByRole('listitem', { name: ENDPOINT.url });
    expect(within(item).getByText('lead.created')).toBeInTheDocument();
    expect(within(item).getByText('bot.budget_reached')).toBeInTheDocument();
    expect(within(item).getByText(/Last delivery: Failed \(HTTP 500\)/)).toBeInTheDocument();
  });

  it('says so when there is no endpoint yet', async () => {
    api.webhooksApi.list.mockResolvedValue({ webhooks: [] });
    renderAtDashboard(<IntegrationsTab />);
    expect(await screen.findByText('No endpoints yet. Add one below.')).toBeInTheDocument();
  });

  it('shows an error with Retry when the list cannot be read', async () => {
    api.webhooksApi.list.mockImplementationOnce(() => failure());
    const user = userEvent.setup();
    renderAtDashboard(<IntegrationsTab />);
    expect(await screen.findByText('Error fetching your webhooks.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('listitem', { name: ENDPOINT.url })).toBeInTheDocument();
  });

  it('adds an endpoint and shows its secret once, with a Copy button', async () => {
    api.webhooksApi.create.mockResolvedValue({ webhook: { ...ENDPOINT, id: 5 }, secret: 'whsec_shown_once' });
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderAtDashboard(<IntegrationsTab />);
    const form = await screen.findByRole('form', { name: 'Add endpoint' });
    const add = within(form).getByRole('button', { name: 'Add endpoint' });
    expect(add).toBeDisabled();
    await user.type(within(form).getByLabelText('Endpoint URL'), ' https://crm.example.com/in ');
    expect(add).toBeDisabled();
    await user.click(within(form).getByRole('checkbox', { name: /cannot answer/ }));
    await user.click(within(form).getByRole('checkbox', { name: /contact details/ }));
    await user.click(add);

    expect(api.webhooksApi.create).toHaveBeenCalledWith('https://crm.example.com/in', [
      'lead.created',
      'conversation.unanswered',
    ]);
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_shown_once');
    expect(api.webhooksApi.list).toHaveBeenCalledTimes(2);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('whsec_shown_once');
    expect(await screen.findByText('Signing secret copied to clipboard!')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('webhook-secret')).not.toBeInTheDocument();
    expect(within(form).getByLabelText('Endpoint URL')).toHaveValue('');
  });

  it("shows the server's reason when an address is refused", async () => {
    api.webhooksApi.create.mockImplementation(() =>
      failure(422, 'URL_NOT_ALLOWED', 'This address points to a private network and cannot receive webhooks.'),
    );
    const user = userEvent.setup();
    renderAtDashboard(<IntegrationsTab />);
    const form = await screen.findByRole('form', { name: 'Add endpoint' });
    await user.type(within(form).getByLabelText('Endpoint URL'), 'https://10.0.0.1/');
    await user.click(within(form).getByRole('checkbox', { name: /monthly budget/ }));
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(
      await screen.findByText('This address points to a private network and cannot receive webhooks.'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('webhook-secret')).not.toBeInTheDocument();
    // One error, on the field it is about: no banner and no pop-up beside it (issue 27).
    const field = within(form).getByLabelText('Endpoint URL');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('This address points to a private network and cannot receive webhooks.');
    expect(screen.getAllByText('This address points to a private network and cannot receive webhooks.')).toHaveLength(
      1,
    );
    expect(screen.queryByText('Error adding the endpoint.')).not.toBeInTheDocument();
  });

  it('shows a refusal that is not about the address once, in the form', async () => {
    api.webhooksApi.create.mockImplementation(() =>
      failure(409, 'WEBHOOK_LIMIT_REACHED', 'You have 10 endpoints, the most allowed.'),
    );
    const user = userEvent.setup();
    renderAtDashboard(<IntegrationsTab />);
    const form = await screen.findByRole('form', { name: 'Add endpoint' });
    await user.type(within(form).getByLabelText('Endpoint URL'), 'https://hooks.example.com/');
    await user.click(within(form).getByRole('checkbox', { name: /monthly budget/ }));
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(form).findByText('You have 10 endpoints, the most allowed.')).toBeInTheDocument();
    expect(screen.getAllByText('You have 10 endpoints, the most allowed.')).toHaveLength(1);
    expect(within(form).getByLabelText('Endpoint URL')).toHaveAttribute('aria-invalid', 'false');
  });

  it('offers no form at the endpoint limit', async () => {
    api.webhooksApi.list.mockResolvedValue({
      webhooks: Array.from({ length: 10 }, (_, i) => ({ ...ENDPOINT, id: i + 1, url: `https://h${i}.example/` })),
    });
    renderAtDashboard(<IntegrationsTab />);
    expect(await screen.findByText('You have 10 endpoints, the most allowed.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add endpoint' })).not.toBeInTheDocument();
  });

  it('deletes an endpoint only after confirming', async () => {
    api.webhooksApi.remove.mockResolvedValue({});
    const user = userEvent.setup();
    renderAtDashboard(<IntegrationsTab />);
    const item = await screen.findByRole('listitem', { name: ENDPOINT.url });
    await user.click(within(item).getByRole('button', { name: 'Delete' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.webhooksApi.remove).not.toHaveBeenCalled();

    await user.click(within(item).getByRole('button', { name: 'Delete' }));
    api.webhooksApi.list.mockResolvedValue({ webhooks: [] });
    await user.click(await screen.findByRole('button', { name: 'Delete endpoint' }));
    expect(api.webhooksApi.remove).toHaveBeenCalledWith(ENDPOINT.id);
    expect(await screen.findByText('Endpoint deleted.')).toBeInTheDocument();
    expect(await screen.findByText('No endpoints yet. Add one below.')).toBeInTheDocument();
  });

  it('sends a test event and tells how it went', async () => {
    api.webhooksApi.test.mockResolvedValueOnce({ delivery: delivery({ type: 'webhook.test' }) }).mockResolvedValueOnce({
      delivery: delivery({ status: 'failed', statusCode: 404, lastError: 'The endpoint answered HTTP 404.' }),
    });
    const user = userEvent.setup();
    renderAtDashboard(<IntegrationsTab />);
    const item = await screen.findByRole('listitem', { name: ENDPOINT.url });
    await user.click(within(item).getByRole('button', { name: 'Send test' }));
    expect(api.webhooksApi.test).toHaveBeenCalledWith(ENDPOINT.id);
    expect(await screen.findByText('Test event delivered (HTTP 200).')).toBeInTheDocument();
    await user.click(within(item).getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText('Test event failed: The endpoint answered HTTP 404.')).toBeInTheDocument();
  });

  it('shows the delivery log with status codes, attempts and errors', async () => {
    api.webhooksApi.deliveries.mockResolvedValue({
      deliveries: [
        delivery({
          id: 2,
          type: 'conversation.unanswered',
          status: 'pending',
          statusCode: 500,
          attempts: 2,
          nextAttemptAt: '2026-11-20T10:06:00.000Z',
          lastError: 'The endpoint answered HTTP 500.',
        }),
        delivery({ id: 1 }),
      ],
    });
    const user = userEvent.setup();
    renderAtDashboard(<IntegrationsTab />);
    const item = await screen.findByRole('listitem', { name: ENDPOINT.url });
    await user.click(within(item).getByRole('button', { name: 'Deliveries' }));
    const table = await within(item).findByRole('table', { name: 'Deliveries' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('conversation.unanswered');
    expect(rows[0]).toHaveTextContent('Retrying');
    expect(rows[0]).toHaveTextContent('500');
    expect(rows[0]).toHaveTextContent('The endpoint answered HTTP 500.');
    expect(rows[1]).toHaveTextContent('Delivered');
    expect(rows[1]).toHaveTextContent('200');
    expect(api.webhooksApi.deliveries).toHaveBeenCalledWith(ENDPOINT.id);
  });

  it('says when nothing was sent yet, and when the log cannot be read', async () => {
    const user = userEvent.setup();
    renderAtDashboard(<IntegrationsTab />);
    const item = await screen.findByRole('listitem', { name: ENDPOINT.url });
    await user.click(within(item).getByRole('button', { name: 'Deliveries' }));
    expect(await within(item).findByText('Nothing sent to this endpoint yet.')).toBeInTheDocument();
    await user.click(within(item).getByRole('button', { name: 'Hide deliveries' }));
    api.webhooksApi.deliveries.mockImplementation(() => failure());
    await user.click(within(item).getByRole('button', { name: 'Deliveries' }));
    await waitFor(() => expect(within(item).getByText('Error fetching the deliveries.')).toBeInTheDocument());
  });

  it('shows an endpoint disabled after failing for days, with a button that enables it again', async () => {
    const disabled: WebhookEndpoint = {
      ...ENDPOINT,
      failingSince: '2026-11-17T10:00:00.000Z',
      disabledAt: '2026-11-20T10:01:00.000Z',
    };
    api.webhooksApi.list.mockResolvedValue({ webhooks: [disabled] });
    api.webhooksApi.enable.mockResolvedValue({ webhook: { ...ENDPOINT } });
    const user = userEvent.setup();
    renderAtDashboard(<IntegrationsTab />);
    const item = await screen.findByRole('listitem', { name: ENDPOINT.url });
    expect(within(item).getByText('Disabled')).toBeInTheDocument();
    expect(
      within(item).getByText(/every delivery failed for 3\s+days\. Nothing is sent to it until you enable it again/),
    ).toBeInTheDocument();

    api.webhooksApi.list.mockResolvedValue({ webhooks: [ENDPOINT] });
    await user.click(within(item).getByRole('button', { name: 'Enable' }));
    expect(api.webhooksApi.enable).toHaveBeenCalledWith(ENDPOINT.id);
    expect(await screen.findByText('Endpoint enabled. Deliveries to it start again.')).toBeInTheDocument();
    await waitFor(() => expect(within(item).queryByText('Disabled')).not.toBeInTheDocument());
    expect(within(item).queryByRole('button', { name: 'Enable' })).not.toBeInTheDocument();
    expect(api.webhooksApi.list).toHaveBeenCalledTimes(2);
  });

  it('says when an endpoint is failing but not yet disabled, and offers no Enable button', async () => {
    api.webhooksApi.list.mockResolvedValue({ webhooks: [{ ...ENDPOINT, failingSince: '2026-11-19T10:00:00.000Z' }] });
    renderAtDashboard(<IntegrationsTab />);
    const item = await screen.findByRole('listitem', { name: ENDPOINT.url });
    expect(within(item).getByText(/^Failing since .*After 3 days of failures it is disabled\.$/)).toBeInTheDocument();
    expect(within(item).queryByRole('button', { name: 'Enable' })).not.toBeInTheDocument();
  });

  it("shows the server's reason when enabling fails", async () => {
    api.webhooksApi.list.mockResolvedValue({ webhooks: [{ ...ENDPOINT, disabledAt: '2026-11-20T10:01:00.000Z' }] });
    api.webhooksApi.enable.mockImplementation(() => failure(404, 'WEBHOOK_NOT_FOUND', 'Webhook not found.'));
    const user = userEvent.setup();
    renderAtDashboard(<IntegrationsTab />);
    const item = await screen.findByRole('listitem', { name: ENDPOINT.url });
    await user.click(within(item).getByRole('button', { name: 'Enable' }));
    expect(await screen.findByText('Webhook not found.')).toBeInTheDocument();
    expect(within(item).getByText('Disabled')).toBeInTheDocument();
  });
});
