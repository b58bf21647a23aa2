import { configure, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SourceResponse } from '../../api/types';
import { api } from '../../test/apiMock';
import { knowledgeSource } from '../../test/fixtures';
import { chooseFromAddMenu } from '../../test/interactions';
import { renderAtDashboard } from '../../test/render';
import { refusal } from '../../test/stubs';
import { KnowledgeSection } from './KnowledgeSection';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

vi.mock('../../api', () => import('../../test/apiMock').then((m) => m.api));

const ACCOUNT_FULL =
  "Your account's sources can hold 500 MB in all, across every bot. Delete a source or add a smaller one.";
const EMBEDDING_WAITS =
  "Your account reached today's limit of passages made searchable by meaning. This source answers by keyword search until the rest are done, from 00:00 UTC.";

/** A written answer of 40 passages. */
const source = (over: Partial<SourceResponse> = {}) =>
  knowledgeSource({ kind: 'text', name: 'Opening hours', pages: null, chunks: 40, bytes: 30_000, ...over });

const accountFull = () => refusal(413, ACCOUNT_FULL, 'ACCOUNT_SOURCES_QUOTA_EXCEEDED');

let user: UserEvent;

const openAdd = (item: RegExp) => chooseFromAddMenu(user, item);

describe('the account quotas where the owner meets them (docs/product.md#quotas)', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    user = userEvent.setup({ delay: null, applyAccept: false });
  });

  it("a file past the account's source bytes: the dialog lists it with the server's sentence, nothing is added", async () => {
    api.knowledgeApi.list.mockResolvedValue({ sources: [] });
    api.knowledgeApi.addFile.mockImplementationOnce(accountFull);
    renderAtDashboard(<KnowledgeSection botId={7} />);
    await screen.findByText('No knowledge yet');
    await openAdd(/Files/);
    const dialog = await screen.findByRole('dialog', { name: 'Add files' });
    await user.upload(within(dialog).getByTestId('knowledge-file-input'), new File(['# Menu'], 'menu.md'));
    expect(await within(dialog).findByText(`menu.md: ${ACCOUNT_FULL}`)).toBeInTheDocument();
    expect(screen.queryByText('“menu.md” added.')).toBeNull();
  });

  it("a written answer past the account's source bytes: the sentence under the form, what was typed kept", async () => {
    api.knowledgeApi.list.mockResolvedValue({ sources: [] });
    api.knowledgeApi.addText.mockImplementationOnce(accountFull);
    renderAtDashboard(<KnowledgeSection botId={7} />);
    await screen.findByText('No knowledge yet');
    await openAdd(/Written answer/);
    const dialog = await screen.findByRole('dialog', { name: 'Add a written answer' });
    await user.type(within(dialog).getByLabelText('Question'), 'Prices');
    await user.type(within(dialog).getByLabelText('Answer'), 'Coffee is 3 euros.');
    await user.click(within(dialog).getByRole('button', { name: 'Add answer' }));
    expect(await within(dialog).findByText(ACCOUNT_FULL)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Question')).toHaveValue('Prices');
    expect(screen.queryByText('“Prices” added.')).toBeNull();
  });

  it('a ready source whose embedding waits for the daily quota says so under its name; one without a notice says nothing', async () => {
    api.knowledgeApi.list.mockResolvedValue({
      sources: [
        source({ embedded: 12, notice: EMBEDDING_WAITS }),
        source({ id: 2, name: 'Menu', embedded: 40, chunks: 40 }),
      ],
    });
    renderAtDashboard(<KnowledgeSection botId={7} />);
    const waiting = await screen.findByRole('listitem', { name: 'Opening hours' });
    expect(within(waiting).getByText(EMBEDDING_WAITS)).toBeInTheDocument();
    expect(within(waiting).getByText(/12 of 40 searchable by meaning/)).toBeInTheDocument();
    const done = screen.getByRole('listitem', { name: 'Menu' });
    expect(within(done).queryByText(EMBEDDING_WAITS)).toBeNull();
  });
});
