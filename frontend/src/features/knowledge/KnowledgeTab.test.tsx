import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../test/apiMock';
import { knowledgeSource as source, makeBot } from '../../test/fixtures';
import { renderAtDashboard } from '../../test/render';
import { refusal } from '../../test/stubs';
import { KnowledgeTab } from './KnowledgeTab';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

vi.mock('../../api', () => import('../../test/apiMock').then((m) => m.api));

const SITE = source({
  id: 2,
  kind: 'website',
  name: 'acme.example',
  url: 'https://acme.example/',
  pages: 63,
  refreshSchedule: 'weekly',
});
const ANSWER = source({ id: 3, kind: 'text', name: 'When are you open?', pages: null, chunks: 1, bytes: 60 });
const CORRECTION = source({
  id: 4,
  kind: 'text',
  name: 'Is parking free?',
  pages: null,
  chunks: 1,
  bytes: 30,
  correction: true,
  question: 'Is parking free?',
});
const REFERENCE = source({ id: 5, name: 'Handbook.pdf', reference: true });

const page = (n: number, status: 'ready' | 'no_text' = 'ready') => ({
  url: `https://acme.example/p${n}`,
  title: `Page ${n}`,
  status,
  chunks: status === 'ready' ? 2 : 0,
  bytes: 100,
  readAt: '2026-11-20T10:00:00.000Z',
});

let user: UserEvent;

function renderTab(bot = makeBot({ id: 7 })) {
  const onSaved = vi.fn();
  renderAtDashboard(<KnowledgeTab bot={bot} onSaved={onSaved} />);
  return { onSaved };
}

