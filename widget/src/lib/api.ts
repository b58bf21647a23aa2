import texts from '#texts';
import { createSseParser } from './sse';
import { saveVisitorToken, visitorToken } from './storage';
import type {
  ChatDoneEvent,
  ChatHistoryItem,
  ChatRequest as ApiChatRequest,
  ChatStreamEvents,
} from '@botsmith/contract';
import type { Citation, PublicBot, Visitor } from './types';

/** Cookies go only to the product's own origin (the dashboard preview, the /widget page), never cross-site. */
export function credentialsFor(apiOrigin: string): RequestCredentials {
  return location.origin == apiOrigin ? 'include' : 'omit';
}

/** The server's error text, or `fallback` when it gave none (a proxy's page, an empty body). */
export async function errorText(res: Response, fallback: string): Promise<string> {
  try {
    const body = (await res.json()) as { error?: unknown };
    return typeof body.error == 'string' && body.error ? body.error : fallback;
  } catch {
    return fallback;
  }
}

export type BotResult = { bot: Partial<PublicBot>; error?: undefined } | { bot?: undefined; error: string };

/**
 * The bot's public face, or the server's error text; '' when there is none (the window then
 * shows 'Error fetching bot details.' in the visitor's language).
 */
export async function fetchBot(apiOrigin: string, botId: string): Promise<BotResult> {
  try {
    const res = await fetch(`${apiOrigin}/api/widget/bots/${encodeURIComponent(botId)}`, {
      credentials: credentialsFor(apiOrigin),
    });
    // A body that is not JSON (a proxy's error page) lands in the catch below.
    const body = (await res.json()) as { bot?: Partial<PublicBot>; error?: unknown };
    if (res.ok && body.bot) return { bot: body.bot };
    return { error: typeof body.error == 'string' ? body.error : '' };
  } catch {
    return { error: '' };
  }
}

/**
 * POST /api/chat's body (the contract's ChatRequest, contract/src/chat.ts) as the widget sends it:
 * the bot's id as its data attribute's text, and the API's origin to send it to.
 */
export type ChatRequest = ApiChatRequest & { apiOrigin: string; botId: string; chatHistory: ChatHistoryItem[] };

/**
 * An answer, or an error text. `handoff`: a person handles the conversation and the bot stayed
 * quiet (`message` is ''); `unanswered`: the answer is flagged unanswered (docs/product.md#owner-replies).
 */
export type ChatResult =
  | { message: string; citations?: Citation[]; id?: number; handoff?: boolean; unanswered?: boolean; error?: undefined }
  | { message?: undefined; handoff?: undefined; unanswered?: undefined; error: string };

/**
 * Sends one message and resolves with the full reply or an error text for an error bubble.
 * Asks for server-sent events and calls `onToken` as tokens arrive (`onAction` when the bot starts
 * one of its actions: what it checks); a plain JSON answer works too.
 * Never rejects; resolves with null when aborted (a new conversation was started).
 */
export async function sendChat(
  req: ChatRequest,
  onToken: (text: string) => void,
  signal: AbortSignal,
  onAction: (subject: string) => void = () => undefined,
): Promise<ChatResult | null> {
  const { apiOrigin, visitor, ...body } = req;
  try {
    // The body is the request without the origin: botId, chatHistory, prompt, model, and of the
    // page's `Botsmith.identify` object only the fields the API takes (undefined ones vanish).
    const res = await visitorFetch(apiOrigin, req.botId, '/api/chat', {
      method: 'POST',
      signal,
      headers: { Accept: 'text/event-stream' },
      body: JSON.stringify({ ...body, visitor: visitor && visitorFields(visitor) }),
    });
    if (!res.ok) return { error: await errorText(res, res.status == 503 ? texts.unavailable : texts.sendFailed) };
    if (!(res.headers.get('Content-Type') || '').includes('text/event-stream'))
      return answerOf((await res.json()) as AnswerBody);
    return await readStream(res, onToken, onAction);
  } catch {
    return signal.aborted ? null : { error: texts.sendFailed };
  }
}

