import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { CloseIcon, MoreIcon, NewChatIcon, SendIcon } from './components/Icons';
import { MessageBubble } from './components/MessageBubble';
import { TypingDots } from './components/TypingDots';
import { sendChat } from './lib/api';
import { CHAT_LIMITS, chatHistoryFor } from './lib/history';
import { canSend, enterAction, outgoing } from './lib/input';
import type { Texts } from './lib/i18n';
import { loadConversation, saveConversation } from './lib/storage';
import type { ChatMessage, WindowProps } from './lib/types';

/** The window's second chunk (src/extras/), as the window holds it once imported. */
type Extras = typeof import('./extras');

/** The window's second chunk, imported once for every widget of the page. */
let loadingExtras: Promise<Extras> | undefined;

/** Timings of the chat window (docs/product.md#widget-messages). */
const GLOW_MS = 400;
const SCROLLBAR_IDLE_MS = 1500;

/**
 * The chat window: banner (with the conversation's menu), conversation, input. Rendered by the
 * loader inside its shadow root, with the widget's own texts in the visitor's language (`t`).
 * The conversation's menu, an answer's sources and rating, the lead form and a person's replies
 * come with the window's second chunk (`extras`, src/extras/), imported once there is a
 * conversation, a form to offer or the menu to show.
 */
