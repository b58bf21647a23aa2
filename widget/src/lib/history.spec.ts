import { describe, expect, it } from 'vitest';
import { CHAT_LIMITS, chatHistoryFor } from './history';
import type { ChatMessage } from './types';

const msg = (role: ChatMessage['role'], content: string): ChatMessage => ({ role, content });

describe('chatHistoryFor', () => {
  it('keeps user and assistant messages in order and drops error bubbles', () => {
    expect(
      chatHistoryFor([msg('assistant', 'Hi'), msg('user', 'a'), msg('error', 'An error occurred.'), msg('user', 'b')]),
    ).toEqual([msg('assistant', 'Hi'), msg('user', 'a'), msg('user', 'b')]);
  });

  it("leaves out a person's replies and the lead form's thank-you: the model speaks for itself only", () => {
    expect(
      chatHistoryFor([
        msg('user', 'a'),
        { role: 'agent', content: 'Hi, Dana here', name: 'Dana', id: 9 },
        msg('note', "Thanks! We'll get back to you soon."),
        msg('user', 'b'),
      ]),
    ).toEqual([msg('user', 'a'), msg('user', 'b')]);
  });

  it('sends only the most recent messages', () => {
    const many = Array.from({ length: 50 }, (_, i) => msg(i % 2 ? 'assistant' : 'user', String(i)));
    const h = chatHistoryFor(many);
    expect(h).toHaveLength(CHAT_LIMITS.historyMaxItems);
    expect(h.at(-1)!.content).toBe('49');
  });

  it('clips a long message and stays within the total the server accepts', () => {
    const long = 'x'.repeat(9000);
    const h = chatHistoryFor(Array.from({ length: 20 }, () => msg('assistant', long)));
    expect(h.every((m) => m.content.length == CHAT_LIMITS.historyItemMaxChars)).toBe(true);
    expect(h.reduce((n, m) => n + m.content.length, 0)).toBeLessThanOrEqual(CHAT_LIMITS.historyTotalMaxChars);
  });
});
