import type { ChatMessage } from './types';

/**
 * Session storage, so a conversation survives navigation within the site but not the tab.
 * Storage may be unavailable (privacy modes, sandboxed frames) or full: every call degrades to
 * an in-memory conversation rather than throwing into the host page.
 */

const PREFIX = 'botsmith:';

function get(key: string): string | null {
  try {
    return sessionStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function set(key: string, value: string | null): void {
  try {
    if (value == null) sessionStorage.removeItem(PREFIX + key);
    else sessionStorage.setItem(PREFIX + key, value);
  } catch {
    /* storage disabled or full: keep the conversation in memory only */
  }
}

/** The stored user and assistant messages of this bot's conversation. */
export function loadConversation(botId: string): ChatMessage[] {
  try {
    const list: unknown = JSON.parse(get('chat:' + botId) || '[]');
    return Array.isArray(list)
      ? list.filter(
          (m): m is ChatMessage =>
            !!m &&
            typeof m == 'object' &&
            ((m as ChatMessage).role == 'user' || (m as ChatMessage).role == 'assistant') &&
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
  set('chat:' + botId, kept.length ? JSON.stringify(kept) : null);
}

function uuid(): string {
  if (typeof crypto.randomUUID == 'function') return crypto.randomUUID();
  // randomUUID exists only in secure contexts; plain-http host pages still need an id.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 15) | 64;
  b[8] = (b[8] & 63) | 128;
  const h = Array.from(b, (x) => (x + 256).toString(16).slice(1)).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** One anonymous id per visitor and tab, sent as `X-Visitor-Id`. */
export function visitorId(): string {
  let id = get('visitor');
  if (!id || !/^[0-9a-f-]{36}$/.test(id)) {
    id = uuid();
    set('visitor', id);
  }
  return id;
}
