import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BotAction } from '@botsmith/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { renderAtDashboard } from '../../test/render';
import { ActionsTab } from './ActionsTab';

const api = vi.hoisted(() => ({
  actionsApi: { list: vi.fn(), create: vi.fn(), update: vi.fn(), remove: vi.fn(), test: vi.fn() },
}));
vi.mock('../../api/actions', () => api);

const ACTION: BotAction = {
  id: 3,
  name: 'order_status',
  description: 'Look up the status of an order by its number',
  parameters: { type: 'object', properties: { order_id: { type: 'string', maxLength: 20 } }, required: ['order_id'] },
  method: 'GET',
  url: 'https://shop.example/api/orders/{order_id}',
  headers: [{ name: 'X-Api-Key', value: '••••' }],
  visitorFields: ['sub', 'email'],
  requiresVerifiedVisitor: true,
  timeoutMs: 8000,
  answerFields: ['/status'],
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

describe('ActionsTab', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    api.actionsApi.list.mockResolvedValue({ actions: [ACTION] });
  });

  it('lists the actions with their method and URL', async () => {
    renderAtDashboard(<ActionsTab botId={7} />);
    expect(screen.getByLabelText('Loading actions')).toBeInTheDocument();
    const item = await screen.findByRole('listitem', { name: 'order_status' });
    expect(within(item).getByText('GET https://shop.example/api/orders/{order_id}')).toBeInTheDocument();
    expect(api.actionsApi.list).toHaveBeenCalledWith(7, expect.any(AbortSignal));
  });

  it('adds an action from the form, with its header and answer fields', async () => {
    api.actionsApi.list.mockResolvedValue({ actions: [] });
    api.actionsApi.create.mockResolvedValue({ action: ACTION });
    const user = userEvent.setup();
    renderAtDashboard(<ActionsTab botId={7} />);
    await user.click(await screen.findByRole('button', { name: 'Add action' }));
    const form = screen.getByRole('form', { name: 'New action' });
    // Pasted, not typed: a keystroke per character makes the test slow for nothing.
    const fill = async (label: RegExp | string, text: string) => {
      const field = within(form).getByLabelText(label);
      await user.clear(field);
      await user.click(field);
      await user.paste(text);
    };
    await fill(/^Name/, 'order_status');
    await fill(/^Description/, 'Look up an order');
    await fill(/^URL/, 'https://shop.example/api/orders/{order_id}');
    await fill('Headers', 'X-Api-Key: sk_live_1');
    await user.click(within(form).getByRole('button', { name: 'Add action' }));
    await waitFor(() => expect(api.actionsApi.create).toHaveBeenCalledTimes(1));
    expect(api.actionsApi.create).toHaveBeenCalledWith(
      7,
      expect.objectContaining({
        name: 'order_status',
        description: 'Look up an order',
        method: 'GET',
        url: 'https://shop.example/api/orders/{order_id}',
        headers: [{ name: 'X-Api-Key', value: 'sk_live_1' }],
        visitorFields: ['sub', 'email'],
        requiresVerifiedVisitor: true,
        timeoutMs: 8000,
        answerFields: ['/status'],
      }),
    );
    await waitFor(() => expect(api.actionsApi.list).toHaveBeenCalledTimes(2));
  });

  it('keeps a stored header value when editing (the mask sends no value) and shows the server refusal', async () => {
    api.actionsApi.update.mockRejectedValueOnce(
      new ApiError(400, 'ACTION_INVALID', 'The URL has an unmatched { or }.', true),
    );
    const user = userEvent.setup();
    renderAtDashboard(<ActionsTab botId={7} />);
    const item = await screen.findByRole('listitem', { name: 'order_status' });
    await user.click(within(item).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit order_status' });
    expect(within(form).getByLabelText('Headers')).toHaveValue('X-Api-Key: ••••');
    await user.click(within(form).getByRole('button', { name: 'Save action' }));
    expect(await within(form).findByText('The URL has an unmatched { or }.')).toBeInTheDocument();
    expect(api.actionsApi.update).toHaveBeenCalledWith(
      7,
      3,
      expect.objectContaining({ headers: [{ name: 'X-Api-Key' }] }),
    );
  });

  it('runs a test and shows the status, the time, the request and the filtered answer', async () => {
    api.actionsApi.test.mockResolvedValue({
      result: {
        request: { method: 'GET', url: 'https://shop.example/api/orders/1042', headers: {}, body: null },
        status: 200,
        durationMs: 42,
        answer: '{"/status":"shipped"}',
        truncated: false,
        error: null,
      },
    });
    const user = userEvent.setup();
    renderAtDashboard(<ActionsTab botId={7} />);
    const item = await screen.findByRole('listitem', { name: 'order_status' });
    await user.click(within(item).getByRole('button', { name: 'Test' }));
    const panel = within(item).getByRole('form', { name: 'Test order_status' });
    const parameters = within(panel).getByLabelText('Test parameters (JSON)');
    await user.clear(parameters);
    await user.type(parameters, '{{"order_id": "1042"}');
    await user.type(within(panel).getByLabelText('Visitor id (sub)'), 'cust_7');
    await user.click(within(panel).getByRole('button', { name: 'Run test' }));
    expect(await within(panel).findByText('HTTP 200 in 42 ms')).toBeInTheDocument();
    expect(within(panel).getByText('GET https://shop.example/api/orders/1042')).toBeInTheDocument();
    expect(within(panel).getByText('{"/status":"shipped"}')).toBeInTheDocument();
    expect(api.actionsApi.test).toHaveBeenCalledWith(7, 3, {
      parameters: { order_id: '1042' },
      visitor: { sub: 'cust_7' },
    });
  });

  it('shows a failed run as a warning, not an error page', async () => {
    api.actionsApi.test.mockResolvedValue({
      result: {
        request: null,
        status: 500,
        durationMs: 12,
        answer: null,
        truncated: false,
        error: 'The API answered HTTP 500.',
      },
    });
    const user = userEvent.setup();
    renderAtDashboard(<ActionsTab botId={7} />);
    const item = await screen.findByRole('listitem', { name: 'order_status' });
    await user.click(within(item).getByRole('button', { name: 'Test' }));
    await user.click(within(item).getByRole('button', { name: 'Run test' }));
    expect(await within(item).findByText('The API answered HTTP 500.')).toBeInTheDocument();
    expect(within(item).getByText('HTTP 500 in 12 ms')).toBeInTheDocument();
  });
});
