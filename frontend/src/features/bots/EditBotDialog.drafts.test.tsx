import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BotResponse } from '../../api/types';
import { api } from '../../test/apiMock';
import { answerEditBotDialogLoads, openTab, renderEditBotDialog } from '../../test/editBotDialog';
import { makeBot } from '../../test/fixtures';
import { stubScreen } from '../../test/stubs';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

vi.mock('../../api', () => import('../../test/apiMock').then((m) => m.api));
vi.mock('../usage/BotUsageTab', () => ({ BotUsageTab: () => <p>Usage panel</p> }));

function beforeUnload(): Event {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event;
}

describe('EditBotDialog: one state for every tab', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    answerEditBotDialogLoads();
    stubScreen('phone');
  });

  it('keeps an unsaved greeting while the owner visits Styling and Prompting, and marks its tab', async () => {
    renderEditBotDialog(makeBot({ customGreeting: 'Hello' }));
    fireEvent.change(await screen.findByLabelText('Custom greeting'), { target: { value: 'Welcome back!' } });
    expect(screen.getByRole('tab', { name: 'Details (unsaved changes)' })).toBeInTheDocument();

    await openTab(/^Styling/);
    fireEvent.change(await screen.findByLabelText('Placeholder text'), { target: { value: 'Ask me' } });
    await openTab(/^Prompting/);
    await openTab(/^Details/);
    expect(screen.getByLabelText('Custom greeting')).toHaveValue('Welcome back!');
    await openTab(/^Styling/);
    expect(await screen.findByLabelText('Placeholder text')).toHaveValue('Ask me');
    expect(screen.getByRole('tab', { name: 'Styling (unsaved changes)' })).toBeInTheDocument();
    expect(api.botsApi.update).not.toHaveBeenCalled();
  });

  it('asks before ✕ discards edits: Keep editing keeps them, Discard changes closes', async () => {
    const { onClose } = renderEditBotDialog();
    fireEvent.change(await screen.findByLabelText('Custom greeting'), { target: { value: 'Changed' } });
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));

    const ask = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    expect(within(ask).getByText(/Your changes in Details are not saved/)).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    await userEvent.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard unsaved changes?' })).toBeNull());
    expect(screen.getByLabelText('Custom greeting')).toHaveValue('Changed');
    expect(onClose).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Discard changes' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(api.botsApi.update).not.toHaveBeenCalled();
  });

  it('asks on Escape too, naming every tab with edits', async () => {
    const { onClose } = renderEditBotDialog();
    fireEvent.change(await screen.findByLabelText('Custom greeting'), { target: { value: 'Changed' } });
    await openTab(/^Styling/);
    fireEvent.change(await screen.findByLabelText('Placeholder text'), { target: { value: 'Ask me' } });
    await userEvent.keyboard('{Escape}');
    const ask = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    expect(within(ask).getByText(/Your changes in Details and Styling are not saved/)).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes at once without edits, and with none left once they are saved', async () => {
    const bot = makeBot({ customGreeting: 'Hello' });
    api.botsApi.update.mockImplementation((_id: number, changes: Partial<BotResponse>) =>
      Promise.resolve({ bot: { ...bot, ...changes } }),
    );
    const { onClose } = renderEditBotDialog(bot);
    fireEvent.change(await screen.findByLabelText('Custom greeting'), { target: { value: 'Saved now' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));
    expect(await screen.findByText('Bot details updated successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Details' })).toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Discard unsaved changes?' })).toBeNull();
  });

  it('an edit undone by hand is no longer unsaved', async () => {
    const { onClose } = renderEditBotDialog(makeBot({ customGreeting: 'Hello' }));
    const greeting = await screen.findByLabelText('Custom greeting');
    fireEvent.change(greeting, { target: { value: 'Hello!' } });
    expect(screen.getByRole('tab', { name: 'Details (unsaved changes)' })).toBeInTheDocument();
    fireEvent.change(greeting, { target: { value: 'Hello' } });
    expect(screen.getByRole('tab', { name: 'Details' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('has the browser ask before leaving the page while edits are unsaved, and not otherwise', async () => {
    renderEditBotDialog();
    await screen.findByLabelText('Custom greeting');
    expect(beforeUnload().defaultPrevented).toBe(false);
    fireEvent.change(screen.getByLabelText('Custom greeting'), { target: { value: 'Changed' } });
    expect(beforeUnload().defaultPrevented).toBe(true);
  });
});
