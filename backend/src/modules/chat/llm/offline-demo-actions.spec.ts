import { OFFLINE_MODEL_PREFIX } from '../../../common/constants.js';
import type { LlmRequest, LlmTool, LlmToolCall } from './llm.port.js';
import { demoActionAnswer, pickDemoAction } from './offline-demo-actions.js';
import { keywords, OfflineDemoLlmAdapter } from './offline-demo-llm.adapter.js';

const ORDER: LlmTool = {
  name: 'order_status',
  description: 'Look up the status of an order by its number',
  parameters: { type: 'object', properties: { order_id: { type: 'integer' } }, required: ['order_id'] },
};
const TICKET: LlmTool = {
  name: 'create_support_ticket',
  description: 'Open a support ticket for a problem the visitor describes',
  parameters: {
    type: 'object',
    properties: { summary: { type: 'string' }, urgency: { type: 'string', enum: ['low', 'high'] } },
    required: ['summary'],
  },
};
const BOOKING: LlmTool = {
  name: 'book_meeting',
  description: 'Book a meeting with the team',
  parameters: { type: 'object', properties: {} },
};

describe('the offline demo model picks an action by the question', () => {
  it('calls the action whose words the question shares, its integer taken from the question', () => {
    expect(pickDemoAction([TICKET, ORDER], 'Where is my order 1042?', keywords)).toEqual({
      name: 'order_status',
      parameters: { order_id: 1042 },
    });
    expect(pickDemoAction([ORDER], 'What is the status of order #77?', keywords)?.parameters).toEqual({ order_id: 77 });
  });

  it('calls nothing when a required parameter is missing or no action shares a word', () => {
    expect(pickDemoAction([ORDER], 'Do you ship orders abroad?', keywords)).toBeNull();
    expect(pickDemoAction([ORDER, TICKET], 'What are your opening hours?', keywords)).toBeNull();
    // 10.5 is not an integer: no order number.
    expect(pickDemoAction([ORDER], 'My order cost 10.5 dollars', keywords)).toBeNull();
  });

  it('takes a string from quotes or a code-like token, and an enum from its listed values', () => {
    expect(
      pickDemoAction([TICKET], 'Please open a support ticket: "printer jams", it is high priority', keywords),
    ).toEqual({
      name: 'create_support_ticket',
      parameters: { summary: 'printer jams', urgency: 'high' },
    });
    expect(pickDemoAction([TICKET], 'support ticket for error E-504', keywords)?.parameters).toEqual({
      summary: 'E-504',
    });
    expect(pickDemoAction([BOOKING], 'Can I book a meeting?', keywords)).toEqual({
      name: 'book_meeting',
      parameters: {},
    });
  });

  it('says what the call gave, field by field, or the failure sentence', () => {
    expect(demoActionAnswer({ ok: true, data: { status: 'shipped', tracking: { carrier: 'UPS' } } })).toBe(
      'Here is what I found: status: shipped; tracking carrier: UPS.',
    );
    expect(demoActionAnswer({ ok: true, data: { '/orders/0/financial_status': 'paid' } })).toBe(
      'Here is what I found: orders financial status: paid.',
    );
    expect(demoActionAnswer({ ok: true, data: {} })).toBe('That went through.');
    expect(demoActionAnswer({ ok: false, error: 'I could not reach the order system just now.' })).toBe(
      'I could not reach the order system just now.',
    );
  });
});

describe('the offline demo model with actions', () => {
  function request(question: string, call: (c: LlmToolCall) => void): LlmRequest {
    return {
      tier: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: question }],
      maxTokens: 300,
      temperature: 0.3,
      signal: new AbortController().signal,
      grounding: { botName: 'Shop', passages: [{ page: 1, content: 'Orders ship within two days.' }], question },
      tools: {
        list: [ORDER],
        maxCalls: 3,
        call: (c) => {
          call(c);
          return Promise.resolve({ ok: true, data: { status: 'shipped' } });
        },
      },
    };
  }

  it('answers with the action result, streamed, and quotes no passage', async () => {
    const calls: LlmToolCall[] = [];
    const tokens: string[] = [];
    const result = await new OfflineDemoLlmAdapter(0).complete(
      request('Where is my order 1042?', (c) => calls.push(c)),
      (t) => tokens.push(t),
    );
    expect(calls).toEqual([{ name: 'order_status', arguments: '{"order_id":1042}' }]);
    expect(result.text).toBe(`${OFFLINE_MODEL_PREFIX}Here is what I found: status: shipped.`);
    expect(tokens.join('')).toBe(result.text);
    expect(result.quotedPassage).toBeNull();
  });

  it('answers from the sources when no action fits', async () => {
    const calls: LlmToolCall[] = [];
    const result = await new OfflineDemoLlmAdapter(0).complete(
      request('How fast do orders ship?', (c) => calls.push(c)),
      () => undefined,
    );
    expect(calls).toEqual([]);
    expect(result.text).toContain('Orders ship within two days.');
  });
});
