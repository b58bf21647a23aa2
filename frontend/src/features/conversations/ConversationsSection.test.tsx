import type {
  ConversationSummary,
  ConversationTranscript,
  TranscriptActionCall,
  TranscriptMessage,
} from '@botsmith/contract';
import { configure, screen, waitFor, waitForElementToBeRemoved, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { makeBot } from '../../test/fixtures';
import { renderAtDashboard } from '../../test/render';
import { stubScreen } from '../../test/stubs';
import { ConversationsSection } from './ConversationsSection';
import { HANDOFF_REFRESH_MS } from './TranscriptPane';
import { UNVERIFIED_HINT, VERIFIED_HINT } from './IdentityMark';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const api = vi.hoisted(() => ({
  conversationsApi: {
    list: vi.fn(),
    get: vi.fn(),
    remove: vi.fn(),
    reply: vi.fn(),
    handBack: vi.fn(),
    exportFile: vi.fn(),
    unansweredQuestions: vi.fn(),
    correct: vi.fn(),
  },
  mailApi: { usage: vi.fn() },
}));
vi.mock('../../api', () => api);

const BOTS = [makeBot({ id: 1, name: 'Support Bot' }), makeBot({ id: 2, name: 'Sales Bot' })];

function summary(over: Partial<ConversationSummary> = {}): ConversationSummary {
  return {
    id: 11,
    botId: 1,
    botName: 'Support Bot',
    startedAt: '2026-11-20T10:00:00.000Z',
    lastMessageAt: '2026-11-20T10:02:00.000Z',
    messageCount: 4,
    preview: 'Do you ship to Norway?',
    pageUrl: 'https://shop.example/faq',
    unanswered: false,
    rating: null,
    handoff: false,
    visitorName: null,
    visitorEmail: null,
    visitorVerified: false,
    leadName: null,
    leadEmail: null,
    waiting: false,
    ...over,
  };
}

function message(over: Partial<TranscriptMessage>): TranscriptMessage {
  return {
    id: 1,
    role: 'user',
    content: '',
    createdAt: '2026-11-20T10:00:00.000Z',
    citations: [],
    rating: null,
    unanswered: false,
    ...over,
  };
}

const TRANSCRIPT: ConversationTranscript = {
  conversation: summary({ unanswered: true, rating: 'down' }),
  messages: [
    message({ id: 1, role: 'user', content: 'What are your opening hours?' }),
    message({
      id: 2,
      role: 'assistant',
      content: 'We open at 9.',
      citations: [{ sourceId: 5, name: 'Handbook.pdf', page: 3, url: 'https://shop.example/handbook.pdf' }],
      rating: 'up',
    }),
    message({ id: 3, role: 'user', content: 'Do you ship to Norway?' }),
    message({
      id: 4,
      role: 'assistant',
      content: "I'm sorry, I couldn't find that in what I know.",
      rating: 'down',
      unanswered: true,
    }),
  ],
  actionCalls: [],
};

const refusal = (status: number, message: string) => Promise.reject(new ApiError(status, 'ERROR', message, true));

let user: UserEvent;

function renderInbox(search = '') {
  return renderAtDashboard(<ConversationsSection bots={BOTS} />, `/dashboard/conversations${search}`);
}

const rows = () => within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('listitem');
const lastQuery = () => api.conversationsApi.list.mock.lastCall?.[0] as Record<string, unknown>;

describe('ConversationsSection', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    api.mailApi.usage.mockResolvedValue({ sentToday: 0, dailyLimit: 500, limitReached: false });
    stubScreen('desktop');
    user = userEvent.setup({ delay: null });
    api.conversationsApi.list.mockResolvedValue({
      conversations: [
        summary({ id: 11, unanswered: true, rating: 'down' }),
        summary({ id: 12, botId: 2, botName: 'Sales Bot', preview: 'Is there a discount?', messageCount: 1 }),
      ],
      nextCursor: null,
    });
    api.conversationsApi.get.mockResolvedValue(TRANSCRIPT);
  });

  describe('the daily e-mail limit', () => {
    it('is not mentioned below it, and said above it: replies stay in the inbox', async () => {
      renderInbox();
      await waitFor(() => expect(rows()).toHaveLength(2));
      expect(screen.queryByText(/daily e-mail limit/)).not.toBeInTheDocument();
    });

    it('says replies are kept but not e-mailed when the account reached it', async () => {
      api.mailApi.usage.mockResolvedValue({ sentToday: 500, dailyLimit: 500, limitReached: true });
      renderInbox();
      expect(
        await screen.findByText(
          'Your account reached its daily e-mail limit (500 e-mails). Your replies are kept here but not e-mailed until tomorrow (UTC).',
        ),
      ).toBeInTheDocument();
      await waitFor(() => expect(rows()).toHaveLength(2));
    });
  });

  describe('list', () => {
    it('shows each conversation with its bot, preview, message count and badges', async () => {
      renderInbox();
      expect(screen.getByRole('heading', { level: 1, name: 'Conversations' })).toBeInTheDocument();
      expect(screen.getByLabelText('Loading conversations')).toBeInTheDocument();
      await waitFor(() => expect(rows()).toHaveLength(2));
      const [first, second] = rows();
      expect(first).toHaveTextContent('Support Bot');
      expect(first).toHaveTextContent('Do you ship to Norway?');
      expect(first).toHaveTextContent('4 messages');
      expect(within(first).getByText('Unanswered')).toBeInTheDocument();
      expect(within(first).getByText('Thumbs down')).toBeInTheDocument();
      expect(second).toHaveTextContent('Sales Bot');
      expect(second).toHaveTextContent('1 message');
      expect(within(second).queryByText('Unanswered')).not.toBeInTheDocument();
      expect(within(second).queryByText('Thumbs down')).not.toBeInTheDocument();
      expect(api.conversationsApi.list).toHaveBeenCalledTimes(1);
      expect(lastQuery()).toEqual({ filter: 'all' });
    });

    it('says when there are no conversations, and when filters find none', async () => {
      api.conversationsApi.list.mockResolvedValue({ conversations: [], nextCursor: null });
      const view = renderInbox();
      expect(await screen.findByText('No conversations yet')).toBeInTheDocument();
      view.unmount();
      renderInbox('?filter=negative');
      expect(await screen.findByText('No conversations match')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled();
    });

    it('shows an error with Retry when the list cannot be fetched', async () => {
      api.conversationsApi.list.mockImplementationOnce(() => refusal(500, 'boom'));
      renderInbox();
      expect(await screen.findByText('Error fetching conversations.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Retry' }));
      await waitFor(() => expect(rows()).toHaveLength(2));
    });

    it('loads further pages through the cursor and lists them after the first', async () => {
      api.conversationsApi.list
        .mockResolvedValueOnce({ conversations: [summary({ id: 11 })], nextCursor: 'c1' })
        .mockResolvedValueOnce({
          // 11 moved down between the pages; it stays listed once.
          conversations: [summary({ id: 11 }), summary({ id: 13, preview: 'Third one' })],
          nextCursor: 'c2',
        })
        .mockResolvedValueOnce({ conversations: [summary({ id: 14, preview: 'Last one' })], nextCursor: null });
      renderInbox('?botId=1');
      await waitFor(() => expect(rows()).toHaveLength(1));
      await user.click(screen.getByRole('button', { name: 'Load more' }));
      await waitFor(() => expect(rows()).toHaveLength(2));
      expect(rows()[1]).toHaveTextContent('Third one');
      expect(api.conversationsApi.list).toHaveBeenLastCalledWith(
        { botId: 1, filter: 'all' },
        'c1',
        expect.any(AbortSignal),
      );
      await user.click(screen.getByRole('button', { name: 'Load more' }));
      await waitFor(() => expect(rows()).toHaveLength(3));
      expect(api.conversationsApi.list).toHaveBeenLastCalledWith(
        { botId: 1, filter: 'all' },
        'c2',
        expect.any(AbortSignal),
      );
      expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    });

    it('keeps the list when a further page fails, and says so', async () => {
      api.conversationsApi.list
        .mockResolvedValueOnce({ conversations: [summary({ id: 11 })], nextCursor: 'c1' })
        .mockImplementationOnce(() => refusal(500, 'boom'));
      renderInbox();
      await waitFor(() => expect(rows()).toHaveLength(1));
      await user.click(screen.getByRole('button', { name: 'Load more' }));
      expect(await screen.findByText('Error fetching more conversations.')).toBeInTheDocument();
      expect(rows()).toHaveLength(1);
      expect(screen.getByRole('button', { name: 'Load more' })).toBeEnabled();
    });
  });

  describe('filters', () => {
    it('searches once typing pauses, not on every keystroke', async () => {
      const { router } = renderInbox();
      await waitFor(() => expect(rows()).toHaveLength(2));
      await user.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'refund policy');
      await waitFor(() => expect(lastQuery()).toMatchObject({ q: 'refund policy' }));
      const searched = api.conversationsApi.list.mock.calls.map(([query]) => (query as { q?: string }).q);
      expect(searched).toEqual([undefined, 'refund policy']);
      expect(router.state.location.search).toBe('?q=refund+policy');
    });

    it('narrows by bot, by days and by the Unanswered and Thumbs down chips', async () => {
      const { router } = renderInbox();
      await waitFor(() => expect(rows()).toHaveLength(2));

      await user.click(screen.getByRole('combobox', { name: 'Bot' }));
      await user.click(await screen.findByRole('option', { name: 'Sales Bot' }));
      await waitFor(() => expect(lastQuery()).toEqual({ botId: 2, filter: 'all' }));

      await user.type(screen.getByLabelText('From'), '2026-11-01');
      await user.type(screen.getByLabelText('To'), '2026-11-20');
      await waitFor(() =>
        expect(lastQuery()).toEqual({
          botId: 2,
          filter: 'all',
          from: new Date('2026-11-01T00:00:00').toISOString(),
          // The server reads an instant `to` as "before": the 20th ends where the 21st starts.
          to: new Date('2026-11-21T00:00:00').toISOString(),
        }),
      );

      await user.click(screen.getByRole('button', { name: 'Unanswered' }));
      await waitFor(() => expect(lastQuery()).toMatchObject({ filter: 'unanswered' }));
      expect(screen.getByRole('button', { name: 'Unanswered' })).toHaveAttribute('aria-pressed', 'true');
      await user.click(screen.getByRole('button', { name: 'Thumbs down' }));
      await waitFor(() => expect(lastQuery()).toMatchObject({ filter: 'negative' }));
      expect(screen.getByRole('button', { name: 'Unanswered' })).toHaveAttribute('aria-pressed', 'false');
      expect(router.state.location.search).toBe('?botId=2&from=2026-11-01&to=2026-11-20&filter=negative');

      await user.click(screen.getByRole('button', { name: 'Clear filters' }));
      await waitFor(() => expect(lastQuery()).toEqual({ filter: 'all' }));
      expect(router.state.location.search).toBe('');
    });

    it('narrows to conversations that used an action, or where an action failed', async () => {
      const { router } = renderInbox();
      await waitFor(() => expect(rows()).toHaveLength(2));
      await user.click(screen.getByRole('button', { name: 'Used an action' }));
      await waitFor(() => expect(lastQuery()).toEqual({ filter: 'action' }));
      expect(screen.getByRole('button', { name: 'Used an action' })).toHaveAttribute('aria-pressed', 'true');
      expect(router.state.location.search).toBe('?filter=action');
      await user.click(screen.getByRole('button', { name: 'Action failed' }));
      await waitFor(() => expect(lastQuery()).toEqual({ filter: 'action_failed' }));
      expect(screen.getByRole('button', { name: 'Used an action' })).toHaveAttribute('aria-pressed', 'false');
      expect(screen.getByRole('button', { name: 'Action failed' })).toHaveAttribute('aria-pressed', 'true');
      expect(router.state.location.search).toBe('?filter=action_failed');
      await user.click(screen.getByRole('button', { name: 'Action failed' }));
      await waitFor(() => expect(lastQuery()).toEqual({ filter: 'all' }));
    });

    it('opens with the action filter from a link', async () => {
      renderInbox('?filter=action_failed');
      await waitFor(() => expect(lastQuery()).toEqual({ filter: 'action_failed' }));
      expect(screen.getByRole('button', { name: 'Action failed' })).toHaveAttribute('aria-pressed', 'true');
    });

    it('opens filtered from a link, ignoring malformed values', async () => {
      renderInbox('?botId=1&filter=unanswered&q=norway&from=yesterday&c=abc');
      await waitFor(() => expect(rows()).toHaveLength(2));
      expect(lastQuery()).toEqual({ botId: 1, q: 'norway', filter: 'unanswered' });
      expect(screen.getByRole('searchbox', { name: 'Search messages' })).toHaveValue('norway');
      expect(screen.getByRole('combobox', { name: 'Bot' })).toHaveTextContent('Support Bot');
    });

    it('exports the .xlsx with the current filters', async () => {
      const createObjectURL = vi.fn(() => 'blob:x');
      vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
      const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
      api.conversationsApi.exportFile.mockResolvedValue({ blob: new Blob(['x']), fileName: 'conversations.xlsx' });
      renderInbox('?botId=1&filter=negative');
      await waitFor(() => expect(rows()).toHaveLength(2));
      await user.click(screen.getByRole('button', { name: 'Export' }));
      await waitFor(() => expect(click).toHaveBeenCalled());
      expect(api.conversationsApi.exportFile).toHaveBeenCalledWith({ botId: 1, filter: 'negative' });
      expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('conversations.xlsx');

      api.conversationsApi.exportFile.mockImplementation(() => refusal(500, 'boom'));
      await user.click(screen.getByRole('button', { name: 'Export' }));
      expect(await screen.findByText('Error exporting conversations.')).toBeInTheDocument();
      click.mockRestore();
    });
  });

  describe('visitor identity', () => {
    it('shows the name the host page gave (else "Visitor") and the e-mail in the list and the transcript header', async () => {
      const identified = summary({ id: 11, visitorName: 'Ana Lima', visitorEmail: 'ana+shop?cc=x@example.com' });
      api.conversationsApi.list.mockResolvedValue({
        conversations: [identified, summary({ id: 12, botId: 2, botName: 'Sales Bot' })],
        nextCursor: null,
      });
      api.conversationsApi.get.mockResolvedValue({ ...TRANSCRIPT, conversation: identified });
      renderInbox();
      await waitFor(() => expect(rows()).toHaveLength(2));
      const [first, second] = rows();
      expect(first).toHaveTextContent('Ana Lima · ana+shop?cc=x@example.com');
      expect(within(second).getByText('Visitor')).toBeInTheDocument();
      expect(second).not.toHaveTextContent('@');

      await user.click(within(first).getByRole('button'));
      const pane = screen.getByRole('region', { name: 'Transcript' });
      await within(pane).findAllByRole('listitem');
      expect(within(pane).getByText('Ana Lima')).toBeInTheDocument();
      // The local part is encoded: nothing in the address can add a header to the owner's draft.
      expect(within(pane).getByRole('link', { name: 'ana+shop?cc=x@example.com' })).toHaveAttribute(
        'href',
        'mailto:ana%2Bshop%3Fcc%3Dx@example.com',
      );
    });
  });

  describe('who and what waits (issue 27)', () => {
    it("shows the name and e-mail the visitor left in a lead, without the host page's unverified mark", async () => {
      const lead = summary({ id: 11, leadName: 'Bo Berg', leadEmail: 'bo@example.com' });
      api.conversationsApi.list.mockResolvedValue({ conversations: [lead], nextCursor: null });
      api.conversationsApi.get.mockResolvedValue({ ...TRANSCRIPT, conversation: lead });
      renderInbox();
      await waitFor(() => expect(rows()).toHaveLength(1));
      expect(rows()[0]).toHaveTextContent('Bo Berg · bo@example.com');
      expect(within(rows()[0]).queryByText('Visitor')).not.toBeInTheDocument();
      expect(rows()[0]).not.toHaveTextContent('unverified');
      await user.click(within(rows()[0]).getByRole('button'));
      const pane = screen.getByRole('region', { name: 'Transcript' });
      expect(await within(pane).findByRole('link', { name: 'bo@example.com' })).toHaveAttribute(
        'href',
        'mailto:bo@example.com',
      );
    });

    it('marks a conversation waiting for you, filters on it, and stops marking it once you reply', async () => {
      const waiting = summary({ id: 11, handoff: true, waiting: true });
      api.conversationsApi.list.mockResolvedValue({
        conversations: [waiting, summary({ id: 12, handoff: true })],
        nextCursor: null,
      });
      api.conversationsApi.get.mockResolvedValue({ ...TRANSCRIPT, conversation: waiting });
      api.conversationsApi.reply.mockResolvedValue({
        message: { ...message({ id: 9, role: 'agent', content: 'On it!' }), role: 'agent', name: 'Support' },
      });
      const { router } = renderInbox();
      await waitFor(() => expect(rows()).toHaveLength(2));
      expect(within(rows()[0]).getByText('Waiting for you')).toBeInTheDocument();
      expect(within(rows()[1]).queryByText('Waiting for you')).not.toBeInTheDocument();
      expect(within(rows()[1]).getByText('Handoff')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Waiting for you' }));
      await waitFor(() => expect(lastQuery()).toMatchObject({ filter: 'waiting' }));
      expect(router.state.location.search).toBe('?filter=waiting');

      await user.click(within(rows()[0]).getByRole('button', { name: /Do you ship/ }));
      const pane = screen.getByRole('region', { name: 'Transcript' });
      await user.type(await within(pane).findByLabelText('Reply to the visitor'), 'On it!');
      await user.click(within(pane).getByRole('button', { name: /Send/ }));
      await waitFor(() => expect(within(rows()[0]).queryByText('Waiting for you')).not.toBeInTheDocument());
    });
  });

  describe('visitor identity is marked unverified', () => {
    it('marks a name or e-mail from Botsmith.identify as unverified, in the list and the transcript, and nothing else', async () => {
      const named = summary({ id: 11, visitorName: 'Ana Lima', visitorEmail: null });
      const mailed = summary({ id: 12, visitorName: null, visitorEmail: 'bo@example.com' });
      const anonymous = summary({ id: 13 });
      api.conversationsApi.list.mockResolvedValue({ conversations: [named, mailed, anonymous], nextCursor: null });
      api.conversationsApi.get.mockResolvedValue({ ...TRANSCRIPT, conversation: named });
      renderInbox();
      await waitFor(() => expect(rows()).toHaveLength(3));
      const [first, second, third] = rows();
      expect(first).toHaveTextContent('Ana Lima · unverified');
      expect(second).toHaveTextContent('Visitor · bo@example.com · unverified');
      // "Visitor" is no claim: nothing to mark.
      expect(third).not.toHaveTextContent('unverified');

      await user.click(within(first).getByRole('button'));
      const pane = screen.getByRole('region', { name: 'Transcript' });
      await within(pane).findAllByRole('listitem');
      const mark = within(pane).getByText(/unverified/);
      await user.hover(mark);
      expect(await screen.findByRole('tooltip')).toHaveTextContent(UNVERIFIED_HINT);
    });

    it("marks a visitor signed in by the owner's server as verified, in the list and the transcript", async () => {
      const verified = summary({
        id: 11,
        visitorName: 'Ana Lima',
        visitorEmail: 'ana@example.com',
        visitorVerified: true,
      });
      const unsigned = summary({ id: 12, visitorName: 'Bo', visitorEmail: null });
      api.conversationsApi.list.mockResolvedValue({ conversations: [verified, unsigned], nextCursor: null });
      api.conversationsApi.get.mockResolvedValue({ ...TRANSCRIPT, conversation: verified });
      renderInbox();
      await waitFor(() => expect(rows()).toHaveLength(2));
      const [first, second] = rows();
      expect(first).toHaveTextContent('Ana Lima · ana@example.com · verified');
      expect(first).not.toHaveTextContent('unverified');
      expect(second).toHaveTextContent('Bo · unverified');

      await user.click(within(first).getByRole('button'));
      const pane = screen.getByRole('region', { name: 'Transcript' });
      await within(pane).findAllByRole('listitem');
      const mark = within(pane).getByText(/verified/);
      expect(mark).toHaveTextContent('· verified');
      await user.hover(mark);
      expect(await screen.findByRole('tooltip')).toHaveTextContent(VERIFIED_HINT);
    });

    it('shows a stored page address that is not http(s) as text, never as a link', async () => {
      const planted = summary({ id: 11, pageUrl: 'javascript:alert(document.cookie)' });
      api.conversationsApi.list.mockResolvedValue({ conversations: [planted], nextCursor: null });
      api.conversationsApi.get.mockResolvedValue({ ...TRANSCRIPT, conversation: planted });
      renderInbox();
      await waitFor(() => expect(rows()).toHaveLength(1));
      await user.click(within(rows()[0]).getByRole('button'));
      const pane = screen.getByRole('region', { name: 'Transcript' });
      await within(pane).findAllByRole('listitem');
      expect(within(pane).getByText(/javascript:alert/)).toBeInTheDocument();
      expect(within(pane).queryByRole('link', { name: /javascript:/ })).toBeNull();
      expect(pane.querySelector('a[href^="javascript:"]')).toBeNull();
    });
  });

  describe('transcript', () => {
    it('shows the messages with citations, ratings and the Unanswered marker beside the list', async () => {
      const { router } = renderInbox();
      expect(await screen.findByText('Choose a conversation to read it.')).toBeInTheDocument();
      await waitFor(() => expect(rows()).toHaveLength(2));
      await user.click(within(rows()[0]).getByRole('button'));
      expect(router.state.location.search).toBe('?c=11');
      const pane = screen.getByRole('region', { name: 'Transcript' });
      const messages = await within(pane).findAllByRole('listitem');
      expect(api.conversationsApi.get).toHaveBeenCalledWith(11);
      expect(messages).toHaveLength(4);
      expect(messages[0]).toHaveTextContent('Visitor');
      expect(messages[0]).toHaveTextContent('What are your opening hours?');
      expect(messages[1]).toHaveTextContent('We open at 9.');
      const citation = within(messages[1]).getByRole('link', { name: /Handbook\.pdf, page 3/ });
      expect(citation).toHaveAttribute('href', 'https://shop.example/handbook.pdf');
      expect(within(messages[1]).getByText('Helpful')).toBeInTheDocument();
      expect(within(messages[1]).queryByText('Unanswered')).not.toBeInTheDocument();
      expect(within(messages[3]).getByText('Unanswered')).toBeInTheDocument();
      expect(within(messages[3]).getByText('Not helpful')).toBeInTheDocument();
      expect(within(pane).getByRole('link', { name: 'https://shop.example/faq' })).toBeInTheDocument();
      // The list stays beside it on a wide screen.
      expect(rows()).toHaveLength(2);
      expect(within(rows()[0]).getByRole('button')).toHaveAttribute('aria-current', 'true');
    });

    it('shows each action call as a compact row before the answer it served, opening to its parameters and answer', async () => {
      const call = (over: Partial<TranscriptActionCall>): TranscriptActionCall => ({
        id: 1,
        messageId: 4,
        actionName: 'order_status',
        actionId: 3,
        parameters: { order_id: '1042' },
        status: 200,
        durationMs: 184,
        answer: '{"/status":"shipped"}',
        error: null,
        failed: false,
        createdAt: '2026-11-20T10:01:00.000Z',
        ...over,
      });
      api.conversationsApi.get.mockResolvedValue({
        ...TRANSCRIPT,
        actionCalls: [
          call({}),
          call({
            id: 2,
            parameters: { order_id: '9' },
            status: 503,
            durationMs: 2400,
            answer: null,
            error: 'The order system answered with an error (503).',
            failed: true,
          }),
          call({ id: 3, status: null, durationMs: 8000, answer: null, error: 'No answer in time.', failed: true }),
        ],
      });
      renderInbox('?c=11');
      const pane = screen.getByRole('region', { name: 'Transcript' });
      const items = await within(pane).findAllByRole('listitem');
      expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
        expect.stringMatching(/^Visitor, /),
        expect.stringMatching(/^Bot, /),
        expect.stringMatching(/^Visitor, /),
        'Action call: Called order_status · 200 · 184 ms',
        'Action call: Called order_status · 503 · 2,400 ms',
        'Action call: Called order_status · failed · 8,000 ms',
        expect.stringMatching(/^Bot, /),
      ]);
      const ok = within(items[3]).getByRole('button', { name: 'Called order_status · 200 · 184 ms' });
      expect(ok).toHaveAttribute('aria-expanded', 'false');
      expect(within(items[3]).queryByText(/1042/)).not.toBeInTheDocument();
      await user.click(ok);
      expect(ok).toHaveAttribute('aria-expanded', 'true');
      const [parameters, answer] = within(items[3]).getAllByText((_, node) => node?.tagName === 'PRE');
      expect(parameters).toHaveTextContent('"order_id": "1042"');
      expect(parameters).toHaveStyle({ fontFamily: 'monospace' });
      expect(answer).toHaveTextContent('"/status": "shipped"');
      await user.click(ok);
      expect(within(items[3]).queryByText(/1042/)).not.toBeInTheDocument();

      const failed = within(items[4]).getByRole('button', { name: 'Called order_status · 503 · 2,400 ms' });
      await user.click(failed);
      const error = within(items[4]).getByText('The order system answered with an error (503).');
      // The failure in the theme's error colour (#c62828), the row too; a call that worked is not.
      expect(getComputedStyle(error).color).toBe('rgb(198, 40, 40)');
      expect(getComputedStyle(failed).color).toBe('rgb(198, 40, 40)');
      expect(getComputedStyle(ok).color).not.toBe('rgb(198, 40, 40)');
      expect(within(items[4]).queryByText(/Answer \(the fields/)).not.toBeInTheDocument();
    });

    it('says so when the conversation cannot be fetched', async () => {
      api.conversationsApi.get.mockImplementation(() => refusal(404, 'Conversation not found.'));
      renderInbox('?c=99');
      expect(await screen.findByText('Conversation not found.')).toBeInTheDocument();
    });

    it('deletes after confirming, and takes it out of the list', async () => {
      api.conversationsApi.remove.mockResolvedValue({});
      const { router } = renderInbox('?c=11');
      await waitFor(() => expect(rows()).toHaveLength(2));
      await user.click(await screen.findByRole('button', { name: 'Delete conversation' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete this conversation?' });
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(api.conversationsApi.remove).not.toHaveBeenCalled();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

      await user.click(screen.getByRole('button', { name: 'Delete conversation' }));
      await user.click(
        within(await screen.findByRole('dialog', { name: 'Delete this conversation?' })).getByRole('button', {
          name: 'Delete',
        }),
      );
      expect(await screen.findByText('Conversation deleted.')).toBeInTheDocument();
      expect(api.conversationsApi.remove).toHaveBeenCalledWith(11);
      await waitFor(() => expect(rows()).toHaveLength(1));
      expect(rows()[0]).toHaveTextContent('Sales Bot');
      expect(router.state.location.search).toBe('');
    });

    it('shows why a delete was refused and keeps the conversation', async () => {
      api.conversationsApi.remove.mockImplementation(() => refusal(404, 'Conversation not found.'));
      renderInbox('?c=11');
      await user.click(await screen.findByRole('button', { name: 'Delete conversation' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete this conversation?' });
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      expect(await within(dialog).findByText('Conversation not found.')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(rows()).toHaveLength(2);
      expect(screen.getByRole('region', { name: 'Transcript' })).toBeInTheDocument();
    });
  });

  describe('owner replies and handoff', () => {
    const HANDED_OFF: ConversationTranscript = {
      conversation: summary({ handoff: true }),
      messages: [
        message({ id: 1, role: 'user', content: 'Can I talk to a person?' }),
        message({ id: 2, role: 'agent', content: 'Hi, Ana here.', name: 'Ana at Acme' }),
      ],
      actionCalls: [],
    };

    it('sends a reply with Ctrl+Enter, shows it as yours and marks the conversation handed off', async () => {
      api.conversationsApi.reply.mockResolvedValue({
        message: message({ id: 9, role: 'agent', content: 'Happy to help!', name: 'Support' }),
      });
      renderInbox('?c=11');
      const pane = await screen.findByRole('region', { name: 'Transcript' });
      await within(pane).findAllByRole('listitem');
      expect(within(pane).queryByText('Handoff')).not.toBeInTheDocument();
      const box = within(pane).getByLabelText('Reply to the visitor');
      expect(within(pane).getByRole('button', { name: 'Send reply' })).toBeDisabled();
      await user.type(box, '  Happy to help!  ');
      await user.keyboard('{Control>}{Enter}{/Control}');
      expect(api.conversationsApi.reply).toHaveBeenCalledWith(11, 'Happy to help!');
      await waitFor(() => expect(within(pane).getAllByRole('listitem')).toHaveLength(5));
      const mine = within(pane).getAllByRole('listitem')[4];
      expect(mine).toHaveTextContent('You · Support');
      expect(mine).toHaveTextContent('Happy to help!');
      expect(box).toHaveValue('');
      expect(within(pane).getByText('Handoff')).toBeInTheDocument();
      expect(within(pane).getByRole('button', { name: 'Hand back to the bot' })).toBeInTheDocument();
      // The list row follows: handed off, one more message.
      await waitFor(() => expect(within(rows()[0]).getByText('Handoff')).toBeInTheDocument());
      expect(rows()[0]).toHaveTextContent('5 messages');
    });

    it("shows the server's reason when a reply is refused, and keeps the draft", async () => {
      api.conversationsApi.reply.mockImplementation(() => refusal(429, 'Too many replies right now.'));
      renderInbox('?c=11');
      const pane = await screen.findByRole('region', { name: 'Transcript' });
      const box = await within(pane).findByLabelText('Reply to the visitor');
      await user.type(box, 'Hello');
      await user.click(within(pane).getByRole('button', { name: 'Send reply' }));
      expect(await within(pane).findByText('Too many replies right now.')).toBeInTheDocument();
      expect(box).toHaveValue('Hello');
      expect(within(pane).getAllByRole('listitem')).toHaveLength(4);
    });

    it('shows agent messages as yours with their name, the Handoff chip in the list, and hands back to the bot', async () => {
      api.conversationsApi.list.mockResolvedValue({ conversations: [summary({ handoff: true })], nextCursor: null });
      api.conversationsApi.get.mockResolvedValue(HANDED_OFF);
      api.conversationsApi.handBack.mockResolvedValue({});
      renderInbox('?c=11');
      await waitFor(() => expect(rows()).toHaveLength(1));
      expect(within(rows()[0]).getByText('Handoff')).toBeInTheDocument();
      const pane = screen.getByRole('region', { name: 'Transcript' });
      const messages = await within(pane).findAllByRole('listitem');
      expect(messages[1]).toHaveTextContent('You · Ana at Acme');
      await user.click(within(pane).getByRole('button', { name: 'Hand back to the bot' }));
      expect(api.conversationsApi.handBack).toHaveBeenCalledWith(11);
      expect(await screen.findByText('The bot answers this conversation again.')).toBeInTheDocument();
      await waitFor(() =>
        expect(within(pane).queryByRole('button', { name: 'Hand back to the bot' })).not.toBeInTheDocument(),
      );
    });

    it("reads a handed-off conversation again every few seconds, so the visitor's new messages appear", async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      try {
        api.conversationsApi.get.mockResolvedValueOnce(HANDED_OFF).mockResolvedValue({
          ...HANDED_OFF,
          messages: [...HANDED_OFF.messages, message({ id: 3, role: 'user', content: 'My order is 1234.' })],
        });
        renderInbox('?c=11');
        const pane = await screen.findByRole('region', { name: 'Transcript' });
        await within(pane).findAllByRole('listitem');
        expect(within(pane).queryByText('My order is 1234.')).not.toBeInTheDocument();
        await vi.advanceTimersByTimeAsync(HANDOFF_REFRESH_MS);
        expect(await within(pane).findByText('My order is 1234.')).toBeInTheDocument();
        expect(api.conversationsApi.get).toHaveBeenCalledTimes(2);
      } finally {
        vi.useRealTimers();
      }
    });

    it('offers no reply box when the bot was deleted', async () => {
      api.conversationsApi.get.mockResolvedValue({ ...TRANSCRIPT, conversation: summary({ botId: null }) });
      renderInbox('?c=11');
      const pane = await screen.findByRole('region', { name: 'Transcript' });
      expect(
        await within(pane).findByText(/bot was deleted, so its visitor can no longer receive replies/),
      ).toBeInTheDocument();
      expect(within(pane).queryByLabelText('Reply to the visitor')).not.toBeInTheDocument();
    });

    it("says why a lead left before any chat has no messages, and shows the lead's message", async () => {
      const leadOnly = summary({
        handoff: true,
        messageCount: 0,
        preview: 'Please call me about a group booking.',
        leadEmail: 'jamie@example.org',
      });
      api.conversationsApi.list.mockResolvedValue({ conversations: [leadOnly], nextCursor: null });
      api.conversationsApi.get.mockResolvedValue({ conversation: leadOnly, messages: [] });
      renderInbox('?c=11');
      const pane = await screen.findByRole('region', { name: 'Transcript' });
      expect(
        await within(pane).findByText('No chat messages: the visitor left their details through the form.'),
      ).toBeInTheDocument();
      expect(within(pane).getByLabelText("The visitor's message in the form")).toHaveTextContent(
        'Please call me about a group booking.',
      );
      expect(within(pane).getByLabelText('Reply to the visitor')).toBeInTheDocument();
    });

    it('says so when a conversation has no messages and no lead', async () => {
      const empty = summary({ messageCount: 0, preview: '' });
      api.conversationsApi.get.mockResolvedValue({ conversation: empty, messages: [] });
      renderInbox('?c=11');
      const pane = await screen.findByRole('region', { name: 'Transcript' });
      expect(await within(pane).findByText('No messages in this conversation yet.')).toBeInTheDocument();
      expect(within(pane).queryByLabelText("The visitor's message in the form")).not.toBeInTheDocument();
    });
  });

  describe('Fix this answer', () => {
    async function openFix(index: number) {
      renderInbox('?c=11');
      const pane = await screen.findByRole('region', { name: 'Transcript' });
      const messages = await within(pane).findAllByRole('listitem');
      await user.click(within(messages[index]).getByRole('button', { name: 'Fix this answer' }));
      return screen.findByRole('dialog', { name: 'Fix this answer' });
    }

    it('is offered on answers only, prefilled with the question before it, and saves the correction', async () => {
      api.conversationsApi.correct.mockResolvedValue({});
      renderInbox('?c=11');
      const pane = await screen.findByRole('region', { name: 'Transcript' });
      const messages = await within(pane).findAllByRole('listitem');
      expect(within(messages[0]).queryByRole('button', { name: 'Fix this answer' })).not.toBeInTheDocument();
      await user.click(within(messages[3]).getByRole('button', { name: 'Fix this answer' }));
      const dialog = await screen.findByRole('dialog', { name: 'Fix this answer' });
      expect(within(dialog).getByLabelText("Visitor's question")).toHaveValue('Do you ship to Norway?');

      await user.click(within(dialog).getByRole('button', { name: 'Save answer' }));
      expect(within(dialog).getByText('Write the answer the bot should give.')).toBeInTheDocument();
      expect(api.conversationsApi.correct).not.toHaveBeenCalled();

      await user.type(within(dialog).getByLabelText('Answer'), 'Yes, in 3 to 5 days.');
      await user.click(within(dialog).getByRole('button', { name: 'Save answer' }));
      expect(await screen.findByText('Answer saved: the bot gives it from now on.')).toBeInTheDocument();
      expect(api.conversationsApi.correct).toHaveBeenCalledWith(1, {
        question: 'Do you ship to Norway?',
        answer: 'Yes, in 3 to 5 days.',
      });
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it('requires a question and caps both fields at the contract limits', async () => {
      const dialog = await openFix(1);
      const question = within(dialog).getByLabelText("Visitor's question");
      expect(question).toHaveValue('What are your opening hours?');
      expect(question).toHaveAttribute('maxlength', '1000');
      expect(within(dialog).getByLabelText('Answer')).toHaveAttribute('maxlength', '4000');
      await user.clear(question);
      await user.type(within(dialog).getByLabelText('Answer'), 'From 9 to 5.');
      await user.click(within(dialog).getByRole('button', { name: 'Save answer' }));
      expect(within(dialog).getByText('Write the question visitors ask.')).toBeInTheDocument();
      expect(api.conversationsApi.correct).not.toHaveBeenCalled();
    });

    it("shows the API's refusal and keeps the dialog open", async () => {
      api.conversationsApi.correct.mockImplementation(() => refusal(400, 'The answer is too long.'));
      const dialog = await openFix(3);
      await user.type(within(dialog).getByLabelText('Answer'), 'Yes.');
      await user.click(within(dialog).getByRole('button', { name: 'Save answer' }));
      expect(await within(dialog).findByText('The answer is too long.')).toBeInTheDocument();
      expect(within(dialog).getByLabelText('Answer')).toHaveValue('Yes.');
    });
  });

  describe('unanswered questions report', () => {
    beforeEach(() => {
      api.conversationsApi.unansweredQuestions.mockResolvedValue({
        questions: [
          {
            text: 'Do you ship to Norway?',
            count: 3,
            lastAskedAt: '2026-11-20T10:00:00.000Z',
            conversationIds: [11, 15, 16],
          },
          { text: 'Can I pay by invoice?', count: 1, lastAskedAt: '2026-11-19T10:00:00.000Z', conversationIds: [17] },
        ],
      });
    });

    it("lists a bot's questions most asked first, per period, with links to their conversations", async () => {
      renderInbox('?view=questions&botId=1');
      const list = await screen.findByRole('list', { name: 'Questions' });
      const items = within(list).getAllByRole('listitem');
      expect(items[0]).toHaveTextContent('Do you ship to Norway?');
      expect(items[0]).toHaveTextContent('Asked 3 times');
      expect(items[1]).toHaveTextContent('Asked once');
      expect(api.conversationsApi.unansweredQuestions).toHaveBeenCalledWith(1, '30d');
      expect(within(items[0]).getByRole('link', { name: 'See 3 conversations' })).toHaveAttribute(
        'href',
        '/dashboard/conversations?botId=1&q=Do+you+ship+to+Norway%3F&filter=unanswered&c=11',
      );
      expect(api.conversationsApi.list).not.toHaveBeenCalled();

      await user.click(screen.getByRole('button', { name: 'Last 7 days' }));
      await waitFor(() => expect(api.conversationsApi.unansweredQuestions).toHaveBeenLastCalledWith(1, '7d'));
    });

    it('opens Fix this answer prefilled with the question', async () => {
      api.conversationsApi.correct.mockResolvedValue({});
      renderInbox('?view=questions&botId=1');
      const item = await screen.findByRole('listitem', { name: 'Can I pay by invoice?' });
      await user.click(within(item).getByRole('button', { name: 'Fix this answer' }));
      const dialog = await screen.findByRole('dialog', { name: 'Fix this answer' });
      expect(within(dialog).getByLabelText("Visitor's question")).toHaveValue('Can I pay by invoice?');
      await user.type(within(dialog).getByLabelText('Answer'), 'Yes, for orders over $500.');
      await user.click(within(dialog).getByRole('button', { name: 'Save answer' }));
      await waitFor(() =>
        expect(api.conversationsApi.correct).toHaveBeenCalledWith(1, {
          question: 'Can I pay by invoice?',
          answer: 'Yes, for orders over $500.',
        }),
      );
    });

    it('marks the question Fixed as soon as its correction is saved, without reading the report again', async () => {
      api.conversationsApi.correct.mockResolvedValue({});
      renderInbox('?view=questions&botId=1');
      const item = await screen.findByRole('listitem', { name: 'Can I pay by invoice?' });
      expect(within(item).queryByText('Fixed')).not.toBeInTheDocument();
      const reads = api.conversationsApi.unansweredQuestions.mock.calls.length;
      await user.click(within(item).getByRole('button', { name: 'Fix this answer' }));
      const dialog = await screen.findByRole('dialog', { name: 'Fix this answer' });
      await user.type(within(dialog).getByLabelText('Answer'), 'Yes, for orders over $500.');
      await user.click(within(dialog).getByRole('button', { name: 'Save answer' }));
      await waitForElementToBeRemoved(dialog);
      expect(within(screen.getByRole('listitem', { name: 'Can I pay by invoice?' })).getByText('Fixed')).toBeVisible();
      expect(
        within(screen.getByRole('listitem', { name: 'Do you ship to Norway?' })).queryByText('Fixed'),
      ).not.toBeInTheDocument();
      expect(api.conversationsApi.unansweredQuestions.mock.calls.length).toBe(reads);
      // The filter counts it too.
      await user.click(screen.getByRole('button', { name: 'Hide fixed (1)' }));
      expect(screen.queryByRole('listitem', { name: 'Can I pay by invoice?' })).not.toBeInTheDocument();
    });

    it('does not mark the question Fixed when the correction was refused', async () => {
      api.conversationsApi.correct.mockImplementation(() => refusal(400, 'The answer is too long.'));
      renderInbox('?view=questions&botId=1');
      const item = await screen.findByRole('listitem', { name: 'Can I pay by invoice?' });
      await user.click(within(item).getByRole('button', { name: 'Fix this answer' }));
      const dialog = await screen.findByRole('dialog', { name: 'Fix this answer' });
      await user.type(within(dialog).getByLabelText('Answer'), 'Yes.');
      await user.click(within(dialog).getByRole('button', { name: 'Save answer' }));
      expect(await within(dialog).findByText('The answer is too long.')).toBeInTheDocument();
      expect(within(item).queryByText('Fixed')).not.toBeInTheDocument();
    });

    it('asks for a bot first, and says when there is nothing to fix', async () => {
      api.conversationsApi.unansweredQuestions.mockResolvedValue({ questions: [] });
      renderInbox('?view=questions');
      expect(await screen.findByText('Choose a bot to see the questions it could not answer.')).toBeInTheDocument();
      await user.click(screen.getByRole('combobox', { name: 'Bot' }));
      await user.click(await screen.findByRole('option', { name: 'Sales Bot' }));
      expect(await screen.findByText('No unanswered questions')).toBeInTheDocument();
      expect(api.conversationsApi.unansweredQuestions).toHaveBeenCalledWith(2, '30d');
    });

    it('preselects the bot when the owner has only one', async () => {
      renderAtDashboard(<ConversationsSection bots={[BOTS[0]]} />, '/dashboard/conversations?view=questions');
      expect(await screen.findByRole('list', { name: 'Questions' })).toBeInTheDocument();
      expect(api.conversationsApi.unansweredQuestions).toHaveBeenCalledWith(1, '30d');
      expect(screen.queryByText('Choose a bot to see the questions it could not answer.')).not.toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: 'Bot' })).toHaveTextContent('Support Bot');
    });

    it('marks a fixed question and hides the fixed ones on request', async () => {
      api.conversationsApi.unansweredQuestions.mockResolvedValue({
        questions: [
          {
            text: 'Do you ship to Norway?',
            count: 2,
            lastAskedAt: '2026-11-20T10:00:00.000Z',
            conversationIds: [11],
            fixed: false,
          },
          {
            text: 'Can I pay by invoice?',
            count: 1,
            lastAskedAt: '2026-11-19T10:00:00.000Z',
            conversationIds: [17],
            fixed: true,
          },
        ],
      });
      renderInbox('?view=questions&botId=1');
      const list = await screen.findByRole('list', { name: 'Questions' });
      const [open, fixed] = within(list).getAllByRole('listitem');
      expect(within(fixed).getByText('Fixed')).toBeInTheDocument();
      expect(within(open).queryByText('Fixed')).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Hide fixed (1)' }));
      expect(within(screen.getByRole('list', { name: 'Questions' })).getAllByRole('listitem')).toHaveLength(1);
      expect(screen.queryByText('Can I pay by invoice?')).not.toBeInTheDocument();
    });

    it('shows an error with Retry when the report cannot be fetched', async () => {
      api.conversationsApi.unansweredQuestions.mockImplementationOnce(() => refusal(500, 'boom'));
      renderInbox('?view=questions&botId=1');
      expect(await screen.findByText('Error fetching unanswered questions.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Retry' }));
      expect(await screen.findByRole('list', { name: 'Questions' })).toBeInTheDocument();
    });
  });

  describe('on a phone', () => {
    it('shows the list and the transcript as separate screens, with a way back', async () => {
      stubScreen('phone');
      const { router } = renderInbox();
      await waitFor(() => expect(rows()).toHaveLength(2));
      expect(screen.queryByRole('region', { name: 'Transcript' })).not.toBeInTheDocument();
      expect(screen.queryByText('Choose a conversation to read it.')).not.toBeInTheDocument();

      await user.click(within(rows()[0]).getByRole('button'));
      const pane = await screen.findByRole('region', { name: 'Transcript' });
      expect(await within(pane).findAllByRole('listitem')).toHaveLength(4);
      expect(screen.queryByRole('list', { name: 'Conversations' })).not.toBeInTheDocument();
      expect(screen.queryByRole('searchbox', { name: 'Search messages' })).not.toBeInTheDocument();

      await user.click(within(pane).getByRole('button', { name: 'Back to conversations' }));
      await waitFor(() => expect(rows()).toHaveLength(2));
      expect(router.state.location.search).toBe('');
    });
  });
});
