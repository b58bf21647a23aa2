import { CHAT_LIMITS } from '../../common/constants.js';
import { boundedHistory, boundedPassages, buildModelInput, type HistoryItem } from './prompt-builder.js';

describe('the model input', () => {
  const base = {
    botName: 'Acme Helper',
    botPrompt: 'You answer questions about Acme tools.',
    passages: [
      { page: 3, content: 'Refunds are accepted within 30 days.' },
      { page: 7, content: 'Shipping takes two days.' },
    ],
    history: [
      { role: 'user' as const, content: 'Hi' },
      { role: 'assistant' as const, content: 'Hello! How can I help?' },
    ],
    question: 'How long do I have for a refund?',
  };

  it('puts the owner prompt and page-labelled passages in the system message, with the citation rule', () => {
    const messages = buildModelInput(base);
    expect(messages[0].role).toBe('system');
    const system = messages[0].content;
    expect(system).toContain('You answer questions about Acme tools.');
    expect(system).toContain('[page 3]\nRefunds are accepted within 30 days.');
    expect(system).toContain('[page 7]\nShipping takes two days.');
    expect(system).toContain("cite it as 'page N'");
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello! How can I help?' },
      { role: 'user', content: 'How long do I have for a refund?' },
    ]);
  });

  it('says nothing about passages when the bot has no document', () => {
    const system = buildModelInput({ ...base, passages: [] })[0].content;
    expect(system).not.toContain('[page');
    expect(system).not.toContain('cite');
  });

  it('keeps only the last turns of a long history, within the character budget, newest last', () => {
    const long: HistoryItem[] = Array.from({ length: 40 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `turn ${i}`,
    }));
    const kept = boundedHistory(long, CHAT_LIMITS.modelHistoryTurns, CHAT_LIMITS.modelHistoryMaxChars);
    expect(kept).toHaveLength(CHAT_LIMITS.modelHistoryTurns);
    expect(kept.at(-1)!.content).toBe('turn 39');
    expect(kept[0].content).toBe(`turn ${40 - CHAT_LIMITS.modelHistoryTurns}`);

    const big = Array.from({ length: 10 }, () => ({ role: 'user' as const, content: 'x'.repeat(4000) }));
    const within = boundedHistory(big, 12, 12_000);
    expect(within).toHaveLength(3);
    expect(within.reduce((n, h) => n + h.content.length, 0)).toBeLessThanOrEqual(12_000);
  });

  it('bounds the passages by count and characters, best first', () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ page: i + 1, content: 'y'.repeat(2500) }));
    const kept = boundedPassages(many, 4, 6000);
    expect(kept.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(kept.reduce((n, p) => n + p.content.length, 0)).toBe(6000);
  });
});
