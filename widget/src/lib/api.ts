import { BOT_FETCH_FAILED, GENERIC_ERROR, SEND_FAILED } from './messages';
import { createSseParser } from './sse';
import { visitorId } from './storage';
import type { ChatMessage, PublicBot } from './types';

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

/** The bot's public face, or the server's error text ('Error fetching bot details.' if none). */
export async function fetchBot(apiOrigin: string, botId: string): Promise<BotResult> {
  try {
    const res = await fetch(`${apiOrigin}/api/widget/bots/${encodeURIComponent(botId)}`, {
      credentials: credentialsFor(apiOrigin),
    });
    // A body that is not JSON (a proxy's error page) lands in the catch below.
    const body = (await res.json()) as { bot?: Partial<PublicBot>; error?: unknown };
    if (res.ok && body.bot) return { bot: body.bot };
    return { error: typeof body.error == 'string' && body.error ? body.error : BOT_FETCH_FAILED };
  } catch {
    return { error: BOT_FETCH_FAILED };
  }
}

export interface ChatRequest {
  apiOrigin: string;
  botId: string;
  chatHistory: ChatMessage[];
  prompt: string;
  model: string;
}

export type ChatResult = { message: string; error?: undefined } | { message?: undefined; error: string };

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
  try {
    const res = await fetch(`${req.apiOrigin}/api/chat`, {
      method: 'POST',
      credentials: credentialsFor(req.apiOrigin),
      signal,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
        'X-Page-Url': location.href.slice(0, 2048),
        'X-Visitor-Id': visitorId(),
      },
      body: JSON.stringify({
        botId: req.botId,
        chatHistory: req.chatHistory,
        prompt: req.prompt,
        model: req.model,
      }),
    });
    if (!res.ok) return { error: await errorText(res, SEND_FAILED) };
    if (!(res.headers.get('Content-Type') || '').includes('text/event-stream')) {
      const body = (await res.json()) as { message?: unknown; error?: unknown };
      if (typeof body.message == 'string') return { message: body.message };
      return { error: typeof body.error == 'string' && body.error ? body.error : GENERIC_ERROR };
    }
    return await readStream(res, onToken);
  } catch {
    return signal.aborted ? null : { error: SEND_FAILED };
  }
}

async function readStream(res: Response, onToken: (text: string) => void): Promise<ChatResult> {
  // Assigned inside the parser callback; the cast keeps TypeScript from narrowing it to null here.
  let result = null as ChatResult | null;
  let streamed = '';
  const parser = createSseParser((event, data) => {
    if (result) return;
    let body: { text?: unknown; message?: unknown; error?: unknown };
    try {
      body = JSON.parse(data) as typeof body;
    } catch {
      return;
    }
    if (event == 'token' && typeof body.text == 'string') {
      streamed += body.text;
      onToken(body.text);
    } else if (event == 'done') {
      result = { message: typeof body.message == 'string' ? body.message : streamed };
    } else if (event == 'error') {
      result = { error: typeof body.error == 'string' && body.error ? body.error : GENERIC_ERROR };
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
  return result ?? { error: GENERIC_ERROR };
}
