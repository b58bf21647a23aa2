import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import EN from './lang/en';
import type { PublicBot } from './lib/types';
import { Widget } from './Widget';

const bot: Partial<PublicBot> = {
  id: 7,
  name: 'Support Bot',
  customGreeting: 'Hi! How can I help you today?',
  modelLabel: 'GPT-4o Mini',
  model: 'gpt-4o-mini',
  placeholderText: 'Ask away',
  bannerDisclaimer: 'Answers may be wrong.',
  widgetBubbleColor: 'linear-gradient(to right, #ff9800, #ff9800)',
};

function props(over: Partial<Parameters<typeof Widget>[0]> = {}): Parameters<typeof Widget>[0] {
  return {
    botId: '7',
    apiOrigin: 'https://api.example',
    bot,
    botError: '',
    open: true,
    inline: false,
    onClose: vi.fn(),
    t: EN,
    ...over,
  };
}

/** A fetch whose reply the test releases token by token. */
function streamingFetch() {
  let ctrl!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctrl = c) });
  const enc = new TextEncoder();
  const fetchMock = vi.fn().mockResolvedValue(new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }));
  return {
    fetchMock,
    token: (t: string) => ctrl.enqueue(enc.encode(`event: token\ndata: ${JSON.stringify({ text: t })}\n\n`)),
    action: (subject: string) => ctrl.enqueue(enc.encode(`event: action\ndata: ${JSON.stringify({ subject })}\n\n`)),
    done: (m: string, messageId?: number) => {
      ctrl.enqueue(enc.encode(`event: done\ndata: ${JSON.stringify({ message: m, messageId, costCents: 4 })}\n\n`));
      ctrl.close();
    },
  };
}

const input = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
/**
 * The calls of POST /api/chat among a fetch mock's: once a conversation is shown, the window
 * also listens for a person's replies (extras/replies.ts) through the same fetch.
 */
