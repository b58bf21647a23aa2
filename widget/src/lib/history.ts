import { CHAT_REQUEST_LIMITS as CHAT_LIMITS } from '@botsmith/contract';
import type { ChatHistoryItem } from '@botsmith/contract';
import type { ChatMessage } from './types';

/**
 * The server's limits on POST /api/chat (the contract's CHAT_REQUEST_LIMITS): a request over them
 * is refused with 400, which would leave a long conversation stuck. The model only sees the last
 * turns anyway, so the widget sends the most recent messages that fit.
 */
export { CHAT_LIMITS };

/** The conversation so far, newest last, as the request's chatHistory: the model's turns, within the limits. */
export function chatHistoryFor(messages: ChatMessage[]): ChatHistoryItem[] {
  const out: ChatHistoryItem[] = [];
  let total = 0;
  for (let i = messages.length - 1; i >= 0 && out.length < CHAT_LIMITS.historyMaxItems; i--) {
    const m = messages[i];
    // The model's turns only: not errors, a person's replies or the lead form's thank-you.
    if (m.role != 'user' && m.role != 'assistant') continue;
    const content = m.content.slice(0, CHAT_LIMITS.historyItemMaxChars);
    if (total + content.length > CHAT_LIMITS.historyTotalMaxChars) break;
    total += content.length;
    out.unshift({ role: m.role, content });
  }
  return out;
}
