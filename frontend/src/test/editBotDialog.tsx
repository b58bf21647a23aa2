import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import type { BotResponse, CategoryResponse } from '../api/types';
import { EditBotDialog } from '../features/bots/EditBotDialog';
import { api } from './apiMock';
import { makeBot } from './fixtures';
import { renderAtDashboard } from './render';

/**
 * Test helper: what the edit-bot dialog reads as it opens, answered as for a bot with no mail
 * sent, no notification addresses, no knowledge and no identity secret. The test file mocks the API client with
 * `test/apiMock`.
 */
export function answerEditBotDialogLoads(): void {
  api.mailApi.usage.mockResolvedValue({ sentToday: 0, dailyLimit: 500, limitReached: false });
  api.mailApi.notifyEmails.mockResolvedValue({ addresses: [] });
  api.knowledgeApi.list.mockResolvedValue({ sources: [] });
  api.botsApi.identity.mockResolvedValue({ identity: { secretSet: false, refusedThisWeek: 0 } });
}

export interface EditBotDialogOptions {
  categories?: CategoryResponse[];
  onBotChanged?: () => void;
  onBotDeleted?: () => void;
}

/** Test helper: the edit-bot dialog open on `bot`, at /dashboard; returns the view and its callbacks. */
export function renderEditBotDialog(bot: BotResponse = makeBot(), options: EditBotDialogOptions = {}) {
  api.botsApi.get.mockResolvedValue({ bot });
  const onClose = vi.fn();
  const onBotChanged = options.onBotChanged ?? vi.fn();
  const onBotDeleted = options.onBotDeleted ?? vi.fn();
  const view = renderAtDashboard(
    <EditBotDialog
      botId={bot.id}
      categories={options.categories ?? []}
      onClose={onClose}
      onBotChanged={onBotChanged}
      onBotDeleted={onBotDeleted}
    />,
  );
  return { ...view, onClose, onBotChanged, onBotDeleted };
}

/** Opens the dialog's tab named `name` once it can be chosen (tabs wait for the bot to load). */
export async function openTab(name: string | RegExp): Promise<void> {
  const tab = await screen.findByRole('tab', { name });
  await waitFor(() => expect(tab).toBeEnabled());
  await userEvent.click(tab);
}
