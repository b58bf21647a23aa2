import texts from '#texts';
import { readCitations } from './citations';
import { createSseParser } from './sse';
import { saveVisitorToken, visitorToken } from './storage';
import type { MessageRating } from '@botsmith/contract';
import type { ChatMessage, Citation, PublicBot, Visitor } from './types';

/** Cookies go only to the product's own origin (the dashboard preview, the /widget page), never cross-site. */
export function credentialsFor(apiOrigin: string): RequestCredentials {
  return location.origin == apiOrigin ? 'include' : 'omit';
}

async function errorText(res: Response, fallback: string): Promise<string> {
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

export interface ChatRequest {
  apiOrigin: string;
  botId: string;
  chatHistory: ChatMessage[];
  prompt: string;
  model: string;
  visitor?: Visitor;
}

export type ChatResult =
  { message: string; citations?: Citation[]; id?: number; error?: undefined } | { message?: undefined; error: string };

/**
 * Sends one message and resolves with the full reply or an error text for an error bubble.
 * Asks for server-sent events and calls `onToken` as tokens arrive; a plain JSON answer works too.
 * Never rejects; resolves with null when aborted (a new conversation was started).
 */
export async function sendChat(
  req: ChatRequest,
  onToken: (text: string) => void,
  signal: AbortSignal,
): Promise<ChatResult | null> {
  const { apiOrigin, ...body } = req;
  try {
    const headers = visitorHeaders(req.botId);
    headers.Accept = 'text/event-stream';
    // The body is the request without the origin: botId, chatHistory, prompt, model.
    const res = await fetch(`${apiOrigin}/api/chat`, {
      method: 'POST',
      credentials: credentialsFor(apiOrigin),
      signal,
      headers,
      body: JSON.stringify(body),
    });
    // Issued with the answer (a new visitor's first, or after a change of network): keep it.
    const issued = res.headers.get('X-Visitor-Token');
    if (issued) saveVisitorToken(req.botId, issued);
    if (!res.ok) return { error: await errorText(res, res.status == 503 ? texts.unavailable : texts.sendFailed) };
    if (!(res.headers.get('Content-Type') || '').includes('text/event-stream'))
      return answerOf((await res.json()) as AnswerBody);
    return await readStream(res, onToken);
  } catch {
    return signal.aborted ? null : { error: texts.sendFailed };
  }
}

/** What every call about the visitor's conversation sends: JSON, the page, the visitor's token. */
function visitorHeaders(botId: string): Record<string, string> {
  // The page's origin and path only: a query or fragment may hold a visitor's tokens or e-mail.
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Page-Url': (location.origin + location.pathname).slice(0, 2048),
  };
  const token = visitorToken(botId);
  if (token) headers['X-Visitor-Token'] = token;
  return headers;
}

/** Rates an answer (POST /api/chat/feedback) as the visitor who got it; true once the server took it. */
export async function sendFeedback(apiOrigin: string, botId: string, messageId: number, rating: MessageRating) {
  try {
    const res = await fetch(`${apiOrigin}/api/chat/feedback`, {
      method: 'POST',
      credentials: credentialsFor(apiOrigin),
      headers: visitorHeaders(botId),
      body: JSON.stringify({ botId, messageId, rating }),
    });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Deletes the visitor's conversations with the bot on the server (DELETE
 * /api/chat/conversations/current); true once nothing is left there, including when there was
 * nothing to delete (404: the visitor never sent a message, or it is already gone).
 */
export async function deleteConversation(apiOrigin: string, botId: string): Promise<boolean> {
  try {
    const res = await fetch(`${apiOrigin}/api/chat/conversations/current`, {
      method: 'DELETE',
      credentials: credentialsFor(apiOrigin),
      headers: visitorHeaders(botId),
      body: JSON.stringify({ botId }),
    });
    return res.ok || res.status == 404;
  } catch {
    return false;
  }
}

type AnswerBody = { message?: unknown; messageId?: unknown; citations?: unknown; error?: unknown };

/** A whole answer (a JSON reply, or the stream's `done` or `error` event): the answer, or its error text. */
function answerOf(body: AnswerBody): ChatResult {
  return typeof body.message == 'string'
    ? { message: body.message, citations: readCitations(body.citations), id: body.messageId as number }
    : { error: typeof body.error == 'string' && body.error ? body.error : texts.error };
}

async function readStream(res: Response, onToken: (text: string) => void): Promise<ChatResult> {
  // Assigned inside the parser callback; the cast keeps TypeScript from narrowing it to null here.
  let result = null as ChatResult | null;
  let streamed = '';
  const parser = createSseParser((event, data) => {
    if (result) return;
    let body: AnswerBody & { text?: unknown };
    try {
      body = JSON.parse(data) as typeof body;
    } catch {
      return;
    }
    if (event == 'token' && typeof body.text == 'string') {
      streamed += body.text;
      onToken(body.text);
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