describe('KnowledgeTab', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    user = userEvent.setup({ delay: null });
  });

  it('lists files (the reference document first and marked), websites, written answers and corrections under their headings', async () => {
    api.knowledgeApi.list.mockResolvedValue({ sources: [CORRECTION, ANSWER, SITE, source(), REFERENCE] });
    renderTab();
    const list = await screen.findByRole('list', { name: 'Knowledge sources' });
    const headings = within(list)
      .getAllByRole('heading')
      .map((heading) => heading.textContent);
    expect(headings).toEqual(['Files · 2', 'Websites · 1', 'Written answers · 1', 'Corrections · 1']);
    const rows = within(list)
      .getAllByRole('listitem')
      .map((row) => row.getAttribute('aria-label'));
    expect(rows).toEqual(['Handbook.pdf', 'Menu.pdf', 'acme.example', 'When are you open?', 'Is parking free?']);
    expect(
      within(screen.getByRole('listitem', { name: 'Handbook.pdf' })).getByText(/Reference document/),
    ).toBeVisible();
    expect(
      within(screen.getByRole('listitem', { name: 'Is parking free?' })).getByText(/Correction · asked/),
    ).toBeVisible();
    // Written answers and corrections can be edited; files and websites cannot.
    expect(screen.getByRole('button', { name: 'Edit When are you open?' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Edit Is parking free?' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Edit Menu.pdf' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit acme.example' })).toBeNull();
  });

  it('shows the empty state and, when the list cannot be read, the error with Retry', async () => {
    api.knowledgeApi.list.mockImplementationOnce(() => refusal(500, 'boom'));
    api.knowledgeApi.list.mockResolvedValue({ sources: [] });
    renderTab();
    expect(await screen.findByText('Error loading knowledge sources.')).toBeInTheDocument();
    expect(screen.queryByText('boom')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No knowledge yet')).toBeInTheDocument();
  });

  describe("a website's pages", () => {
    it('shows each page with its status, 50 at a time, loading the next page with the cursor', async () => {
      api.knowledgeApi.list.mockResolvedValue({ sources: [SITE] });
      let answer: (value: unknown) => void = () => undefined;
      api.knowledgeApi.pages.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
      api.knowledgeApi.pages.mockResolvedValueOnce({ pages: [page(51), page(52, 'no_text')], nextCursor: null });
      renderTab();
      const toggle = await screen.findByRole('button', { name: 'Show the pages of acme.example' });
      expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await user.click(toggle);
      expect(screen.getByLabelText('Loading the pages of acme.example')).toBeInTheDocument();
      answer({ pages: Array.from({ length: 50 }, (_, i) => page(i + 1)), nextCursor: 'next-1' });
      const list = await screen.findByRole('list', { name: 'Pages of acme.example' });
      expect(within(list).getAllByRole('listitem')).toHaveLength(50);
      expect(api.knowledgeApi.pages).toHaveBeenLastCalledWith(7, 2, null, expect.any(AbortSignal));

      await user.click(screen.getByRole('button', { name: 'Show more pages' }));
      await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(52));
      expect(api.knowledgeApi.pages).toHaveBeenLastCalledWith(7, 2, 'next-1', expect.any(AbortSignal));
      const empty = within(list).getAllByRole('listitem')[51];
      expect(within(empty).getByText('No text')).toBeInTheDocument();
      expect(within(empty).getByText(/Nothing to answer from/)).toBeInTheDocument();
      expect(within(within(list).getAllByRole('listitem')[0]).getByText('Read')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Show more pages' })).toBeNull();

      await user.click(screen.getByRole('button', { name: 'Hide the pages of acme.example' }));
      expect(screen.queryByRole('list', { name: 'Pages of acme.example' })).toBeNull();
    });

    it("says when none was read yet, and shows the API's sentence with Retry when they cannot be loaded", async () => {
      api.knowledgeApi.list.mockResolvedValue({ sources: [SITE] });
      api.knowledgeApi.pages.mockImplementationOnce(() => refusal(404, 'Source not found.'));
      api.knowledgeApi.pages.mockResolvedValueOnce({ pages: [], nextCursor: null });
      renderTab();
      await user.click(await screen.findByRole('button', { name: 'Show the pages of acme.example' }));
      expect(await screen.findByText('Source not found.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Retry' }));
      expect(await screen.findByText(/No pages read yet/)).toBeInTheDocument();
    });
  });

  describe('editing', () => {
    it('opens a written answer with its question and its text as written, and saves both', async () => {
      api.knowledgeApi.list.mockResolvedValue({ sources: [ANSWER] });
      api.knowledgeApi.text.mockResolvedValue({ text: 'Weekdays: nine to five.\nSaturdays: ten to one.' });
      api.knowledgeApi.updateText.mockImplementationOnce(() => refusal(413, 'This bot has no room left.'));
      api.knowledgeApi.updateText.mockResolvedValue({
        source: { ...ANSWER, name: 'What are your opening hours?' },
      });
      renderTab();
      await user.click(await screen.findByRole('button', { name: 'Edit When are you open?' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit written answer' });
      const question = await within(dialog).findByLabelText('Question');
      expect(question).toHaveValue('When are you open?');
      expect(within(dialog).getByLabelText('Answer')).toHaveValue('Weekdays: nine to five.\nSaturdays: ten to one.');
      expect(api.knowledgeApi.text).toHaveBeenCalledWith(7, 3, expect.any(AbortSignal));

      await user.clear(question);
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(within(dialog).getByText('Write the question.')).toBeInTheDocument();
      expect(api.knowledgeApi.updateText).not.toHaveBeenCalled();

      await user.type(question, '  What are your opening hours? ');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByText('This bot has no room left.')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('“What are your opening hours?” saved.')).toBeInTheDocument();
      expect(api.knowledgeApi.updateText).toHaveBeenLastCalledWith(
        7,
        3,
        'What are your opening hours?',
        'Weekdays: nine to five.\nSaturdays: ten to one.',
      );
      expect(await screen.findByRole('listitem', { name: 'What are your opening hours?' })).toBeInTheDocument();
      expect(api.knowledgeApi.updateCorrection).not.toHaveBeenCalled();
    });

    it('edits a correction through the corrections route', async () => {
      api.knowledgeApi.list.mockResolvedValue({ sources: [CORRECTION] });
      api.knowledgeApi.text.mockResolvedValue({ text: 'Parking costs two dollars.' });
      api.knowledgeApi.updateCorrection.mockResolvedValue({
        source: { ...CORRECTION, name: 'Can I park for free?', question: 'Can I park for free?' },
      });
      renderTab();
      await user.click(await screen.findByRole('button', { name: 'Edit Is parking free?' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit correction' });
      const answer = await within(dialog).findByLabelText('Answer');
      await user.clear(answer);
      await user.type(answer, 'Parking is free after six.');
      await user.clear(within(dialog).getByLabelText('Question'));
      await user.type(within(dialog).getByLabelText('Question'), 'Can I park for free?');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('“Can I park for free?” saved.')).toBeInTheDocument();
      expect(api.knowledgeApi.updateCorrection).toHaveBeenCalledWith(
        7,
        4,
        'Can I park for free?',
        'Parking is free after six.',
      );
      expect(api.knowledgeApi.updateText).not.toHaveBeenCalled();
    });

    it("shows the API's sentence with Retry when the answer cannot be loaded, and saves nothing", async () => {
      api.knowledgeApi.list.mockResolvedValue({ sources: [ANSWER] });
      api.knowledgeApi.text.mockImplementationOnce(() => refusal(404, 'Source not found.'));
      api.knowledgeApi.text.mockResolvedValue({ text: 'We open at nine.' });
      renderTab();
      await user.click(await screen.findByRole('button', { name: 'Edit When are you open?' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit written answer' });
      expect(await within(dialog).findByText('Source not found.')).toBeInTheDocument();
      expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
      await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
      expect(await within(dialog).findByLabelText('Answer')).toHaveValue('We open at nine.');
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit written answer' })).toBeNull());
      expect(api.knowledgeApi.updateText).not.toHaveBeenCalled();
    });
  });

  it('uploads the reference document from Add, as one of the sources, and reads the list again', async () => {
    api.knowledgeApi.list.mockResolvedValue({ sources: [] });
    api.uploadsApi.uploadDocument.mockResolvedValue({
      document: { originalName: 'handbook.pdf', filePath: '/uploads/documents/x.pdf' },
    });
    const { onSaved } = renderTab();
    await screen.findByText('No knowledge yet');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.click(await screen.findByRole('menuitem', { name: /Reference document/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reference document' });
    await user.upload(
      within(dialog).getByTestId('document-input'),
      new File(['%PDF-1.7'], 'handbook.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByText('Document uploaded successfully!')).toBeInTheDocument();
    expect(onSaved).toHaveBeenCalledWith(
      expect.objectContaining({ document: { originalName: 'handbook.pdf', filePath: '/uploads/documents/x.pdf' } }),
    );
    await waitFor(() => expect(api.knowledgeApi.list).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reference document' })).toBeNull());
  });
});
