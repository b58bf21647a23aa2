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

/** The stored messages of this bot's conversation (every role but errors). */
export function loadConversation(botId: string): ChatMessage[] {
  try {
    const list: unknown = JSON.parse(get('chat:' + botId) || '[]');
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
  set('chat:' + botId, kept.length ? JSON.stringify(kept) : null);
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