export function Widget({
  botId,
  apiOrigin,
  bot,
  botError,
  open,
  inline,
  onClose,
  ask,
  visitor,
  t,
  addCss,
}: WindowProps & { t: Texts; addCss?: (css: string) => void }) {
  const [messages, setMessages] = useState<ChatMessage[]>(() => loadConversation(botId));
  const [draft, setDraft] = useState('');
  const [pending, setPending] = useState(false);
  /** What the bot's action is checking while it runs ("order"), from the stream's `action` event. */
  const [checking, setChecking] = useState<string | null>(null);
  /** The reply streaming in, null before its first token. */
  const [streamed, setStreamed] = useState<string | null>(null);
  const [glow, setGlow] = useState(false);
  const [scrollIdle, setScrollIdle] = useState(true);
  const [menu, setMenu] = useState(false);
  const [extras, setExtras] = useState<Extras | null>(null);
  /** The visitor asked for a person, or an answer was flagged unanswered: the lead form is offered. */
  const [asked, setAsked] = useState(false);
  const logRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const inFlightRef = useRef<AbortController | null>(null);
  const timersRef = useRef<{ glow?: number; scroll?: number }>({});

  // A layout effect, so a navigation right after a reply cannot beat the save.
  useLayoutEffect(() => saveConversation(botId, messages), [botId, messages]);

  useEffect(() => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages, streamed, pending, open]);

  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  useLayoutEffect(() => {
    // Grow the box with its text, up to the CSS max-height (CSSOM styles are CSP-safe).
    const el = inputRef.current;
    if (!el) return;
    el.style.height = '';
    if (draft) el.style.height = `${el.scrollHeight + 2}px`;
  }, [draft]);

  useEffect(
    () => () => {
      inFlightRef.current?.abort();
      clearTimeout(timersRef.current.glow);
      clearTimeout(timersRef.current.scroll);
    },
    [],
  );

  const offer: string[] = bot?.leadCapture?.offerWhen || [];
  /** A lead was sent in this conversation (its thank-you is shown). */
  const leadSent = messages.some((m) => m.role == 'note');
  // At the cap the bot cannot answer: the lead form replaces the input until a lead is sent.
  const leadOnly = bot?.leadOnly && !leadSent;
  const wantsExtras = menu || leadOnly || messages.length > 0 || offer.includes('start');
  useEffect(() => {
    if (wantsExtras && !extras)
      (loadingExtras ??= import('./extras')).then(
        (m) => {
          addCss?.(m.css);
          setExtras(m);
        },
        () => (loadingExtras = undefined), // tried again on the next need, or the menu's next click
      );
    // Run when the need arises: `extras` only changes from here, `addCss` is the loader's one function.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wantsExtras, menu]);

  // The host page's Botsmith.send(text): each call is a new object, sent once; `send` reads the
  // state of the render it belongs to, which is the current one when `ask` changes.
  useEffect(() => {
    if (ask) void send(ask.text);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ask]);

  const greeting: ChatMessage[] = bot?.customGreeting ? [{ role: 'assistant', content: bot.customGreeting }] : [];
  const shown: ChatMessage[] = [
    ...greeting,
    // The server's reason, or the widget's own when it gave none.
    ...(bot ? [] : [{ role: 'error' as const, content: botError || t.botFailed }]),
    ...messages,
  ];

  /** Sends the draft, or a starter question the visitor tapped (the draft then stays). */
  async function send(text = draft): Promise<void> {
    if (!canSend(text, pending)) return;
    const prompt = outgoing(text);
    const chatHistory = chatHistoryFor([...greeting, ...messages]);
    setMessages((ms) => [...ms, { role: 'user', content: prompt }]);
    if (text == draft) setDraft('');
    setPending(true);
    setStreamed(null);
    setGlow(true);
    clearTimeout(timersRef.current.glow);
    timersRef.current.glow = window.setTimeout(() => setGlow(false), GLOW_MS);

    const ctrl = new AbortController();
    inFlightRef.current = ctrl;
    const result = await sendChat(
      { apiOrigin, botId, chatHistory, prompt, model: bot?.model ?? bot?.modelLabel ?? '', visitor },
      (text) => {
        setChecking(null);
        setStreamed((s) => (s ?? '') + text);
      },
      ctrl.signal,
      setChecking,
    );
    // Null or aborted: the visitor started a new conversation meanwhile.
    if (!result || ctrl.signal.aborted) return;
    inFlightRef.current = null;
    setStreamed(null);
    setChecking(null);
    setPending(false);
    // An empty answer: a person is handling the conversation and the bot stays quiet
    // (docs/product.md#leads-and-handoff); there is no bubble to show, their reply will come.
    if (result.unanswered && offer.includes('unanswered')) setAsked(true);
    if (result.message == '') return;
    setMessages((ms) => [
      ...ms,
      result.error != null
        ? { role: 'error', content: result.error }
        : { role: 'assistant', content: result.message, citations: result.citations, id: result.id },
    ]);
  }

  function newConversation(): void {
    inFlightRef.current?.abort();
    inFlightRef.current = null;
    setMessages([]);
    setPending(false);
    setStreamed(null);
    setChecking(null);
    setAsked(false);
    inputRef.current?.focus();
  }

  function onScroll(): void {
    setScrollIdle(false);
    clearTimeout(timersRef.current.scroll);
    timersRef.current.scroll = window.setTimeout(() => setScrollIdle(true), SCROLLBAR_IDLE_MS);
  }

  const name = bot?.name || 'Chat';
  return (
    <div
      class={inline ? 'w inline' : 'w'}
      role="dialog"
      aria-label={t.chatWith.replace('%s', name)}
      hidden={!open}
      onKeyDown={(e) => {
        // Escape closes the menu first, then the window.
        if (e.key != 'Escape') return;
        if (menu) setMenu(false);
        else if (!inline) onClose();
      }}
    >
      <div class="b">
        <div class="t">
          <strong>{name}</strong>
          {bot?.bannerDisclaimer ? <small>{bot.bannerDisclaimer}</small> : null}
        </div>
        <button type="button" class="ib" aria-label={t.newChat} title={t.newChat} onClick={newConversation}>
          <NewChatIcon />
        </button>
        <button
          type="button"
          class="ib"
          aria-label={t.menu}
          title={t.menu}
          aria-haspopup="menu"
          aria-expanded={menu}
          onClick={() => setMenu(!menu)}
        >
          <MoreIcon />
        </button>
        {inline ? null : (
          <button type="button" class="ib" aria-label={t.close} title={t.close} onClick={onClose}>
            <CloseIcon />
          </button>
        )}
        {menu && extras ? (
          <extras.Menu
            talk={offer.includes('request') && !bot?.leadOnly && !leadSent}
            onTalk={() => {
              setMenu(false);
              setAsked(true);
            }}
            onClose={() => setMenu(false)}
            stop={() => inFlightRef.current?.abort()}
            onDeleted={newConversation}
            setMessages={setMessages}
            apiOrigin={apiOrigin}
            botId={botId}
          />
        ) : null}
      </div>
      <div
        ref={logRef}
        class={scrollIdle ? 'log idle' : 'log'}
        role="log"
        aria-live="polite"
        aria-label={t.log}
        tabIndex={0}
        onScroll={onScroll}
      >
        {shown.map((m, i) => (
          <MessageBubble
            key={i}
            message={m}
            footer={
              extras && (
                <extras.AnswerFooter message={m} apiOrigin={apiOrigin} botId={botId} setMessages={setMessages} />
              )
            }
          />
        ))}
        {/* Starter questions: tapped, one is sent as if typed; they go with the first message. */}
        {messages.length || leadOnly
          ? null
          : bot?.starterQuestions?.map((q) => (
              <button type="button" class="m sq" onClick={() => void send(q)}>
                {q}
              </button>
            ))}
        {pending && checking ? (
          <div class="m assistant act" role="status">
            {t.checking.replace('%s', checking)}
          </div>
        ) : null}
        {pending ? (
          streamed == null ? (
            <TypingDots label={t.typing} />
          ) : (
            <MessageBubble message={{ role: 'assistant', content: streamed }} streaming />
          )
        ) : null}
        {extras && bot ? (
          <extras.Handoff
            apiOrigin={apiOrigin}
            botId={botId}
            bot={bot}
            messages={messages}
            setMessages={setMessages}
            open={open}
            pending={pending}
            asked={asked}
            onCancel={() => {
              setAsked(false);
              inputRef.current?.focus();
            }}
          />
        ) : null}
      </div>
      {leadOnly ? null : (
        <form
          class="f"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <textarea
            ref={inputRef}
            rows={1}
            maxLength={CHAT_LIMITS.promptMaxChars}
            aria-label={t.input}
            placeholder={bot?.placeholderText || t.placeholder}
            value={draft}
            onInput={(e) => setDraft(e.currentTarget.value)}
            onKeyDown={(e) => {
              const action = enterAction(e, pending);
              if (action == 'default') return;
              e.preventDefault();
              if (action == 'send') void send();
            }}
          />
          <button type="submit" class={glow ? 's glow' : 's'} aria-label={t.send} disabled={pending}>
            <SendIcon />
          </button>
        </form>
      )}
      {bot?.modelLabel ? <div class="ml">{bot.modelLabel}</div> : null}
    </div>
  );
}
