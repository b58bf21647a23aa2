import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import EN from '../lang/en';
import type { PublicBot } from '../lib/types';
import { Widget } from '../Widget';

/**
 * The window with its second chunk: the lead form (at the cap, on request, after an unanswered
 * answer, before the first message) and a person's replies (docs/product.md#leads-and-handoff).
 */

const base: Partial<PublicBot> = {
  id: 7,
  name: 'Support Bot',
  customGreeting: 'Hi! How can I help you today?',
  model: 'gpt-4o-mini',
  leadCapture: { fields: ['email'], offerWhen: ['cap', 'request'], thankYouText: '' },
  leadOnly: false,
};

function renderWidget(bot: Partial<PublicBot> = {}, open = true) {
  return render(
    <Widget
      botId="7"
      apiOrigin="https://api.example"
      bot={{ ...base, ...bot }}
      botError=""
      open={open}
      inline={false}
      onClose={() => undefined}
      t={EN}
      addCss={() => undefined}
    />,
  );
}

type Route = (init: RequestInit, url: URL) => Response | Promise<Response>;

/**
 * A fetch that answers by path; the replies poll answers "nothing yet" unless a test routes it; a
 * path without a route is a 404 (which ends the replies listener).
 */
function api(routes: Record<string, Route>) {
  const fetchMock = vi.fn((input: string, init: RequestInit = {}) => {
    const url = new URL(input);
    const all: Record<string, Route> = { [MESSAGES]: () => json({ messages: [], handoff: false }), ...routes };
    const route = all[url.pathname];
    return Promise.resolve(route ? route(init, url) : json({ error: 'Not found.' }, 404));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const MESSAGES = '/api/chat/conversations/current/messages';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const calls = (fetchMock: ReturnType<typeof api>, path: string) =>
  fetchMock.mock.calls.filter(([url]) => new URL(url).pathname == path).map(([url, init]) => ({ url, init: init! }));

const messageBox = () => screen.queryByRole('textbox', { name: 'Message' });

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the lead form', () => {
  it('replaces the chat at the cap; a lead goes to the API as this visitor, then the thank-you and the chat', async () => {
    localStorage.setItem('botsmith:token:7', 'tok-7');
    const fetchMock = api({
      '/api/chat/lead': () =>
        json({ message: "Thanks! We'll get back to you soon." }, 201, { 'X-Visitor-Token': 'tok-8' }),
    });
    renderWidget({ leadOnly: true, hidden: true });
    const form = await screen.findByRole('form', { name: 'Leave a message' });
    expect(messageBox()).toBeNull();
    const email = screen.getByRole<HTMLInputElement>('textbox', { name: 'E-mail' });
    // Keyboard and phone friendly: focused, an e-mail keyboard, filled in by the browser, required.
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect([email.type, email.autocomplete, email.required]).toEqual(['email', 'email', true]);

    fireEvent.submit(form);
    expect(screen.getByRole('alert').textContent).toBe('Please leave your e-mail or phone number.');
    expect(calls(fetchMock, '/api/chat/lead')).toHaveLength(0);

    fireEvent.input(email, { target: { value: '  ann@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText("Thanks! We'll get back to you soon.")).toBeTruthy();
    const [lead] = calls(fetchMock, '/api/chat/lead');
    expect(lead.init.method).toBe('POST');
    expect(JSON.parse(lead.init.body as string)).toEqual({ botId: '7', email: 'ann@example.com' });
    expect((lead.init.headers as Record<string, string>)['X-Visitor-Token']).toBe('tok-7');
    expect(localStorage.getItem('botsmith:token:7')).toBe('tok-8');
    // The conversation is now a person's: the form is gone, the visitor may write, replies are listened for.
    expect(screen.queryByRole('form', { name: 'Leave a message' })).toBeNull();
    expect(messageBox()).toBeTruthy();
    await waitFor(() => expect(calls(fetchMock, '/api/chat/conversations/current/events')).toHaveLength(1));
    // The thank-you is kept with the conversation: after a navigation the form does not come back.
    cleanup();
    renderWidget({ leadOnly: true, hidden: true });
    expect(screen.getByText("Thanks! We'll get back to you soon.")).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Leave a message' })).toBeNull();
  });

  it("shows the owner's thank-you, and the server's reason when it refuses (the form and what was typed kept)", async () => {
    let refuse = true;
    api({
      '/api/chat/lead': () =>
        refuse
          ? json({ error: 'This form does not ask for a phone number.', code: 'VALIDATION_FAILED' }, 400)
          : json({ message: 'x' }, 201),
    });
    renderWidget({
      leadOnly: true,
      leadCapture: { fields: ['name', 'email', 'phone', 'message'], offerWhen: ['cap'], thankYouText: 'Talk soon!' },
    });
    await screen.findByRole('form', { name: 'Leave a message' });
    const phone = screen.getByRole<HTMLInputElement>('textbox', { name: 'Phone' });
    // With both asked for, either will do: neither is required on its own.
    expect(phone.type).toBe('tel');
    expect(phone.required).toBe(false);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'E-mail' }).required).toBe(false);
    expect(screen.getByRole('textbox', { name: 'Message' }).tagName).toBe('TEXTAREA');
    fireEvent.input(phone, { target: { value: '+1 555 0100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This form does not ask for a phone number.');
    expect(phone.value).toBe('+1 555 0100');
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Talk soon!')).toBeTruthy();
  });

  it('says so in its own words when the lead cannot be sent at all', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
    renderWidget({ leadOnly: true });
    await screen.findByRole('form', { name: 'Leave a message' });
    fireEvent.input(screen.getByRole('textbox', { name: 'E-mail' }), { target: { value: 'ann@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your message could not be sent. Please try again.');
  });

  it('is offered from the menu ("Talk to a person") only when the bot offers it on request', async () => {
    api({});
    renderWidget();
    expect(screen.queryByRole('form')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Talk to a person' }));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(await screen.findByRole('form', { name: 'Talk to a person' })).toBeTruthy();
    // The chat stays usable beside it.
    expect(messageBox()).toBeTruthy();
    cleanup();

    // Not once a lead was sent in this conversation.
    localStorage.setItem(
      'botsmith:chat:7',
      JSON.stringify({ t: Date.now(), m: [{ role: 'note', content: 'Thanks!' }] }),
    );
    renderWidget();
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    await screen.findByRole('menuitem', { name: 'Delete this conversation' });
    expect(screen.queryByRole('menuitem', { name: 'Talk to a person' })).toBeNull();
    cleanup();
    localStorage.clear();

    renderWidget({ leadCapture: { fields: ['email'], offerWhen: ['cap'], thankYouText: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    await screen.findByRole('menuitem', { name: 'Delete this conversation' });
    expect(screen.queryByRole('menuitem', { name: 'Talk to a person' })).toBeNull();
  });

  it('follows an answer flagged unanswered when the bot offers it then, and not otherwise', async () => {
    for (const offerWhen of [['unanswered'], ['request']] as const) {
      api({ '/api/chat': () => json({ message: "I'm sorry, I couldn't find that.", messageId: 4, unanswered: true }) });
      renderWidget({ leadCapture: { fields: ['email'], offerWhen: [...offerWhen], thankYouText: '' } });
      fireEvent.input(messageBox()!, { target: { value: 'Do you ship to Mars?' } });
      fireEvent.keyDown(messageBox()!, { key: 'Enter' });
      await screen.findByText("I'm sorry, I couldn't find that.");
      await screen.findByRole('group', { name: 'Rate this answer' });
      expect(!!screen.queryByRole('form', { name: 'Talk to a person' })).toBe(offerWhen[0] == 'unanswered');
      cleanup();
      localStorage.clear();
    }
  });

  it('comes before the first message when the bot offers it then, and goes with the first message', async () => {
    api({ '/api/chat': () => json({ message: 'Hello!', messageId: 4 }) });
    renderWidget({ leadCapture: { fields: ['email'], offerWhen: ['start'], thankYouText: '' } });
    expect(await screen.findByRole('form', { name: 'Talk to a person' })).toBeTruthy();
    fireEvent.input(messageBox()!, { target: { value: 'Just a question' } });
    fireEvent.keyDown(messageBox()!, { key: 'Enter' });
    await screen.findByText('Hello!');
    expect(screen.queryByRole('form', { name: 'Talk to a person' })).toBeNull();
  });
});

describe('the lead form, whole and cancellable', () => {
  it('scrolls the conversation to its end so Send shows, and Cancel closes it until asked for again', async () => {
    const fetchMock = api({});
    renderWidget();
    const log = screen.getByRole('log');
    // jsdom lays nothing out: a conversation taller than its box, scrolled to the top.
    Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 900 });
    log.scrollTop = 0;
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Talk to a person' }));
    const form = await screen.findByRole('form', { name: 'Talk to a person' });
    // One name: the form says what the menu said; "Leave a message" belongs to the cap only.
    expect(form.querySelector('strong')!.textContent).toBe('Talk to a person');
    expect(log.scrollTop).toBe(900);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'E-mail' })));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).toBeNull();
    // Back to the chat, nothing sent.
    expect(document.activeElement).toBe(messageBox());
    expect(calls(fetchMock, '/api/chat/lead')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Talk to a person' }));
    expect(await screen.findByRole('form', { name: 'Talk to a person' })).toBeTruthy();
  });

  it('offered before the first message, Cancel puts it away; at the cap it has no Cancel (it is the only way)', async () => {
    api({});
    renderWidget({ leadCapture: { fields: ['email'], offerWhen: ['start', 'request'], thankYouText: '' } });
    await screen.findByRole('form', { name: 'Talk to a person' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).toBeNull();
    cleanup();
    renderWidget({ leadOnly: true, hidden: true });
    await screen.findByRole('form', { name: 'Leave a message' });
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });
});

describe("a person's replies", () => {
  /** An events stream the test writes replies to. */
  function eventStream() {
    let ctrl!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctrl = c) });
    return {
      response: () => new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }),
      send: (id: number, content: string) =>
        ctrl.enqueue(
          new TextEncoder().encode(
            `id: ${id}\nevent: message\ndata: ${JSON.stringify({ id, role: 'agent', content, name: 'Dana', createdAt: '' })}\n\n`,
          ),
        ),
    };
  }

  it('appear in the open window under the name the owner chose, are kept, and the next stream starts after them', async () => {
    const stream = eventStream();
    const fetchMock = api({
      '/api/chat': () => json({ message: '', messageId: null, citations: [], handoff: true }),
      '/api/chat/conversations/current/events': () => stream.response(),
    });
    const { container } = renderWidget();
    fireEvent.input(messageBox()!, { target: { value: 'Is anyone there?' } });
    fireEvent.keyDown(messageBox()!, { key: 'Enter' });
    // The bot stays quiet; the window listens once the message is through.
    await waitFor(() => expect(calls(fetchMock, '/api/chat/conversations/current/events')).toHaveLength(1));
    expect(calls(fetchMock, '/api/chat/conversations/current/events')[0].url).toContain('botId=7&after=0');
    stream.send(41, 'Hi, Dana here. How can I help?\nAsk away.');
    const bubble = (await screen.findByText('Dana')).parentElement!;
    expect(bubble.classList.contains('agent')).toBe(true);
    expect(bubble.textContent).toBe('DanaHi, Dana here. How can I help?\nAsk away.');
    // Typed text, never Markdown or markup.
    stream.send(42, '<img src=x onerror=alert(1)> **not bold**');
    await screen.findByText('<img src=x onerror=alert(1)> **not bold**', { exact: false });
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('strong:not(.t strong)')).toBeNull();

    cleanup();
    const again = api({});
    renderWidget({}, false);
    // Stored with the conversation; a closed window still listens while a person handles it.
    expect(screen.queryByRole('dialog')).toBeNull(); // closed
    await waitFor(() => expect(calls(again, '/api/chat/conversations/current/events')).toHaveLength(1));
    expect(calls(again, '/api/chat/conversations/current/events')[0].url).toContain('after=42');
    const stored = (JSON.parse(localStorage.getItem('botsmith:chat:7')!) as { m: { role: string; name?: string }[] }).m;
    expect(stored.filter((m) => m.role == 'agent').map((m) => m.name)).toEqual(['Dana', 'Dana']);
  });

  it('sent while the visitor was away show when the window opens with the conversation', async () => {
    localStorage.setItem(
      'botsmith:chat:7',
      JSON.stringify({ t: Date.now(), m: [{ role: 'user', content: 'Anyone?' }] }),
    );
    api({
      [MESSAGES]: () =>
        json({
          messages: [{ id: 12, role: 'agent', content: 'Back now!', name: 'Sam', createdAt: '' }],
          handoff: true,
        }),
    });
    renderWidget();
    expect((await screen.findByText('Back now!')).classList.contains('agent')).toBe(true);
  });

  it('are not listened for before there is a conversation', async () => {
    const fetchMock = api({});
    renderWidget();
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