const chatCalls = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/chat')) as [string, RequestInit][];
const sendButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Send message' });
const typeText = (text: string) => fireEvent.input(input(), { target: { value: text } });

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('Widget', () => {
  it('shows the banner, disclaimer, greeting and placeholder', () => {
    render(<Widget {...props()} />);
    expect(screen.getByRole('dialog', { name: 'Chat with Support Bot' })).toBeTruthy();
    expect(screen.getByText('Answers may be wrong.')).toBeTruthy();
    expect(screen.getByText('Hi! How can I help you today?').closest('.assistant')).toBeTruthy();
    expect(input().placeholder).toBe('Ask away');
  });

  it('falls back to the default placeholder', () => {
    render(<Widget {...props({ bot: { ...bot, placeholderText: '' } })} />);
    expect(input().placeholder).toBe('Type your message here...');
  });

  it('sends on Enter, streams the reply, then re-enables the send button', async () => {
    const s = streamingFetch();
    vi.stubGlobal('fetch', s.fetchMock);
    render(<Widget {...props()} />);
    typeText('  Where is my order?  ');
    fireEvent.keyDown(input(), { key: 'Enter' });

    await waitFor(() => expect(s.fetchMock).toHaveBeenCalledTimes(1));
    const body = JSON.parse((s.fetchMock.mock.calls[0][1] as RequestInit).body as string) as Record<string, unknown>;
    expect(body.prompt).toBe('Where is my order?');
    expect(body.chatHistory).toEqual([{ role: 'assistant', content: 'Hi! How can I help you today?' }]);
    expect(screen.getByText('Where is my order?').closest('.user')).toBeTruthy();
    expect(input().value).toBe('');
    expect(sendButton().disabled).toBe(true);
    expect(screen.getByRole('status', { name: 'The assistant is typing' })).toBeTruthy();

    await act(async () => s.token('It is **on'));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    await act(async () => s.token(' its way**.'));
    await waitFor(() => expect(screen.getByText('on its way').tagName).toBe('STRONG'));

    await act(async () => s.done('It is **on its way**.'));
    await waitFor(() => expect(sendButton().disabled).toBe(false));
    expect(document.querySelectorAll('.assistant')).toHaveLength(2);
  });

  it("shows what the bot's action checks while it runs, in the visitor's language, until the answer streams", async () => {
    const s = streamingFetch();
    vi.stubGlobal('fetch', s.fetchMock);
    render(<Widget {...props()} />);
    typeText('Where is my order 1042?');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(s.fetchMock).toHaveBeenCalledTimes(1));

    await act(async () => s.action('order'));
    await waitFor(() => expect(screen.getByText('Checking your order…').getAttribute('role')).toBe('status'));
    await act(async () => s.token('It has shipped.'));
    await waitFor(() => expect(screen.queryByText('Checking your order…')).toBeNull());
    await act(async () => s.done('It has shipped.'));
    await waitFor(() => expect(sendButton().disabled).toBe(false));
    expect(screen.getByText('It has shipped.').closest('.assistant')).toBeTruthy();
  });

  describe('starter questions', () => {
    const questions = ['What are your opening hours?', 'Do you deliver?'];
    const chips = () => screen.queryAllByRole('button', { name: /opening hours|deliver/ });

    it('shows them under the greeting; a tap sends that question, keeps the draft, and they go', async () => {
      const s = streamingFetch();
      vi.stubGlobal('fetch', s.fetchMock);
      render(<Widget {...props({ bot: { ...bot, starterQuestions: questions } })} />);
      expect(chips().map((chip) => chip.textContent)).toEqual(questions);
      typeText('half-typed');
      fireEvent.click(screen.getByRole('button', { name: 'Do you deliver?' }));

      await waitFor(() => expect(s.fetchMock).toHaveBeenCalledTimes(1));
      const body = JSON.parse((s.fetchMock.mock.calls[0][1] as RequestInit).body as string) as Record<string, unknown>;
      expect(body.prompt).toBe('Do you deliver?');
      expect(screen.getByText('Do you deliver?').closest('.user')).toBeTruthy();
      expect(input().value).toBe('half-typed');
      expect(chips()).toHaveLength(0);
      await act(async () => s.done('Yes, every weekday.'));
      // A new conversation offers them again.
      fireEvent.click(screen.getByRole('button', { name: 'New conversation' }));
      expect(chips()).toHaveLength(2);
    });

    it('does not show them once the conversation has begun, nor for a bot without any', async () => {
      vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(JSON.stringify({ message: 'Pong' }))));
      const first = render(<Widget {...props({ bot: { ...bot, starterQuestions: questions } })} />);
      typeText('Ping');
      fireEvent.keyDown(input(), { key: 'Enter' });
      await screen.findByText('Pong');
      first.unmount();
      // Restored from local storage: the conversation goes on without them.
      render(<Widget {...props({ bot: { ...bot, starterQuestions: questions } })} />);
      expect(screen.getByText('Pong')).toBeTruthy();
      expect(chips()).toHaveLength(0);
      cleanup();
      localStorage.clear();
      render(<Widget {...props({ bot: { ...bot, starterQuestions: [] } })} />);
      render(<Widget {...props({ botId: '8', bot: { ...bot, id: 8 } })} />);
      expect(chips()).toHaveLength(0);
    });
  });

  it('does not send on Shift+Enter, blank input, or while a reply is pending', async () => {
    const s = streamingFetch();
    vi.stubGlobal('fetch', s.fetchMock);
    render(<Widget {...props()} />);

    typeText('line one');
    expect(fireEvent.keyDown(input(), { key: 'Enter', shiftKey: true })).toBe(true); // default kept: a new line
    typeText('   \n  ');
    fireEvent.keyDown(input(), { key: 'Enter' });
    fireEvent.click(sendButton());
    expect(s.fetchMock).not.toHaveBeenCalled();

    typeText('first');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(s.fetchMock).toHaveBeenCalledTimes(1));
    typeText('second');
    expect(fireEvent.keyDown(input(), { key: 'Enter' })).toBe(false); // swallowed, not sent
    await act(async () => undefined);
    expect(s.fetchMock).toHaveBeenCalledTimes(1);
    expect(input().value).toBe('second');
  });

  it('makes the send button glow for 400 ms after a send', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal('fetch', streamingFetch().fetchMock);
    render(<Widget {...props()} />);
    typeText('hi');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await act(async () => undefined);
    expect(sendButton().classList.contains('glow')).toBe(true);
    await act(async () => void vi.advanceTimersByTime(399));
    expect(sendButton().classList.contains('glow')).toBe(true);
    await act(async () => void vi.advanceTimersByTime(1));
    expect(sendButton().classList.contains('glow')).toBe(false);
  });

  it('hides the scrollbar 1500 ms after the last scroll', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    render(<Widget {...props()} />);
    const log = screen.getByRole('log');
    expect(log.classList.contains('idle')).toBe(true);
    await act(async () => void fireEvent.scroll(log));
    expect(log.classList.contains('idle')).toBe(false);
    await act(async () => void vi.advanceTimersByTime(1000));
    await act(async () => void fireEvent.scroll(log));
    await act(async () => void vi.advanceTimersByTime(1499));
    expect(log.classList.contains('idle')).toBe(false);
    await act(async () => void vi.advanceTimersByTime(1));
    expect(log.classList.contains('idle')).toBe(true);
  });

  it('shows thumbs up and down under an answer once its id arrives; the last choice stays pressed', async () => {
    const s = streamingFetch();
    const feedback = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
    feedback.mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', (url: string, init: RequestInit) =>
      url.endsWith('/feedback') ? feedback(url, init) : (s.fetchMock() as Promise<Response>),
    );
    render(<Widget {...props()} />);
    typeText('hello');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await act(async () => s.token('Hi '));
    await screen.findByText(/Hi/);
    // Nothing to rate while the answer streams in, nor the greeting.
    expect(screen.queryByRole('button', { name: 'Good answer' })).toBeNull();
    await act(async () => s.done('Hi there', 42));
    const up = await screen.findByRole<HTMLButtonElement>('button', { name: 'Good answer' });
    const down = screen.getByRole<HTMLButtonElement>('button', { name: 'Bad answer' });
    expect(screen.getAllByRole('group', { name: 'Rate this answer' })).toHaveLength(1);
    expect([up.getAttribute('aria-pressed'), down.getAttribute('aria-pressed')]).toEqual(['false', 'false']);

    fireEvent.click(down);
    await waitFor(() => expect(down.getAttribute('aria-pressed')).toBe('true'));
    fireEvent.click(up);
    await waitFor(() => expect(up.getAttribute('aria-pressed')).toBe('true'));
    expect(down.getAttribute('aria-pressed')).toBe('false');
    expect(feedback.mock.calls.map((c) => JSON.parse(c[1].body as string) as unknown)).toEqual([
      { botId: '7', messageId: 42, rating: 'down' },
      { botId: '7', messageId: 42, rating: 'up' },
    ]);
    // Kept with the conversation, so the choice is still shown after a navigation.
    const stored = (JSON.parse(localStorage.getItem('botsmith:chat:7')!) as { m: unknown[] }).m;
    expect(stored[1]).toMatchObject({ id: 42, rating: 'up' });
  });

  it('puts the previous choice back when the server does not take the rating', async () => {
    localStorage.setItem(
      'botsmith:chat:7',
      JSON.stringify({
        t: Date.now(),
        m: [
          { role: 'user', content: 'hello' },
          { role: 'assistant', content: 'Hi there', id: 42, rating: 'up' },
          { role: 'assistant', content: 'Forged', id: 'x' },
        ],
      }),
    );
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('{}', { status: 429 })));
    render(<Widget {...props()} />);
    // Only an answer with a real id can be rated (the buttons come with the window's second chunk).
    expect(await screen.findAllByRole('group', { name: 'Rate this answer' })).toHaveLength(1);
    const up = screen.getByRole('button', { name: 'Good answer' });
    const down = screen.getByRole('button', { name: 'Bad answer' });
    expect(up.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(down);
    expect(down.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(up.getAttribute('aria-pressed')).toBe('true'));
    expect(down.getAttribute('aria-pressed')).toBe('false');
  });

  it('opens a comment box on a thumbs down the server took; the comment goes with the rating, then a thank-you', async () => {
    localStorage.setItem(
      'botsmith:chat:7',
      JSON.stringify({
        t: Date.now(),
        m: [
          { role: 'user', content: 'hello' },
          { role: 'assistant', content: 'Hi', id: 42 },
        ],
      }),
    );
    let status = 204;
    const feedback = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(new Response(null, { status })));
    // The rest (a person's replies, listened for while a conversation shows): nothing there.
    vi.stubGlobal('fetch', (url: string, init: RequestInit) =>
      url.endsWith('/feedback') ? feedback(url, init) : Promise.resolve(new Response('{}', { status: 404 })),
    );
    render(<Widget {...props()} />);
    // A thumbs up asks nothing more.
    fireEvent.click(await screen.findByRole('button', { name: 'Good answer' }));
    await waitFor(() => expect(feedback).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('textbox', { name: /What was wrong/ })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Bad answer' }));
    const box = await screen.findByRole<HTMLTextAreaElement>('textbox', {
      name: 'What was wrong with this answer? (optional)',
    });
    expect(box.maxLength).toBe(1000);
    const send = screen.getByRole<HTMLButtonElement>('button', { name: 'Send' });
    // Nothing to send until something is written.
    expect(send.disabled).toBe(true);
    fireEvent.input(box, { target: { value: '  The price is wrong. ' } });
    // Refused: the box and its text stay, and the visitor is told.
    status = 429;
    fireEvent.click(send);
    expect((await screen.findByRole('alert')).textContent).toBe('Your message could not be sent. Please try again.');
    expect(box.value).toBe('  The price is wrong. ');
    status = 204;
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('status')).textContent).toBe('Thank you for your feedback.');
    expect(screen.queryByRole('textbox', { name: /What was wrong/ })).toBeNull();
    expect(feedback.mock.calls.map((c) => JSON.parse(c[1].body as string) as unknown)).toEqual([
      { botId: '7', messageId: 42, rating: 'up' },
      { botId: '7', messageId: 42, rating: 'down' },
      { botId: '7', messageId: 42, rating: 'down', comment: 'The price is wrong.' },
      { botId: '7', messageId: 42, rating: 'down', comment: 'The price is wrong.' },
    ]);

    // Cancel closes the box without sending anything more.
    fireEvent.click(screen.getByRole('button', { name: 'Good answer' }));
    fireEvent.click(screen.getByRole('button', { name: 'Bad answer' }));
    await screen.findByRole('textbox', { name: /What was wrong/ });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('textbox', { name: /What was wrong/ })).toBeNull();
    expect(feedback).toHaveBeenCalledTimes(6);

    // An open box takes the keyboard once: the menu opened beside it keeps its focus (and stays open).
    fireEvent.click(screen.getByRole('button', { name: 'Good answer' }));
    fireEvent.click(screen.getByRole('button', { name: 'Bad answer' }));
    const again = await screen.findByRole('textbox', { name: /What was wrong/ });
    await waitFor(() => expect(document.activeElement).toBe(again));
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    const remove = await screen.findByRole('menuitem', { name: 'Delete this conversation' });
    fireEvent.input(again, { target: { value: 'x' } });
    expect(document.activeElement).toBe(remove);
    expect(screen.getByRole('menu')).toBeTruthy();
  });

  it("scrolls the conversation so a comment box opened at the window's bottom shows whole", async () => {
    localStorage.setItem(
      'botsmith:chat:7',
      JSON.stringify({
        t: Date.now(),
        m: [
          { role: 'user', content: 'hello' },
          { role: 'assistant', content: 'Hi', id: 42 },
        ],
      }),
    );
    vi.stubGlobal('fetch', (url: string) =>
      Promise.resolve(
        new Response(url.endsWith('/feedback') ? null : '{}', { status: url.endsWith('/feedback') ? 204 : 404 }),
      ),
    );
    // jsdom has no layout: the log's visible part ends at 500 px, the comment box at 650 px.
    const rect = (bottom: number) => ({ bottom }) as DOMRect;
    const layout = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
      this: HTMLElement,
    ) {
      if (this.classList.contains('log')) return rect(500);
      if (this.classList.contains('cm')) return rect(650);
      return rect(0);
    });
    try {
      render(<Widget {...props()} />);
      const log = await screen.findByRole('log');
      fireEvent.click(await screen.findByRole('button', { name: 'Bad answer' }));
      await screen.findByRole('textbox', { name: /What was wrong/ });
      // Its 150 px below the fold, and a little room under it.
      await waitFor(() => expect(log.scrollTop).toBe(150 + 8));
    } finally {
      layout.mockRestore();
    }
  });

  it('shows a refusal as an italic error bubble and stays usable', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        new Response(
          JSON.stringify({ error: 'This bot is not available on this website.', code: 'DOMAIN_NOT_ALLOWED' }),
          {
            status: 403,
          },
        ),
      ),
    );
    render(<Widget {...props()} />);
    typeText('hello');
    fireEvent.keyDown(input(), { key: 'Enter' });
    const bubble = await screen.findByText('This bot is not available on this website.');
    expect(bubble.classList.contains('error')).toBe(true);
    expect(sendButton().disabled).toBe(false);
  });

  it("tells the server the page's origin and path only, and carries the visitor token it was given", async () => {
    history.replaceState(null, '', '/pricing?coupon=SECRET-COUPON&email=ann%40example.com#token=abc');
    try {
      const fetchMock = vi
        .fn()
        .mockResolvedValueOnce(
          new Response(JSON.stringify({ message: 'One' }), { headers: { 'X-Visitor-Token': 'v1.issued' } }),
        )
        // A new response each time: the replies listener reads from the same fetch.
        .mockImplementation(() => Promise.resolve(new Response(JSON.stringify({ message: 'Two' }))));
      vi.stubGlobal('fetch', fetchMock);
      render(<Widget {...props()} />);
      typeText('First');
      fireEvent.keyDown(input(), { key: 'Enter' });
      await screen.findByText('One');
      typeText('Second');
      fireEvent.keyDown(input(), { key: 'Enter' });
      await screen.findByText('Two');
      const sent = chatCalls(fetchMock).map((c) => c[1].headers as Record<string, string>);
      expect(sent.map((h) => h['X-Page-Url'])).toEqual([`${location.origin}/pricing`, `${location.origin}/pricing`]);
      expect(JSON.stringify(fetchMock.mock.calls)).not.toMatch(/SECRET-COUPON|ann%40|token=abc/);
      expect(sent.map((h) => h['X-Visitor-Token'])).toEqual([undefined, 'v1.issued']);
      expect(localStorage.getItem('botsmith:token:7')).toBe('v1.issued');
    } finally {
      history.replaceState(null, '', '/');
    }
  });

  describe('while Botsmith is briefly unavailable (503)', () => {
    const SENTENCE = 'Botsmith is briefly unavailable. Please try again in a moment.';

    async function sendAndExpectSentence(reply: Response) {
      vi.stubGlobal('fetch', vi.fn().mockResolvedValue(reply));
      render(<Widget {...props()} />);
      typeText('hello');
      fireEvent.keyDown(input(), { key: 'Enter' });
      const bubble = await screen.findByText(SENTENCE);
      expect(bubble.classList.contains('error')).toBe(true);
      expect(screen.queryByText('An error occurred while sending your message.')).toBeNull();
      expect(sendButton().disabled).toBe(false);
    }

    it("shows the API's sentence", async () => {
      await sendAndExpectSentence(
        new Response(JSON.stringify({ error: SENTENCE, code: 'SERVICE_UNAVAILABLE' }), {
          status: 503,
          headers: { 'Retry-After': '5', 'Content-Type': 'application/json' },
        }),
      );
    });

    it("shows the same sentence for a proxy's bare 503 page", async () => {
      await sendAndExpectSentence(
        new Response('<html><body>503 Service Temporarily Unavailable</body></html>', {
          status: 503,
          headers: { 'Content-Type': 'text/html' },
        }),
      );
    });

    it('shows the sentence when the stream ends with it', async () => {
      const event = `event: error\ndata: ${JSON.stringify({ error: SENTENCE, code: 'SERVICE_UNAVAILABLE' })}\n\n`;
      await sendAndExpectSentence(new Response(event, { headers: { 'Content-Type': 'text/event-stream' } }));
    });

    it('still says a bare 500 failed to send (only a 503 means "briefly unavailable")', async () => {
      vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('oops', { status: 500 })));
      render(<Widget {...props()} />);
      typeText('hello');
      fireEvent.keyDown(input(), { key: 'Enter' });
      expect(await screen.findByText('An error occurred while sending your message.')).toBeTruthy();
      expect(screen.queryByText(SENTENCE)).toBeNull();
    });
  });

  describe('citations', () => {
    const sse = (done: unknown) =>
      new Response(`event: token\ndata: {"text":"Open 9 to 5."}\n\nevent: done\ndata: ${JSON.stringify(done)}\n\n`, {
        headers: { 'Content-Type': 'text/event-stream' },
      });
    const ask = async () => {
      typeText('When are you open?');
      fireEvent.keyDown(input(), { key: 'Enter' });
      return screen.findByRole('list', { name: 'Sources' });
    };

    it("lists the done event's sources under the answer: a page title links to its URL, a file shows its page", async () => {
      vi.stubGlobal(
        'fetch',
        vi.fn().mockResolvedValue(
          sse({
            message: 'Open 9 to 5.',
            citations: [
              { sourceId: 1, name: 'Opening hours | Cafe', page: null, url: 'https://cafe.example/hours' },
              { sourceId: 2, name: 'Menu.pdf', page: 3, url: null },
            ],
          }),
        ),
      );
      render(<Widget {...props()} />);
      const list = await ask();
      const link = screen.getByRole('link', { name: 'Opening hours | Cafe' });
      expect(link.getAttribute('href')).toBe('https://cafe.example/hours');
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(list.textContent).toContain('Menu.pdf, p. 3');
      expect(screen.getAllByRole('link')).toHaveLength(1);
      expect(list.previousElementSibling?.textContent).toBe('Open 9 to 5.');
    });

    it('reads them from a JSON answer and keeps them across a navigation', async () => {
      vi.stubGlobal(
        'fetch',
        vi
          .fn()
          .mockResolvedValue(
            new Response(
              JSON.stringify({ message: 'Pong', citations: [{ sourceId: 4, name: 'FAQ', page: null, url: null }] }),
            ),
          ),
      );
      const first = render(<Widget {...props()} />);
      expect((await ask()).textContent).toBe('FAQ');
      first.unmount();
      render(<Widget {...props()} />);
      expect((await screen.findByRole('list', { name: 'Sources' })).textContent).toBe('FAQ');
    });

    it('never turns a hostile address into a link and drops malformed entries', async () => {
      vi.stubGlobal(
        'fetch',
        vi.fn().mockResolvedValue(
          sse({
            message: 'Open 9 to 5.',
            citations: [
              { name: 'Evil', url: 'javascript:alert(1)' },
              { name: 'Data', url: 'data:text/html,<script>alert(1)</script>' },
              { name: '<img src=x onerror=alert(1)>', url: ' https://x.example' },
              { name: 42, url: 'https://x.example' },
              null,
              { name: 'Odd page', page: -1 },
            ],
          }),
        ),
      );
      render(<Widget {...props()} />);
      const list = await ask();
      expect(screen.queryAllByRole('link')).toHaveLength(0);
      expect(list.querySelectorAll('li')).toHaveLength(4);
      expect(list.querySelector('img')).toBeNull();
      expect(list.textContent).toContain('<img src=x onerror=alert(1)>');
      expect(list.textContent).toContain('Odd page');
      expect(list.textContent).not.toContain('p. -1');
    });

    it('shows nothing under an answer without sources', async () => {
      vi.stubGlobal('fetch', vi.fn().mockResolvedValue(sse({ message: 'Open 9 to 5.', messageId: 8, citations: [] })));
      render(<Widget {...props()} />);
      typeText('When are you open?');
      fireEvent.keyDown(input(), { key: 'Enter' });
      await waitFor(() => expect(sendButton().disabled).toBe(false));
      // The answer's footer has come (its rating), and no list of sources with it.
      await screen.findByRole('group', { name: 'Rate this answer' });
      expect(screen.queryByRole('list', { name: 'Sources' })).toBeNull();
    });

    it('ignores sources smuggled into local storage with a hostile address', async () => {
      localStorage.setItem(
        'botsmith:chat:7',
        JSON.stringify({
          t: Date.now(),
          m: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: 'Hello', citations: [{ name: 'X', url: 'javascript:alert(1)' }, 'junk'] },
            { role: 'assistant', content: 'Again', citations: 'not a list' },
          ],
        }),
      );
      render(<Widget {...props()} />);
      expect((await screen.findByRole('list', { name: 'Sources' })).textContent).toBe('X');
      expect(screen.queryAllByRole('link')).toHaveLength(0);
    });
  });

  it("shows 'Error fetching bot details.' when the bot could not be loaded and the server said nothing", () => {
    render(<Widget {...props({ bot: null, botError: '' })} />);
    expect(screen.getByText('Error fetching bot details.').classList.contains('error')).toBe(true);
  });

  it("shows the server's reason when the bot could not be loaded", () => {
    render(<Widget {...props({ bot: null, botError: 'Bot not found.' })} />);
    expect(screen.getByText('Bot not found.').classList.contains('error')).toBe(true);
  });

  it('keeps the conversation in local storage (other tabs, reloads) and starts a new one on request', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(JSON.stringify({ message: 'Pong' }))));
    const first = render(<Widget {...props()} />);
    typeText('Ping');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await screen.findByText('Pong');
    first.unmount();

    render(<Widget {...props()} />);
    expect(screen.getByText('Ping')).toBeTruthy();
    expect(screen.getByText('Pong')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'New conversation' }));
    expect(screen.queryByText('Ping')).toBeNull();
    expect(screen.getByText('Hi! How can I help you today?')).toBeTruthy();
    expect(localStorage.getItem('botsmith:chat:7')).toBeNull();
  });

  it('closes on Escape and the close button; the inline window has no close control', () => {
    const onClose = vi.fn();
    const { rerender } = render(<Widget {...props({ onClose })} />);
    fireEvent.keyDown(input(), { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    expect(onClose).toHaveBeenCalledTimes(2);
    rerender(<Widget {...props({ onClose, inline: true })} />);
    expect(screen.queryByRole('button', { name: 'Close chat' })).toBeNull();
  });

  describe('the conversation menu', () => {
    const menuButton = () => screen.getByRole('button', { name: 'More options' });

    async function chatOnce() {
      vi.stubGlobal(
        'fetch',
        vi.fn().mockResolvedValue(new Response(JSON.stringify({ message: 'Pong', messageId: 3 }))),
      );
      render(<Widget {...props()} />);
      typeText('Ping');
      fireEvent.keyDown(input(), { key: 'Enter' });
      await screen.findByText('Pong');
    }

    it('opens with its item focused and closes on Escape, before Escape closes the window', async () => {
      const onClose = vi.fn();
      render(<Widget {...props({ onClose })} />);
      expect(menuButton().getAttribute('aria-expanded')).toBe('false');
      fireEvent.click(menuButton());
      expect(menuButton().getAttribute('aria-expanded')).toBe('true');
      // The menu comes with the window's second chunk, imported on the first click.
      const item = await screen.findByRole('menuitem', { name: 'Delete this conversation' });
      expect(item.ownerDocument.activeElement).toBe(item);
      fireEvent.keyDown(item, { key: 'Escape' });
      expect(screen.queryByRole('menu')).toBeNull();
      expect(onClose).not.toHaveBeenCalled();
      fireEvent.keyDown(input(), { key: 'Escape' });
      expect(onClose).toHaveBeenCalledTimes(1);
    });

    it("deletes the conversation on the server as this visitor, then clears the browser's copy", async () => {
      await chatOnce();
      localStorage.setItem('botsmith:token:7', 'tok-7');
      const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
      vi.stubGlobal('fetch', fetchMock);
      fireEvent.click(menuButton());
      fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete this conversation' }));
      await waitFor(() => expect(screen.queryByText('Ping')).toBeNull());
      const [url, init] = fetchMock.mock.calls.find(([, i]) => (i as RequestInit).method == 'DELETE') as [
        string,
        RequestInit,
      ];
      expect(url).toBe('https://api.example/api/chat/conversations/current');
      expect(init.method).toBe('DELETE');
      expect(JSON.parse(init.body as string)).toEqual({ botId: '7' });
      expect((init.headers as Record<string, string>)['X-Visitor-Token']).toBe('tok-7');
      expect(localStorage.getItem('botsmith:chat:7')).toBeNull();
      expect(screen.getByText('Hi! How can I help you today?')).toBeTruthy();
    });

    it('clears the browser copy when the server has nothing of it (404)', async () => {
      await chatOnce();
      vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('{}', { status: 404 })));
      fireEvent.click(menuButton());
      fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete this conversation' }));
      await waitFor(() => expect(screen.queryByText('Ping')).toBeNull());
    });

    it('keeps the conversation and says so when the server could not delete it', async () => {
      await chatOnce();
      vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
      fireEvent.click(menuButton());
      fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete this conversation' }));
      expect(await screen.findByText('The conversation could not be deleted. Please try again.')).toBeTruthy();
      expect(screen.getByText('Ping')).toBeTruthy();
      expect(localStorage.getItem('botsmith:chat:7')).toContain('Ping');
    });
  });

  it("sends what the host page asked for (Botsmith.send), once per request, the visitor's draft kept", async () => {
    const fetchMock = vi
      .fn()
      .mockImplementation(() => Promise.resolve(new Response(JSON.stringify({ message: 'Sure.' }))));
    vi.stubGlobal('fetch', fetchMock);
    const { rerender } = render(<Widget {...props()} />);
    typeText('half-typed');
    const ask = { text: 'Where is my order?' };
    rerender(<Widget {...props({ ask })} />);
    await screen.findByText('Sure.');
    expect(screen.getByText('Where is my order?').classList.contains('user')).toBe(true);
    expect(input().value).toBe('half-typed');
    rerender(<Widget {...props({ ask })} />);
    expect(chatCalls(fetchMock)).toHaveLength(1);
    rerender(<Widget {...props({ ask: { text: 'Where is my order?' } })} />);
    await waitFor(() => expect(chatCalls(fetchMock)).toHaveLength(2));
  });

  it('shows no bubble for the empty answer of a conversation a person is handling, and stays usable', async () => {
    const s = streamingFetch();
    vi.stubGlobal('fetch', s.fetchMock);
    const { container } = render(<Widget {...props()} />);
    typeText('Are you there?');
    fireEvent.keyDown(input(), { key: 'Enter' });
    s.done('');
    await waitFor(() => expect(sendButton().disabled).toBe(false));
    expect([...container.querySelectorAll('.m')].map((m) => m.textContent)).toEqual([
      'Hi! How can I help you today?',
      'Are you there?',
    ]);
  });

  it('sends who the host page says the visitor is (Botsmith.identify) with each message', async () => {
    const fetchMock = vi
      .fn()
      .mockImplementation(() => Promise.resolve(new Response(JSON.stringify({ message: 'Hi Ada' }))));
    vi.stubGlobal('fetch', fetchMock);
    render(<Widget {...props({ visitor: { name: 'Ada', email: 'ada@example.com' } })} />);
    typeText('Hello');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await screen.findByText('Hi Ada');
    const body = JSON.parse((fetchMock.mock.calls[0] as [string, RequestInit])[1].body as string) as {
      visitor?: unknown;
    };
    expect(body.visitor).toEqual({ name: 'Ada', email: 'ada@example.com' });
  });

  // Issue 28.1: the owner's server's proof (docs/product.md#verified-visitors) goes on in `visitor`,
  // with only the fields the API takes.
  it.each([
    [
      'Botsmith.identify({ token })',
      { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2ln', plan: 'gold' },
      { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2ln' },
    ],
    [
      'Botsmith.identify({ userId, userHash, name, email })',
      { userId: 'u-42', userHash: 'ab'.repeat(32), name: 'Ada', email: 'ada@example.com', sub: 'u-1' },
      { userId: 'u-42', userHash: 'ab'.repeat(32), name: 'Ada', email: 'ada@example.com' },
    ],
  ])('sends the proof of %s with each message, and no other field', async (_call, given, sent) => {
    const fetchMock = vi
      .fn()
      .mockImplementation(() => Promise.resolve(new Response(JSON.stringify({ message: 'Hi Ada' }))));
    vi.stubGlobal('fetch', fetchMock);
    render(<Widget {...props({ visitor: given })} />);
    for (const text of ['Where is my order?', 'And the other one?']) {
      typeText(text);
      fireEvent.keyDown(input(), { key: 'Enter' });
      await waitFor(() => expect(sendButton().disabled).toBe(false));
    }
    const chats = (fetchMock.mock.calls as [string, RequestInit][]).filter(([url]) => url.endsWith('/api/chat'));
    expect(chats).toHaveLength(2);
    for (const [, init] of chats) {
      expect((JSON.parse(init.body as string) as { visitor?: unknown }).visitor).toEqual(sent);
    }
  });

  it('sends no visitor when the page identified no one', async () => {
    const fetchMock = vi
      .fn()
      .mockImplementation(() => Promise.resolve(new Response(JSON.stringify({ message: 'Hi' }))));
    vi.stubGlobal('fetch', fetchMock);
    render(<Widget {...props()} />);
    typeText('Hello');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await screen.findByText('Hi');
    const body = JSON.parse((fetchMock.mock.calls[0] as [string, RequestInit])[1].body as string) as object;
    expect('visitor' in body).toBe(false);
  });

  it("speaks the language it is given, the owner's texts as written", async () => {
    const de = (await import('./lang/de')).default;
    render(<Widget {...props({ t: de, bot: { ...bot, placeholderText: '' } })} />);
    expect(screen.getByRole('dialog', { name: 'Chat mit Support Bot' })).toBeTruthy();
    const box = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Nachricht' });
    expect(box.placeholder).toBe('Schreiben Sie hier Ihre Nachricht...');
    expect(screen.getByRole('button', { name: 'Neue Unterhaltung' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Nachricht senden' })).toBeTruthy();
    // The greeting is the owner's.
    expect(screen.getByText('Hi! How can I help you today?')).toBeTruthy();
    // The menu's texts come with the second chunk, built per language like the window
    // (lang.spec.ts checks each file; the browser test opens the German menu).
    expect(screen.getByRole('button', { name: 'Weitere Optionen' })).toBeTruthy();
  });

  it('is hidden while closed', () => {
    render(<Widget {...props({ open: false })} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
