import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import type { SourceResponse } from '../../api/types';
import { api } from '../../test/apiMock';
import { knowledgeSource as source } from '../../test/fixtures';
import { chooseFromAddMenu } from '../../test/interactions';
import { renderAtDashboard } from '../../test/render';
import { refusal } from '../../test/stubs';
import { KnowledgeSection } from './KnowledgeSection';
import { formatMoment, POLL_MS } from './knowledgeLimits';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

vi.mock('../../api', () => import('../../test/apiMock').then((m) => m.api));

const rowOf = (name: string) => screen.getByRole('listitem', { name });

let user: UserEvent;

const openAdd = (item: RegExp) => chooseFromAddMenu(user, item);

describe('KnowledgeSection', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    // The drop zone, not the browser's file picker, must refuse the wrong types here.
    user = userEvent.setup({ delay: null, applyAccept: false });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists each source with its kind, state, size, pages and passages, and a failure with its sentence', async () => {
    api.knowledgeApi.list.mockResolvedValue({
      sources: [
        source(),
        source({
          id: 2,
          kind: 'website',
          name: 'Acme Outdoor',
          pages: 24,
          chunks: 80,
          bytes: 0,
          url: 'https://acme.example/',
        }),
        source({ id: 3, kind: 'text', name: 'Opening hours', pages: null, chunks: 1, bytes: 120 }),
        source({
          id: 4,
          name: 'secret.pdf',
          status: 'failed',
          error: 'This PDF is protected by a password.',
          pages: null,
          chunks: 0,
          bytes: 2048,
        }),
      ],
    });
    renderAtDashboard(<KnowledgeSection botId={7} />);

    expect(screen.getByLabelText('Loading knowledge sources')).toBeInTheDocument();
    const menu = await screen.findByRole('listitem', { name: 'Menu.pdf' });
    expect(within(menu).getByText('Ready')).toBeInTheDocument();
    expect(within(menu).getByText(/1\.4 MB · 3 pages · 12 passages/)).toBeInTheDocument();

    const site = rowOf('Acme Outdoor');
    expect(within(site).getByRole('link', { name: 'https://acme.example/' })).toHaveAttribute(
      'rel',
      'noopener noreferrer',
    );
    expect(within(site).getByText(/24 pages · 80 passages/)).toBeInTheDocument();

    const text = rowOf('Opening hours');
    expect(within(text).getByText(/Written answer · 120 B · 1 passage$/)).toBeInTheDocument();
    expect(within(text).queryByRole('button', { name: 'Read Opening hours again' })).toBeNull();

    const failed = rowOf('secret.pdf');
    expect(within(failed).getByText('Failed')).toBeInTheDocument();
    expect(within(failed).getByText('This PDF is protected by a password.')).toBeInTheDocument();
    expect(api.knowledgeApi.list).toHaveBeenCalledWith(7, expect.any(AbortSignal));
  });

  it('says how many passages are searchable by meaning only when hybrid search is configured', async () => {
    api.knowledgeApi.list.mockResolvedValue({
      sources: [
        source({ embedded: 12 }),
        source({ id: 2, name: 'Wine list.pdf', chunks: 1_500, embedded: 400 }),
        source({ id: 3, name: 'Prices.csv', pages: null, chunks: 4, bytes: 300, embedded: null }),
        source({ id: 4, name: 'new.pdf', status: 'processing', pages: null, chunks: 0, bytes: 900, embedded: 0 }),
      ],
    });
    renderAtDashboard(<KnowledgeSection botId={7} />);

    const menu = await screen.findByRole('listitem', { name: 'Menu.pdf' });
    expect(within(menu).getByText(/3 pages · 12 passages · searchable by meaning$/)).toBeInTheDocument();
    expect(
      within(rowOf('Wine list.pdf')).getByText(/1,500 passages · 400 of 1,500 searchable by meaning$/),
    ).toBeInTheDocument();
    // Without an embeddings model (embedded null) and while processing, nothing is said about it.
    expect(within(rowOf('Prices.csv')).getByText(/300 B · 4 passages$/)).toBeInTheDocument();
    expect(within(rowOf('new.pdf')).queryByText(/meaning/)).toBeNull();
  });

  it('shows the empty state', async () => {
    api.knowledgeApi.list.mockResolvedValue({ sources: [] });
    renderAtDashboard(<KnowledgeSection botId={7} />);
    expect(await screen.findByText('No knowledge yet')).toBeInTheDocument();
  });

  it("shows the API's sentence when the list cannot be read, and retries", async () => {
    api.knowledgeApi.list.mockImplementationOnce(() => refusal(404, 'Bot not found.'));
    api.knowledgeApi.list.mockResolvedValue({ sources: [source()] });
    renderAtDashboard(<KnowledgeSection botId={7} />);
    expect(await screen.findByText('Bot not found.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('listitem', { name: 'Menu.pdf' })).toBeInTheDocument();
  });

  it('says a list that cannot be read without a sentence of its own could not be loaded', async () => {
    api.knowledgeApi.list.mockImplementation(() => Promise.reject(new ApiError(500, 'HTTP_500', 'x', false)));
    renderAtDashboard(<KnowledgeSection botId={7} />);
    expect(await screen.findByText('Error loading knowledge sources.')).toBeInTheDocument();
  });

  describe('while a source is processing', () => {
    // Only the clock is faked; Testing Library's own waits would stall on it, so these tests flush
    // the pending promises with the timers instead of waiting for elements.
    beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
    const settle = () => act(() => vi.advanceTimersByTimeAsync(0));

    it('reads the list again every two seconds and stops once none is processing', async () => {
      api.knowledgeApi.list
        .mockResolvedValueOnce({ sources: [source({ status: 'processing', pages: null, chunks: 0 })] })
        .mockResolvedValueOnce({ sources: [source({ status: 'processing', pages: null, chunks: 0 })] })
        .mockResolvedValue({ sources: [source()] });
      renderAtDashboard(<KnowledgeSection botId={7} />);
      await settle();
      const row = rowOf('Menu.pdf');
      expect(within(row).getByText('Processing')).toBeInTheDocument();
      expect(within(row).getByRole('progressbar', { name: 'Reading Menu.pdf' })).toBeInTheDocument();
      expect(within(row).getByRole('button', { name: 'Read Menu.pdf again' })).toBeDisabled();

      await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
      expect(api.knowledgeApi.list).toHaveBeenCalledTimes(2);
      await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
      expect(api.knowledgeApi.list).toHaveBeenCalledTimes(3);
      expect(within(rowOf('Menu.pdf')).getByText('Ready')).toBeInTheDocument();

      await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 5));
      expect(api.knowledgeApi.list).toHaveBeenCalledTimes(3);
    });

    it('stops when the section is closed', async () => {
      api.knowledgeApi.list.mockResolvedValue({ sources: [source({ status: 'processing' })] });
      const view = renderAtDashboard(<KnowledgeSection botId={7} />);
      await settle();
      expect(rowOf('Menu.pdf')).toBeInTheDocument();
      view.unmount();
      await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 5));
      expect(api.knowledgeApi.list).toHaveBeenCalledTimes(1);
    });

    it('keeps the list when a re-read fails, says so, and tries again', async () => {
      api.knowledgeApi.list
        .mockResolvedValueOnce({ sources: [source({ status: 'processing' })] })
        .mockImplementationOnce(() => Promise.reject(new ApiError(0, 'NETWORK_ERROR', 'offline', false)))
        .mockResolvedValue({ sources: [source()] });
      renderAtDashboard(<KnowledgeSection botId={7} />);
      await settle();
      expect(rowOf('Menu.pdf')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
      expect(screen.getByText('The list could not be refreshed; it may be out of date.')).toBeInTheDocument();
      expect(rowOf('Menu.pdf')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
      expect(within(rowOf('Menu.pdf')).getByText('Ready')).toBeInTheDocument();
      expect(screen.queryByText('The list could not be refreshed; it may be out of date.')).toBeNull();
    });
  });

  it('adds files from the drop zone with progress, and lists each refusal with its file', async () => {
    api.knowledgeApi.list.mockResolvedValue({ sources: [] });
    let finish: (value: unknown) => void = () => undefined;
    let report: (fraction: number) => void = () => undefined;
    api.knowledgeApi.addFile.mockImplementationOnce(
      (_bot: number, _file: File, options: { onProgress: (fraction: number) => void }) => {
        report = options.onProgress;
        return new Promise((resolve) => (finish = resolve));
      },
    );
    api.knowledgeApi.addFile.mockImplementationOnce(() =>
      refusal(415, 'This file type is not supported. Upload a PDF, Word (DOCX), text, Markdown, HTML or CSV file.'),
    );
    renderAtDashboard(<KnowledgeSection botId={7} />);
    await screen.findByText('No knowledge yet');
    await openAdd(/Files/);
    const dialog = await screen.findByRole('dialog', { name: 'Add files' });
    const input = within(dialog).getByTestId('knowledge-file-input');
    await user.upload(input, [
      new File(['# Hours'], 'hours.md', { type: 'text/markdown' }),
      new File(['a,b'], 'fake.csv', { type: 'text/csv' }),
      new File(['MZ'], 'tool.exe', { type: 'application/x-msdownload' }),
    ]);
    act(() => report(0.5));
    expect(await within(dialog).findByText('Uploading hours.md… 50%')).toBeInTheDocument();
    api.knowledgeApi.list.mockResolvedValue({ sources: [source({ name: 'hours.md', status: 'processing' })] });
    finish({ source: source({ name: 'hours.md', status: 'processing' }) });

    expect(await within(dialog).findByText(/^fake\.csv: This file type is not supported\./)).toBeInTheDocument();
    expect(within(dialog).getByText(/^tool\.exe: This file type is not supported\./)).toBeInTheDocument();
    expect(await screen.findByText('“hours.md” added.')).toBeInTheDocument();
    expect(api.knowledgeApi.addFile).toHaveBeenCalledTimes(2);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('listitem', { name: 'hours.md' })).toBeInTheDocument();
  });

  it('refuses a file over 10 MB before sending it', async () => {
    api.knowledgeApi.list.mockResolvedValue({ sources: [] });
    renderAtDashboard(<KnowledgeSection botId={7} />);
    await screen.findByText('No knowledge yet');
    await openAdd(/Files/);
    const dialog = await screen.findByRole('dialog', { name: 'Add files' });
    const big = new File(['x'], 'big.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    await user.upload(within(dialog).getByTestId('knowledge-file-input'), big);
    expect(
      await within(dialog).findByText('big.pdf: This file is too big. Keep each file under 10 MB.'),
    ).toBeInTheDocument();
    expect(api.knowledgeApi.addFile).not.toHaveBeenCalled();
  });

  it('adds a website with its page count (50 by default, at most 500) and shows the server refusal', async () => {
    api.knowledgeApi.list.mockResolvedValue({ sources: [] });
    api.knowledgeApi.addWebsite.mockImplementationOnce(() => refusal(403, 'You are not allowed to do that.'));
    api.knowledgeApi.addWebsite.mockResolvedValue({
      source: source({
        id: 5,
        kind: 'website',
        name: 'acme.example',
        status: 'processing',
        url: 'https://acme.example/',
      }),
    });
    renderAtDashboard(<KnowledgeSection botId={7} />);
    await screen.findByText('No knowledge yet');
    await openAdd(/Website/);
    const dialog = await screen.findByRole('dialog', { name: 'Add a website' });
    const pages = within(dialog).getByLabelText('Pages to read at most');
    expect(pages).toHaveValue('50');

    await user.type(within(dialog).getByLabelText('Website address'), 'acme.example');
    await user.clear(pages);
    await user.type(pages, '501');
    await user.click(within(dialog).getByRole('button', { name: 'Add website' }));
    expect(within(dialog).getByText('Enter a full web address starting with http:// or https://.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose a whole number of pages from 1 to 500.')).toBeInTheDocument();
    expect(api.knowledgeApi.addWebsite).not.toHaveBeenCalled();

    await user.clear(within(dialog).getByLabelText('Website address'));
    await user.type(within(dialog).getByLabelText('Website address'), '  https://acme.example/ ');
    await user.clear(pages);
    await user.type(pages, '120');
    await user.click(within(dialog).getByRole('button', { name: 'Add website' }));
    expect(await within(dialog).findByText('You are not allowed to do that.')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Add website' }));
    expect(await screen.findByText('“acme.example” added.')).toBeInTheDocument();
    expect(api.knowledgeApi.addWebsite).toHaveBeenLastCalledWith(7, 'https://acme.example/', 120, 'weekly');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add a website' })).toBeNull());
  });

  it('adds a written answer and shows the server refusal', async () => {
    api.knowledgeApi.list.mockResolvedValue({ sources: [] });
    api.knowledgeApi.addText.mockImplementationOnce(() => refusal(422, 'This text has no words to answer from.'));
    api.knowledgeApi.addText.mockResolvedValue({ source: source({ id: 6, kind: 'text', name: 'Opening hours' }) });
    renderAtDashboard(<KnowledgeSection botId={7} />);
    await screen.findByText('No knowledge yet');
    await openAdd(/Written answer/);
    const dialog = await screen.findByRole('dialog', { name: 'Add a written answer' });
    await user.click(within(dialog).getByRole('button', { name: 'Add answer' }));
    expect(within(dialog).getByText('Write the question.')).toBeInTheDocument();
    expect(within(dialog).getByText('Write the answer.')).toBeInTheDocument();
    expect(api.knowledgeApi.addText).not.toHaveBeenCalled();

    await user.type(within(dialog).getByLabelText('Question'), ' Opening hours ');
    await user.type(within(dialog).getByLabelText('Answer'), '!!!');
    await user.click(within(dialog).getByRole('button', { name: 'Add answer' }));
    expect(await within(dialog).findByText('This text has no words to answer from.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add answer' }));
    expect(await screen.findByText('“Opening hours” added.')).toBeInTheDocument();
    expect(api.knowledgeApi.addText).toHaveBeenLastCalledWith(7, 'Opening hours', '!!!');
  });

  it('deletes a source only after confirmation', async () => {
    api.knowledgeApi.list.mockResolvedValue({ sources: [source()] });
    api.knowledgeApi.remove.mockResolvedValue({});
    const onDeleted = vi.fn();
    renderAtDashboard(<KnowledgeSection botId={7} onDeleted={onDeleted} />);
    await user.click(await screen.findByRole('button', { name: 'Delete Menu.pdf' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete “Menu.pdf”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.knowledgeApi.remove).not.toHaveBeenCalled();

    await user.click(await screen.findByRole('button', { name: 'Delete Menu.pdf' }));
    api.knowledgeApi.list.mockResolvedValue({ sources: [] });
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete “Menu.pdf”?' })).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('“Menu.pdf” deleted.')).toBeInTheDocument();
    expect(api.knowledgeApi.remove).toHaveBeenCalledWith(7, 1);
    expect(onDeleted).toHaveBeenCalled();
    expect(await screen.findByText('No knowledge yet')).toBeInTheDocument();
  });

  it("reads a source again, and shows the API's refusal", async () => {
    api.knowledgeApi.list.mockResolvedValue({ sources: [source()] });
    api.knowledgeApi.refresh.mockImplementationOnce(() => refusal(409, 'Only a file or a website can be read again.'));
    api.knowledgeApi.refresh.mockResolvedValue({ source: source({ status: 'processing' }) });
    renderAtDashboard(<KnowledgeSection botId={7} />);
    await user.click(await screen.findByRole('button', { name: 'Read Menu.pdf again' }));
    expect(await screen.findByText('Only a file or a website can be read again.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Read Menu.pdf again' }));
    expect(await screen.findByText('Reading “Menu.pdf” again.')).toBeInTheDocument();
    expect(api.knowledgeApi.refresh).toHaveBeenLastCalledWith(7, 1);
  });
  it("shows the daily limits' sentences in the Add website dialog and on the read-again button", async () => {
    const websites = 'You can add up to 20 websites a day. Try again tomorrow.';
    const refreshes = 'You can ask for up to 50 sources to be read again a day. Try again tomorrow.';
    api.knowledgeApi.list.mockResolvedValue({ sources: [source()] });
    api.knowledgeApi.addWebsite.mockImplementation(() => refusal(429, websites));
    api.knowledgeApi.refresh.mockImplementation(() => refusal(429, refreshes));
    renderAtDashboard(<KnowledgeSection botId={7} />);
    await user.click(await screen.findByRole('button', { name: 'Read Menu.pdf again' }));
    expect(await screen.findByText(refreshes)).toBeInTheDocument();
    expect(screen.queryByText('Reading “Menu.pdf” again.')).toBeNull();

    await openAdd(/Website/);
    const dialog = await screen.findByRole('dialog', { name: 'Add a website' });
    await user.type(within(dialog).getByLabelText('Website address'), 'https://acme.example/');
    await user.click(within(dialog).getByRole('button', { name: 'Add website' }));
    expect(await within(dialog).findByText(websites)).toBeInTheDocument();
    // The dialog stays open with what was typed, and nothing was added.
    expect(within(dialog).getByLabelText('Website address')).toHaveValue('https://acme.example/');
    expect(screen.queryByText(/added\.$/)).toBeNull();
  });

  describe('how often a website is read again', () => {
    const site = (over: Partial<SourceResponse> = {}) =>
      source({
        id: 2,
        kind: 'website',
        name: 'Acme Outdoor',
        pages: 24,
        bytes: 0,
        url: 'https://acme.example/',
        refreshSchedule: 'weekly',
        lastRefreshedAt: '2026-11-23T12:00:00.000Z',
        nextRefreshAt: '2026-11-30T12:00:00.000Z',
        ...over,
      });

    it('is chosen when the website is added: weekly unless the owner picks daily or never', async () => {
      api.knowledgeApi.list.mockResolvedValue({ sources: [] });
      api.knowledgeApi.addWebsite.mockResolvedValue({ source: site({ status: 'processing' }) });
      renderAtDashboard(<KnowledgeSection botId={7} />);
      await screen.findByText('No knowledge yet');
      await openAdd(/Website/);
      const dialog = await screen.findByRole('dialog', { name: 'Add a website' });
      expect(within(dialog).getByRole('combobox', { name: 'Read again' })).toHaveTextContent('Weekly');
      await user.click(within(dialog).getByRole('combobox', { name: 'Read again' }));
      const options = await screen.findByRole('listbox');
      expect(
        within(options)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Weekly', 'Daily', 'Never']);
      await user.click(within(options).getByRole('option', { name: 'Never' }));
      await user.type(within(dialog).getByLabelText('Website address'), 'https://acme.example/');
      await user.click(within(dialog).getByRole('button', { name: 'Add website' }));
      await waitFor(() =>
        expect(api.knowledgeApi.addWebsite).toHaveBeenCalledWith(7, 'https://acme.example/', 50, 'off'),
      );
    });

    it('shows the next and last refresh on the row, changes the schedule with a PATCH, and shows a refusal', async () => {
      api.knowledgeApi.list.mockResolvedValue({ sources: [site(), source()] });
      api.knowledgeApi.setSchedule
        .mockImplementationOnce(() => refusal(409, 'Only a website can be read again on a schedule.'))
        .mockResolvedValue({ source: site({ refreshSchedule: 'off', nextRefreshAt: null }) });
      renderAtDashboard(<KnowledgeSection botId={7} />);

      const row = await screen.findByRole('listitem', { name: 'Acme Outdoor' });
      expect(
        within(row).getByText(
          `Next refresh: Nov 30, 2026 · Last refreshed: ${formatMoment('2026-11-23T12:00:00.000Z')}`,
        ),
      ).toBeInTheDocument();
      expect(within(row).getByRole('combobox', { name: 'Read again' })).toHaveTextContent('Weekly');
      // A file has no schedule.
      expect(within(rowOf('Menu.pdf')).queryByRole('combobox', { name: 'Read again' })).toBeNull();

      await user.click(within(row).getByRole('combobox', { name: 'Read again' }));
      await user.click(await screen.findByRole('option', { name: 'Never' }));
      expect(await screen.findByText('Only a website can be read again on a schedule.')).toBeInTheDocument();
      expect(api.knowledgeApi.setSchedule).toHaveBeenLastCalledWith(7, 2, 'off');
      // Refused: the row still says what the server holds.
      expect(within(row).getByRole('combobox', { name: 'Read again' })).toHaveTextContent('Weekly');

      await user.click(within(row).getByRole('combobox', { name: 'Read again' }));
      await user.click(await screen.findByRole('option', { name: 'Never' }));
      expect(await within(row).findByText(/^Not refreshed automatically · Last refreshed: /)).toBeInTheDocument();
      expect(within(row).getByRole('combobox', { name: 'Read again' })).toHaveTextContent('Never');
      expect(await screen.findByText('“Acme Outdoor” is no longer read again by itself.')).toBeInTheDocument();
      expect(api.knowledgeApi.setSchedule).toHaveBeenCalledTimes(2);
    });
  });
});
