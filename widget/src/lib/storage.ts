import type { ChatMessage } from './types';

/**
 * Local storage of the site's origin, so a conversation survives navigation, other tabs and
 * reloads of the same site (docs/product.md#owner-replies: a person's reply is there when the
 * visitor comes back). A stored conversation is forgotten after KEEP_MS without a change: 30 days,
 * the shortest retention an account can choose, so the browser never keeps it longer than the
 * server may. Storage may be unavailable (privacy modes, sandboxed frames) or full: every call
 * degrades to an in-memory conversation rather than throwing into the host page.
 */

const PREFIX = 'botsmith:';
const KEEP_MS = 30 * 864e5;

function get(key: string): string | null {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function set(key: string, value: string | null): void {
  try {
    if (value == null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    /* storage disabled or full: keep the conversation in memory only */
  }
}

/** The stored messages of this bot's conversation (every role but errors). */
export function loadConversation(botId: string): ChatMessage[] {
  try {
    // Stored as {t: when it last changed, m: the messages}.
    const kept = JSON.parse(get('chat:' + botId) || '{}') as { t?: number; m?: unknown };
    const list = (kept.t as number) > Date.now() - KEEP_MS && kept.m;
    return Array.isArray(list)
      ? list.filter(
          (m): m is ChatMessage =>
            !!m &&
            typeof m == 'object' &&
            (m as ChatMessage).role != 'error' &&
            typeof (m as ChatMessage).content == 'string',
        )
      : [];
  } catch {
    return [];
  }
}

/** Error bubbles are not kept: after a navigation only the conversation itself is shown again. */
export function saveConversation(botId: string, messages: ChatMessage[]): void {
  const kept = messages.filter((m) => m.role != 'error');
  set('chat:' + botId, kept.length ? JSON.stringify({ t: Date.now(), m: kept }) : null);
}

/**
 * The visitor token the server issued for this bot (sent back as `X-Visitor-Token`). The server
 * decides who the visitor is; the widget only keeps what it was given.
 */
export function visitorToken(botId: string): string | null {
  return get('token:' + botId);
}

export function saveVisitorToken(botId: string, token: string): void {
  set('token:' + botId, token);
}
