import { OFFLINE_MODEL_PREFIX } from '../../../common/constants.js';
import type { LlmRequest } from './llm.port.js';
import { composeOfflineAnswer, OfflineDemoLlmAdapter } from './offline-demo-llm.adapter.js';

function request(question: string, overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    tier: 'gpt-3.5-turbo',
    messages: [
      { role: 'system', content: 'You are a helper.' },
      { role: 'user', content: question },
    ],
    maxTokens: 300,
    temperature: 0.3,
    signal: new AbortController().signal,
    grounding: {
      botName: 'Acme Helper',
      botPrompt: 'You are the Acme helper. Our shop opens at 9 am on weekdays. Never discuss competitors.',
      passages: [
        { page: 2, content: 'Shipping is free over $50. Orders ship within two days.' },
        { page: 5, content: 'Refunds are accepted within 30 days of delivery. Keep the receipt.' },
      ],
      question,
    },
    ...overrides,
  };
}

describe('the offline demo model', () => {
  it('answers from the passage that shares the most words with the question, citing its page', async () => {
    const model = new OfflineDemoLlmAdapter(0);
    const tokens: string[] = [];
    const result = await model.complete(request('How many days do I have for refunds?'), (t) => tokens.push(t));
    expect(result.text).toBe(`${OFFLINE_MODEL_PREFIX}Refunds are accepted within 30 days of delivery. (page 5)`);
    expect(tokens.join('')).toBe(result.text);
    expect(tokens.length).toBeGreaterThan(5);
    expect(result.upstreamModel).toBe('offline-demo');
    expect(result.usage.estimated).toBe(true);
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    expect(result.usage.completionTokens).toBe(Math.ceil(result.text.length / 4));
  });

  it('is deterministic: the same question gives the same words', async () => {
    const model = new OfflineDemoLlmAdapter(0);
    const a = await model.complete(request('Is shipping free?'), () => undefined);
    const b = await model.complete(request('Is shipping free?'), () => undefined);
    expect(a.text).toBe(b.text);
    expect(a.text).toContain('Shipping is free over $50.');
  });

  it('falls back to facts of the bot prompt, never to its instructions', () => {
    const answer = composeOfflineAnswer(
      { ...request('').grounding, passages: [], question: 'When does the shop open?' },
      300,
    );
    expect(answer).toBe(`${OFFLINE_MODEL_PREFIX}Our shop opens at 9 am on weekdays.`);
    const other = composeOfflineAnswer(
      { ...request('').grounding, passages: [], question: 'Tell me about competitors' },
      300,
    );
    expect(other).not.toContain('Never discuss');
    expect(other.startsWith(OFFLINE_MODEL_PREFIX)).toBe(true);
  });

  it('says so when it finds nothing, and greets back', () => {
    const g = { ...request('').grounding, passages: [] };
    expect(composeOfflineAnswer({ ...g, question: 'What is the airspeed of a swallow?' }, 300)).toContain(
      'could not find that',
    );
    expect(composeOfflineAnswer({ ...g, question: 'Hello there' }, 300)).toContain('I am Acme Helper');
  });

  it('respects maxTokens', () => {
    const answer = composeOfflineAnswer({ ...request('').grounding, question: 'refunds days delivery receipt' }, 5);
    expect(answer.length).toBeLessThanOrEqual(5 * 4 + 1);
  });

  it('stops streaming when the visitor leaves', async () => {
    const model = new OfflineDemoLlmAdapter(20);
    const controller = new AbortController();
    const tokens: string[] = [];
    const pending = model.complete(request('Is shipping free?', { signal: controller.signal }), (t) => {
      tokens.push(t);
      if (tokens.length === 2) controller.abort();
    });
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    expect(tokens).toHaveLength(2);
  });
});
