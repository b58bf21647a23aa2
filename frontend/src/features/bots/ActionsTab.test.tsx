import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACTION_TEMPLATES, type BotAction } from '@botsmith/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { renderAtDashboard } from '../../test/render';
import { ActionsTab } from './ActionsTab';

const api = vi.hoisted(() => ({
  actionsApi: { list: vi.fn(), stats: vi.fn(), create: vi.fn(), update: vi.fn(), remove: vi.fn(), test: vi.fn() },
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
  visitorMatch: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

describe('ActionsTab', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    api.actionsApi.list.mockResolvedValue({ actions: [ACTION] });
    api.actionsApi.stats.mockResolvedValue({ days: 30, stats: [] });
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

  it('sets the owner check (pointer and the visitor field it must equal), says it needs verified visitors; none sends null', async () => {
    api.actionsApi.update.mockResolvedValue({ action: ACTION });
    const user = userEvent.setup();
    renderAtDashboard(<ActionsTab botId={7} />);
    const item = await screen.findByRole('listitem', { name: 'order_status' });
    await user.click(within(item).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit order_status' });
    const section = within(form).getByRole('region', { name: 'Answer must belong to the visitor' });
    const pointer = within(section).getByLabelText('Owner in the answer (JSON pointer)');
    expect(pointer).toHaveValue('');
    await user.click(pointer);
    await user.paste('/customer/id');
    await user.click(within(section).getByRole('combobox', { name: 'Must equal' }));
    await user.click(await screen.findByRole('option', { name: "The visitor's id (sub)" }));
    await user.click(within(form).getByRole('checkbox', { name: 'Only for verified visitors' }));
    expect(within(section).getByText('Needs "Only for verified visitors"')).toBeInTheDocument();
    await user.click(within(form).getByRole('checkbox', { name: 'Only for verified visitors' }));
    await user.click(within(form).getByRole('button', { name: 'Save action' }));
    await waitFor(() => expect(api.actionsApi.update).toHaveBeenCalledTimes(1));
    expect(api.actionsApi.update).toHaveBeenLastCalledWith(
      7,
      3,
      expect.objectContaining({
        requiresVerifiedVisitor: true,
        visitorMatch: { pointer: '/customer/id', field: 'sub' },
      }),
    );

    await user.click(
      await within(await screen.findByRole('listitem', { name: 'order_status' })).findByRole('button', {
        name: 'Edit',
      }),
    );
    const again = screen.getByRole('form', { name: 'Edit order_status' });
    await user.click(within(again).getByRole('button', { name: 'Save action' }));
    await waitFor(() => expect(api.actionsApi.update).toHaveBeenCalledTimes(2));
    expect(api.actionsApi.update).toHaveBeenLastCalledWith(7, 3, expect.objectContaining({ visitorMatch: null }));
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

  describe('counters', () => {
    it("shows each action's calls, failures and p95 time over the last 30 days", async () => {
      const second = { ...ACTION, id: 4, name: 'create_ticket' };
      const third = { ...ACTION, id: 5, name: 'book_meeting' };
      api.actionsApi.list.mockResolvedValue({ actions: [ACTION, second, third] });
      api.actionsApi.stats.mockResolvedValue({
        days: 30,
        stats: [
          { actionId: 3, calls: 1234, failures: 12, p95Ms: 1840 },
          { actionId: 4, calls: 1, failures: 0, p95Ms: 300 },
          { actionId: 5, calls: 0, failures: 0, p95Ms: null },
        ],
      });
      renderAtDashboard(<ActionsTab botId={7} />);
      const orders = await screen.findByRole('listitem', { name: 'order_status' });
      const ordersLine = await within(orders).findByLabelText('Calls');
      expect(ordersLine).toHaveTextContent('1,234 calls · 12 failed · p95 1,840 ms in the last 30 days');
      // Failures show in the theme's error colour (#c62828).
      expect(getComputedStyle(ordersLine).color).toBe('rgb(198, 40, 40)');
      const tickets = within(screen.getByRole('listitem', { name: 'create_ticket' })).getByLabelText('Calls');
      expect(tickets).toHaveTextContent('1 call · 0 failed · p95 300 ms in the last 30 days');
      expect(getComputedStyle(tickets).color).not.toBe('rgb(198, 40, 40)');
      expect(within(screen.getByRole('listitem', { name: 'book_meeting' })).getByLabelText('Calls')).toHaveTextContent(
        'No calls in the last 30 days',
      );
      expect(api.actionsApi.stats).toHaveBeenCalledWith(7, expect.any(AbortSignal));
    });

    it('still lists the actions when the counters cannot be read', async () => {
      api.actionsApi.stats.mockRejectedValue(new ApiError(500, 'INTERNAL_ERROR', 'Something went wrong.', true));
      renderAtDashboard(<ActionsTab botId={7} />);
      const item = await screen.findByRole('listitem', { name: 'order_status' });
      await waitFor(() => expect(api.actionsApi.stats).toHaveBeenCalled());
      expect(within(item).queryByLabelText('Calls')).not.toBeInTheDocument();
      expect(within(item).getByText('GET https://shop.example/api/orders/{order_id}')).toBeInTheDocument();
    });
  });

  describe('templates', () => {
    async function openForm() {
      api.actionsApi.list.mockResolvedValue({ actions: [] });
      const user = userEvent.setup();
      renderAtDashboard(<ActionsTab botId={7} />);
      await user.click(await screen.findByRole('button', { name: 'Add action' }));
      return { user, form: screen.getByRole('form', { name: 'New action' }) };
    }

    for (const template of ACTION_TEMPLATES) {
      it(`fills the form from "${template.label}"`, async () => {
        const { user, form } = await openForm();
        await user.click(within(form).getByRole('button', { name: 'Start from a template' }));
        await user.click(await screen.findByRole('menuitem', { name: template.label }));
        const { action } = template;
        expect(within(form).getByLabelText(/^Name/)).toHaveValue(action.name);
        expect(within(form).getByLabelText(/^Description/)).toHaveValue(action.description);
        expect(within(form).getByRole('combobox', { name: 'Method' })).toHaveTextContent(action.method);
        expect(within(form).getByLabelText(/^URL/)).toHaveValue(action.url);
        const parameters = within(form).getByLabelText<HTMLTextAreaElement>('Parameters (JSON Schema)');
        expect(JSON.parse(parameters.value)).toEqual(action.parameters);
        expect(within(form).getByLabelText('Headers')).toHaveValue(
          action.headers.map((header) => `${header.name}: ${header.value}`).join('\n'),
        );
        expect(within(form).getByLabelText('Visitor fields sent')).toHaveValue(action.visitorFields!.join(', '));
        expect(within(form).getByLabelText('Answer fields')).toHaveValue(action.answerFields.join('\n'));
        expect(within(form).getByRole('checkbox', { name: 'Only for verified visitors' })).toBeChecked();
        expect(within(form).getByLabelText('Owner in the answer (JSON pointer)')).toHaveValue(
          action.visitorMatch?.pointer ?? '',
        );
        // What the owner must still do is said, and the address placeholder is flagged on the URL.
        expect(within(form).getByLabelText('Template')).toHaveTextContent(template.hint);
        expect(within(form).getByText(`Replace ${template.urlPlaceholder} with your own address`)).toBeInTheDocument();
      });
    }

    it('refuses to save until the address placeholder is replaced and the key pasted, then sends the template', async () => {
      const template = ACTION_TEMPLATES.find((entry) => entry.id === 'woocommerce-order-status')!;
      api.actionsApi.create.mockResolvedValue({ action: ACTION });
      const { user, form } = await openForm();
      await user.click(within(form).getByRole('button', { name: 'Start from a template' }));
      await user.click(await screen.findByRole('menuitem', { name: 'Order status (WooCommerce)' }));
      const save = within(form).getByRole('button', { name: 'Add action' });
      await user.click(save);
      expect(
        within(form).getByText(
          'Replace {your-store} in the URL with your own address (the URL must be a real https:// address).',
        ),
      ).toBeInTheDocument();

      const url = within(form).getByLabelText(/^URL/);
      await user.clear(url);
      await user.click(url);
      await user.paste('https://shop.example.com/wp-json/wc/v3/orders/{order_id}');
      await user.click(save);
      expect(within(form).getByText('Paste your key after "Authorization: Basic".')).toBeInTheDocument();
      expect(api.actionsApi.create).not.toHaveBeenCalled();

      const headers = within(form).getByLabelText('Headers');
      await user.click(headers);
      await user.keyboard('{End}');
      await user.paste('Y2tfMTpjc18y');
      await user.click(save);
      await waitFor(() => expect(api.actionsApi.create).toHaveBeenCalledTimes(1));
      expect(api.actionsApi.create).toHaveBeenCalledWith(7, {
        ...template.action,
        url: 'https://shop.example.com/wp-json/wc/v3/orders/{order_id}',
        headers: [{ name: 'Authorization', value: 'Basic Y2tfMTpjc18y' }],
      });
    });
  });
});
