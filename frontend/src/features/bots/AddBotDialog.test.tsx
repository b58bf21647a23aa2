import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { renderAtDashboard } from '../../test/render';
import { AddBotDialog } from './AddBotDialog';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const api = vi.hoisted(() => ({ botsApi: { create: vi.fn() } }));
vi.mock('../../api', () => api);
vi.mock('../../analytics/analytics', () => ({ track: vi.fn() }));

const LIMIT_SENTENCE = 'An account can have at most 50 bots. Delete a bot you no longer use to create another.';

function renderDialog() {
  const onClose = vi.fn();
  const onCreated = vi.fn();
  renderAtDashboard(<AddBotDialog open onClose={onClose} onCreated={onCreated} />);
  return { onClose, onCreated };
}

describe('AddBotDialog', () => {
  beforeEach(() => {
    vi.resetAllMocks();
  });

  it("shows the server's sentence when the account holds as many bots as it may, and keeps the dialog and the name", async () => {
    api.botsApi.create.mockRejectedValueOnce(new ApiError(409, 'BOT_LIMIT_REACHED', LIMIT_SENTENCE, true));
    const { onClose, onCreated } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Add New Bot' });
    await userEvent.type(within(dialog).getByLabelText(/Bot Name/), 'Fifty-first');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Bot' }));

    expect(await within(dialog).findByText(LIMIT_SENTENCE)).toBeInTheDocument();
    expect(api.botsApi.create).toHaveBeenCalledWith('Fifty-first');
    expect(onCreated).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(within(dialog).getByLabelText(/Bot Name/)).toHaveValue('Fifty-first');
    expect(screen.queryByText('Fifty-first created successfully!')).toBeNull();
  });

  it('creates the bot when the server accepts it', async () => {
    api.botsApi.create.mockResolvedValueOnce({ bot: { id: 9, name: 'Helper' } });
    const { onCreated } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Add New Bot' });
    await userEvent.type(within(dialog).getByLabelText(/Bot Name/), 'Helper');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Bot' }));
    expect(await screen.findByText('Helper created successfully!')).toBeInTheDocument();
    expect(onCreated).toHaveBeenCalledWith({ id: 9, name: 'Helper' });
  });
});
