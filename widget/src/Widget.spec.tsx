import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicBot, WindowProps } from './lib/types';
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

function props(over: Partial<WindowProps> = {}): WindowProps {
  return {
    botId: '7',
    apiOrigin: 'https://api.example',
    bot,
    botError: '',
    open: true,
    inline: false,
    onClose: vi.fn(),
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
    done: (m: string) => {
      ctrl.enqueue(enc.encode(`event: done\ndata: ${JSON.stringify({ message: m, costCents: 4 })}\n\n`));
      ctrl.close();
    },
  };
}

const input = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
const sendButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Send message' });
const typeText = (text: string) => fireEvent.input(input(), { target: { value: text } });

beforeEach(() => sessionStorage.clear());
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

  it('falls back to the brief placeholder', () => {
    render(<Widget {...props({ bot: { ...bot, placeholderText: '' } })} />);
    expect(input().placeholder).toBe('Type your message here...');
  });

  it('sets the window colours as CSS variables', () => {
    render(<Widget {...props()} />);
    const w = screen.getByRole('dialog');
    expect(w.style.getPropertyValue('--user')).toBe('linear-gradient(to right, #ff9800, #ff9800)');
    expect(w.style.getPropertyValue('--user-fg')).toBe('#000000');
    expect(w.style.getPropertyValue('--asst')).toBe('#f1f0f0');
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

  it("shows 'Error fetching bot details.' when the bot could not be loaded", () => {
    render(<Widget {...props({ bot: null, botError: 'Error fetching bot details.' })} />);
    expect(screen.getByText('Error fetching bot details.').classList.contains('error')).toBe(true);
  });

  it('keeps the conversation in session storage and starts a new one on request', async () => {
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
    expect(sessionStorage.getItem('botsmith:chat:7')).toBeNull();
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

  it('is hidden while closed', () => {
    render(<Widget {...props({ open: false })} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