/** Who the page says the visitor is, and its proof (docs/product.md#verified-visitors): the five fields the API takes. */
function visitorFields({ name, email, token, userId, userHash }: Visitor): Visitor {
  return { name, email, token, userId, userHash };
}

/** The host page's proof of who the visitor is (`Botsmith.identify`), sent on every visitor call. */
let proof = '';

/**
 * Keeps `Botsmith.identify`'s proof for X-Visitor-Identity (docs/product.md#verified-visitors): the
 * JWT (only its own characters, so no page value can make fetch throw) or `userId=…&userHash=…`.
 * A rating, a lead or a deletion then reaches the verified visitor's conversation on any device.
 */
export function setProof({ token, userId, userHash }: Visitor = {}): void {
  proof =
    token && /^[\w.-]+$/.test(token) ? token : userId && userHash ? `${new URLSearchParams({ userId, userHash })}` : '';
}

/**
 * Every call about the visitor's conversation (`path` on the API): JSON, the page, the visitor's
 * token, cookies only on the product's own origin. A token the server issues with the answer (a
 * new visitor's first message or lead, or after a change of network) is kept for the next call.
 */
export async function visitorFetch(
  apiOrigin: string,
  botId: string,
  path: string,
  init: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> } = {},
): Promise<Response> {
  const token = visitorToken(botId);
  const res = await fetch(apiOrigin + path, {
    ...init,
    credentials: credentialsFor(apiOrigin),
    headers: {
      'Content-Type': 'application/json',
      // The page's origin and path only: a query or fragment may hold a visitor's tokens or e-mail.
      'X-Page-Url': (location.origin + location.pathname).slice(0, 2048),
      ...(token ? { 'X-Visitor-Token': token } : {}),
      ...(proof ? { 'X-Visitor-Identity': proof } : {}),
      ...init.headers,
    },
  });
  const issued = res.headers.get('X-Visitor-Token');
  if (issued) saveVisitorToken(botId, issued);
  return res;
}

/**
 * A JSON answer or a stream event's data as received: the contract's fields (ChatDoneEvent,
 * ChatStreamEvents), each unchecked until read.
 */
type AnswerBody = Partial<Record<keyof ChatDoneEvent | keyof ChatStreamEvents['error'], unknown>>;

/** A whole answer (a JSON reply, or the stream's `done` or `error` event): the answer, or its error text. */
function answerOf(body: AnswerBody): ChatResult {
  return typeof body.message == 'string'
    ? {
        message: body.message,
        // Checked where they are shown (extras/AnswerFooter), as stored ones must be.
        citations: body.citations as Citation[],
        id: body.messageId as number,
        handoff: body.handoff as boolean | undefined,
        unanswered: body.unanswered as boolean | undefined,
      }
    : { error: typeof body.error == 'string' && body.error ? body.error : texts.error };
}

async function readStream(
  res: Response,
  onToken: (text: string) => void,
  onAction: (subject: string) => void,
): Promise<ChatResult> {
  // Assigned inside the parser callback; the cast keeps TypeScript from narrowing it to null here.
  let result = null as ChatResult | null;
  let streamed = '';
  const parser = createSseParser((event, data) => {
    if (result) return;
    let body: AnswerBody & Partial<Record<keyof ChatStreamEvents['token'] | keyof ChatStreamEvents['action'], unknown>>;
    try {
      body = JSON.parse(data) as typeof body;
    } catch {
      return;
    }
    if (event == 'token' && typeof body.text == 'string') {
      streamed += body.text;
      onToken(body.text);
    } else if (event == 'action' && typeof body.subject == 'string') {
      onAction(body.subject);
    } else if (event == 'done') {
      // The tokens make the answer if the final event leaves the whole text out.
      result = answerOf({ message: streamed, ...body });
    } else if (event == 'error') {
      result = answerOf({ error: body.error });
    }
  });
  const decoder = new TextDecoder();
  if (res.body) {
    const reader = res.body.getReader();
    while (!result) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    if (result) void reader.cancel().catch(() => undefined);
  } else {
    parser.push(await res.text());
  }
  parser.push(decoder.decode());
  parser.end();
  // A stream that ends without its final event lost the rest of the reply.
  return result ?? { error: texts.error };
}
