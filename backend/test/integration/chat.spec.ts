import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEMO_BOT_ID, SYSTEM_ACCOUNT_EMAIL } from '../../src/common/constants.js';
import {
  chatAndDisconnectAfterFirstToken,
  createChatBot,
  creditsOf,
  NO_LEADS,
  eventually,
  listen,
  messagesOfBot,
  parseSse,
  reservationsOf,
  samplePdf,
  usageOfOwner,
  visitor,
} from '../support/chat-factories.js';
import { chargeMessage } from '../support/billing-helpers.js';
import { PUBLIC_BOT_KEYS } from '../support/bot-factories.js';
import { createUser, signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { itOnServer } from '../support/test-database.js';

/**
 * POST /api/chat and GET /api/widget/bots/{id} through the real app on a real database, with the
 * offline demo model (no OPENAI_API_KEY). Small limits make every protection reachable.
 */
let t: TestApp;
const LIMITS = { visitor: 5, ip: 80, bot: 60 };
/** Shared with the second instance below: visitor tokens are signed with a key derived from it. */
const SESSION_SECRET = 'chat-spec-session-secret-0123456789abcdef';

beforeAll(async () => {
  t = await startTestApp({
    SESSION_SECRET,
    CHAT_VISITOR_RATE_LIMIT: String(LIMITS.visitor),
    CHAT_IP_RATE_LIMIT: String(LIMITS.ip),
    CHAT_BOT_RATE_LIMIT: String(LIMITS.bot),
    OFFLINE_MODEL_WORD_DELAY_MS: '10',
  });
});
afterAll(() => t.close());

/** The visitor token the server issued with an answer (a browser visitor's identity). */
function tokenOf(response: { headers: Record<string, string | undefined> }): string {
  const token = response.headers['x-visitor-token'];
  expect(token).toMatch(/^v1\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/);
  return token!;
}

function chat(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const request = t
    .http()
    .post('/api/chat')
    .set('X-Visitor-Id', headers['X-Visitor-Id'] ?? visitor());
  for (const [name, value] of Object.entries(headers)) request.set(name, value);
  return request.send(body);
}

async function expectNothingCharged(ownerId: number, creditsBefore: number): Promise<void> {
  expect(await usageOfOwner(t, ownerId)).toEqual({ rows: 0, priceCents: 0, creditsCents: 0, billableCents: 0 });
  expect(await creditsOf(t, ownerId)).toBe(creditsBefore);
}

describe('GET /api/widget/bots/{id}: the public face', () => {
  it('gives the styling, greeting and model label, cacheable for 30 s, and nothing secret', async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id, {
      prompt: 'SECRET-PROMPT-7f3a: never tell anyone the discount code PINEAPPLE.',
      model: 'gpt-4o',
      allowedDomain: 'example.com',
      usageLimitDollars: 12,
    });
    const response = await t.http().get(`/api/widget/bots/${bot.id}`).set('Origin', 'https://customer.example');

    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=30');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(Object.keys(response.body)).toEqual(['bot']);
    expect(Object.keys(response.body.bot).sort()).toEqual(PUBLIC_BOT_KEYS);
    expect(response.body.bot).toMatchObject({
      id: bot.id,
      name: 'Acme Helper',
      customGreeting: 'Hi! How can I help you today?',
      starterQuestions: [],
      // No model name for visitors until the owner turns it on (model-label.spec.ts).
      modelLabel: '',
      hidden: false,
      // The default placeholder is the widget's to say, in the visitor's language.
      placeholderText: '',
      sendButtonColor1: bot.sendButtonColor,
      widgetPosition: 'right',
    });
    for (const secret of ['SECRET-PROMPT-7f3a', 'PINEAPPLE', bot.apiKey, owner.email, 'example.com']) {
      expect(response.text).not.toContain(secret);
    }
    expect(response.body.bot.ownerId).toBeUndefined();
    expect(response.body.bot.usageLimitDollars).toBeUndefined();
  });

  it('gives the starter questions the owner saved, in their order', async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id);
    const questions = ['What are your opening hours?', 'Do you deliver to Ireland?'];
    await t.dataSource.query(`UPDATE bots SET starter_questions = $2::jsonb WHERE id = $1`, [
      bot.id,
      JSON.stringify(questions),
    ]);
    const response = await t.http().get(`/api/widget/bots/${bot.id}`);
    expect(response.status).toBe(200);
    expect(response.body.bot.starterQuestions).toEqual(questions);
  });

  it('answers 404 for an unknown bot and 400 for an id that is not a whole number', async () => {
    const missing = await t.http().get('/api/widget/bots/987654');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'This chatbot does not exist.', code: 'BOT_NOT_FOUND' });
    const bad = await t.http().get('/api/widget/bots/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_ID');
  });

  it('reports hidden when the owner cannot be served and the bot takes no leads, else lead-only', async () => {
    for (const billing of [{ billing: 'failed' as const }, { billing: 'none' as const, creditsCents: 0 }]) {
      const owner = await createUser(t, billing);
      const bot = await createChatBot(t, owner.id, NO_LEADS);
      const response = await t.http().get(`/api/widget/bots/${bot.id}`);
      expect(response.status).toBe(200);
      expect(response.body.bot).toMatchObject({ hidden: true, leadOnly: false, leadCapture: null });
      // The default setting (lead capture on, offered at the cap): "Leave a message" instead.
      const withLeads = await createChatBot(t, owner.id);
      const face = await t.http().get(`/api/widget/bots/${withLeads.id}`);
      expect(face.body.bot).toMatchObject({ hidden: true, leadOnly: true });
    }
  });

  it('serves the landing page demo bot 1, owned by the system account', async () => {
    const response = await t.http().get(`/api/widget/bots/${DEMO_BOT_ID}`);
    expect(response.status).toBe(200);
    expect(response.body.bot).toMatchObject({ id: 1, name: 'Botsmith Assistant', hidden: false });
    const owner: Array<{ is_system: boolean; has_paid: boolean; email_verified_at: Date | null }> =
      await t.dataSource.query(
        `SELECT u.is_system, u.has_paid, u.email_verified_at FROM bots b JOIN users u ON u.id = b.owner_id WHERE b.id = 1`,
      );
    expect(owner[0]).toMatchObject({ is_system: true, has_paid: true });
    expect(owner[0].email_verified_at).not.toBeNull();
    // The system account cannot sign in.
    const login = await t
      .http()
      .post('/api/auth/login')
      .set('Origin', t.origin)
      .send({ email: SYSTEM_ACCOUNT_EMAIL, password: '!system-account-no-login' });
    expect(login.status).toBe(401);
  });
});

describe('POST /api/chat: answering', () => {
  it('answers as JSON with the bot model, logs both messages and charges exactly one ledger row', async () => {
    const owner = await createUser(t, { creditsCents: 500 });
    const bot = await createChatBot(t, owner.id, { model: 'gpt-4o' });
    // A greeting the offline model answers: a question it cannot answer is not charged
    // (docs/product.md#the-fair-meter, test/integration/fair-meter.spec.ts).
    const response = await chat(
      { botId: bot.id, chatHistory: [], prompt: 'Hello, when does the shop open?', model: 'gpt-3.5-turbo' },
      { 'X-Visitor-Id': visitor(), 'X-Page-Url': 'https://acme.test/contact' },
    );

    expect(response.status).toBe(200);
    // The visitor is the one the server issued, never the id the client sent.
    const visitorId = tokenOf(response).split('.')[1];
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    // The offline model never repeats the owner's prompt; this bot has no document to answer from.
    expect(response.body).toEqual({
      message:
        '(Offline demo model) Hello! I am Acme Helper. Ask me a question and I will answer from the information I was given.',
      messageId: expect.any(Number),
      citations: [],
    });

    // Priced by the bot's model (gpt-4o, 5 cents), never by the client's `model`.
    const ledger: Array<Record<string, unknown>> = await t.dataSource.query(
      `SELECT e.price_cents, e.model_tier, e.upstream_model, e.credits_cents, e.billable_cents, e.prompt_tokens,
              e.completion_tokens, m.role, m.content, m.cost_cents, m.model
         FROM usage_events e JOIN messages m ON m.id = e.message_id WHERE e.owner_id = $1`,
      [owner.id],
    );
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      price_cents: 5,
      model_tier: 'gpt-4o',
      upstream_model: 'offline-demo',
      credits_cents: 5,
      billable_cents: 0,
      role: 'assistant',
      cost_cents: 5,
      model: 'gpt-4o',
      content: response.body.message,
    });
    expect(Number(ledger[0].prompt_tokens)).toBeGreaterThan(0);
    expect(Number(ledger[0].completion_tokens)).toBeGreaterThan(0);
    expect(await creditsOf(t, owner.id)).toBe(495);

    expect(await messagesOfBot(t, bot.id)).toEqual([
      { role: 'user', content: 'Hello, when does the shop open?' },
      { role: 'assistant', content: response.body.message },
    ]);
    const conversations: Array<Record<string, unknown>> = await t.dataSource.query(
      `SELECT owner_id, bot_name, visitor_id, page_url FROM conversations WHERE bot_id = $1`,
      [bot.id],
    );
    expect(conversations).toEqual([
      { owner_id: owner.id, bot_name: 'Acme Helper', visitor_id: visitorId, page_url: 'https://acme.test/contact' },
    ]);
    expect(await reservationsOf(t, bot.id)).toBe(0);
  });

  it('streams server-sent events: token events, then one done event with the whole message and its cost', async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id, { model: 'gpt-4o-mini' });
    const response = await t
      .http()
      .post('/api/chat')
      .set('Accept', 'text/event-stream')
      .set('X-Visitor-Id', visitor())
      .set('Origin', 'https://anywhere.example')
      .send({
        botId: String(bot.id),
        chatHistory: [{ role: 'assistant', content: 'Hi!' }],
        prompt: 'Hello, shop hours?',
      })
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => done(null, text));
      });

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers['cache-control']).toContain('no-store');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    // The stream's headers carry the visitor's token too.
    tokenOf(response);
    const events = parseSse(response.body as string);
    const tokens = events.filter((e) => e.event === 'token');
    const done = events.filter((e) => e.event === 'done');
    expect(tokens.length).toBeGreaterThan(3);
    expect(done).toHaveLength(1);
    expect(events.at(-1)!.event).toBe('done');
    expect(events.every((e) => e.event === 'token' || e.event === 'done')).toBe(true);
    const message = tokens.map((e) => (e.data as { text: string }).text).join('');
    expect(done[0].data).toEqual({
      message,
      messageId: expect.any(Number),
      costCents: 4,
      citations: [],
    });
    expect(message).toContain('Hello! I am Acme Helper.');
    expect((await usageOfOwner(t, owner.id)).rows).toBe(1);
  });

  it('answers from the uploaded PDF and cites the page that holds the answer', async () => {
    const { agent, user } = await signedInAgent(t);
    const bot = await createChatBot(t, user.id, { prompt: 'You help customers of Northwind Outfitters.' });
    // Pages long enough that each is its own passage (the uploads module packs short pages together).
    const filler = (topic: string) =>
      Array.from({ length: 14 }, (_, i) => `Section ${i + 1} about ${topic} is written for our hiking customers.`);
    const pdf = await samplePdf([
      ['Northwind Outfitters customer guide.', 'We sell tents, boots and rain jackets.', ...filler('our catalogue')],
      ['Returns.', ...filler('returns'), 'Refunds are accepted within 45 days of purchase with the receipt.'],
      [
        'Delivery.',
        ...filler('delivery'),
        'Shipping to Canada takes six business days.',
        'Express delivery costs 19 dollars.',
      ],
    ]);
    const upload = await agent
      .post(`/api/upload/update-document/${bot.id}`)
      .set('Origin', t.origin)
      .attach('document', pdf, { filename: 'guide.pdf', contentType: 'application/pdf' });
    expect(upload.status).toBe(200);

    const refund = await chat({ botId: bot.id, prompt: 'How many days do I have to get a refund?' });
    expect(refund.status).toBe(200);
    expect(refund.body.message).toContain('Refunds are accepted within 45 days of purchase');
    expect(refund.body.message).toContain('(page 2)');
    // The answer cites the reference document's page it quoted.
    expect(refund.body.citations).toEqual([{ sourceId: expect.any(Number), name: 'guide.pdf', page: 2, url: null }]);

    const shipping = await chat({ botId: bot.id, prompt: 'How long does shipping to Canada take?' });
    expect(shipping.status).toBe(200);
    expect(shipping.body.message).toContain('six business days');
    expect(shipping.body.message).toContain('(page 3)');
  });

  it('spends free credits first, then bills the rest', async () => {
    const owner = await createUser(t, { creditsCents: 5 });
    const bot = await createChatBot(t, owner.id, { model: 'gpt-3.5-turbo' });
    for (let i = 0; i < 3; i += 1)
      expect((await chat({ botId: bot.id, prompt: `Hello, question ${i}` })).status).toBe(200);
    const rows: Array<{ credits_cents: number; billable_cents: number }> = await t.dataSource.query(
      `SELECT credits_cents, billable_cents FROM usage_events WHERE owner_id = $1 ORDER BY id`,
      [owner.id],
    );
    expect(rows.map((r) => [r.credits_cents, r.billable_cents])).toEqual([
      [3, 0],
      [2, 1],
      [0, 3],
    ]);
    expect(await creditsOf(t, owner.id)).toBe(0);
  });

  it('answers the demo bot about Botsmith, without billing the system account', async () => {
    const before: Array<{ credits_cents: number }> = await t.dataSource.query(
      `SELECT credits_cents FROM users WHERE email = $1`,
      [SYSTEM_ACCOUNT_EMAIL],
    );
    const response = await chat({ botId: DEMO_BOT_ID, prompt: 'How much does a message cost?' }, { Origin: t.origin });
    expect(response.status).toBe(200);
    expect(response.body.message).toContain('3 cents per message');
    const rows: Array<{ billable_cents: number; credits: number }> = await t.dataSource.query(
      `SELECT e.billable_cents, u.credits_cents AS credits FROM usage_events e JOIN users u ON u.id = e.owner_id
        WHERE e.bot_id = $1`,
      [DEMO_BOT_ID],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ billable_cents: 0, credits: before[0].credits_cents });
  });

  it('answers the demo bot only on the product site: the house pays for it, so nobody may embed it elsewhere', async () => {
    const foreign: Array<Record<string, string>> = [
      { Origin: 'https://elsewhere.example' },
      { 'X-Page-Url': 'https://elsewhere.example/' },
      {},
    ];
    for (const headers of foreign) {
      const response = await chat({ botId: DEMO_BOT_ID, prompt: 'Hi' }, headers);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('DOMAIN_NOT_ALLOWED');
    }
    const budget: Array<{ usage_limit_dollars: number }> = await t.dataSource.query(
      `SELECT usage_limit_dollars FROM bots WHERE id = $1`,
      [DEMO_BOT_ID],
    );
    expect(budget[0].usage_limit_dollars).toBe(50);
  });

  it('stops answering and charges nothing when the visitor disconnects mid-stream', async () => {
    const owner = await createUser(t, { creditsCents: 500 });
    const bot = await createChatBot(t, owner.id);
    const base = await listen(t);
    const received = await chatAndDisconnectAfterFirstToken(
      base,
      { botId: bot.id, prompt: 'When does the shop open on weekdays?' },
      visitor(),
    );
    expect(received).toContain('event: token');
    await eventually(async () => (await messagesOfBot(t, bot.id)).length === 2);
    expect(await messagesOfBot(t, bot.id)).toEqual([
      { role: 'user', content: 'When does the shop open on weekdays?' },
      { role: 'error', content: 'The visitor left before the answer was complete.' },
    ]);
    await expectNothingCharged(owner.id, 500);
    expect(await reservationsOf(t, bot.id)).toBe(0);
  });
});

describe('POST /api/chat: refusals, in order, each with its code, none charged', () => {
  it('400: empty, oversized or malformed input (before anything else, even for an unknown bot)', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ botId: 987654, prompt: '   ' }, 'Please type a message.'],
      [{ botId: 987654, prompt: 'x'.repeat(2001) }, 'Prompt must be at most 2000 characters.'],
      [
        { botId: 1, prompt: 'hi', chatHistory: Array.from({ length: 51 }, () => ({ role: 'user', content: 'a' })) },
        'ChatHistory must hold at most 50 messages.',
      ],
      [
        { botId: 1, prompt: 'hi', chatHistory: [{ role: 'error', content: 'x' }] },
        'Each chatHistory role must be user or assistant.',
      ],
      [
        { botId: 1, prompt: 'hi', chatHistory: [{ role: 'user', content: 'x'.repeat(4001) }] },
        'Each chatHistory message must be at most 4000 characters.',
      ],
      [{ botId: 'one', prompt: 'hi' }, 'BotId must be a whole number.'],
      [{ botId: 1, prompt: 'hi', priceCents: 0 }, 'Property priceCents should not exist.'],
    ];
    for (const [body, error] of cases) {
      const response = await chat(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error, code: 'VALIDATION_FAILED' });
    }
    const total = await chat({
      botId: 1,
      prompt: 'hi',
      chatHistory: Array.from({ length: 13 }, () => ({ role: 'user', content: 'y'.repeat(4000) })),
    });
    expect(total.status).toBe(400);
    expect(total.body.error).toContain('50000 characters in all');
  });

  it('404 BOT_NOT_FOUND for an unknown bot', async () => {
    const response = await chat({ botId: 987654, prompt: 'Hello' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'This chatbot does not exist.', code: 'BOT_NOT_FOUND' });
  });

  it('403 DOMAIN_NOT_ALLOWED from another site; the domain and its subdomains are served', async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'example.com' });
    const refused: Array<Record<string, string>> = [
      { Origin: 'https://example.com.evil.net' },
      { Origin: 'https://evil-example.com' },
      { Origin: 'null', 'X-Page-Url': 'https://example.com/' },
      { 'X-Page-Url': 'https://evil.net/example.com' },
      {},
    ];
    for (const headers of refused) {
      const response = await chat({ botId: bot.id, prompt: 'Hello' }, headers);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        error: 'This chatbot is not allowed on this website.',
        code: 'DOMAIN_NOT_ALLOWED',
      });
    }
    await expectNothingCharged(owner.id, 500);
    expect(await messagesOfBot(t, bot.id)).toEqual([]);

    const served: Array<Record<string, string>> = [
      { Origin: 'https://example.com' },
      { Origin: 'https://shop.example.com' },
      { 'X-Page-Url': 'https://www.example.com/pricing' },
    ];
    for (const headers of served) {
      expect((await chat({ botId: bot.id, prompt: 'Hello' }, headers)).status).toBe(200);
    }
  });

  it("the bot's API key skips the domain check; a wrong key is 401 INVALID_API_KEY", async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'example.com' });
    const ok = await chat({ botId: bot.id, prompt: 'Hello' }, { Authorization: `Bearer ${bot.apiKey}` });
    expect(ok.status).toBe(200);
    const other = await createChatBot(t, owner.id);
    const wrong = await chat(
      { botId: bot.id, prompt: 'Hello' },
      { Authorization: `Bearer ${other.apiKey}`, Origin: 'https://example.com' },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'The API key does not belong to this bot.', code: 'INVALID_API_KEY' });
    expect((await usageOfOwner(t, owner.id)).rows).toBe(1);
  });

  it('429 RATE_LIMITED with Retry-After past the per-visitor limit, and per-bot limit; refusals cost nothing', async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id);
    const first = await chat({ botId: bot.id, prompt: 'Hello' });
    expect(first.status).toBe(200);
    const token = tokenOf(first);
    for (let i = 1; i < LIMITS.visitor; i += 1) {
      const next = await chat({ botId: bot.id, prompt: `Hello ${i}` }, { 'X-Visitor-Token': token });
      expect(next.status).toBe(200);
      expect(next.headers['x-visitor-token']).toBe(token);
    }
    const limited = await chat({ botId: bot.id, prompt: 'One more' }, { 'X-Visitor-Token': token });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: 'Too many messages right now. Please wait a moment and try again.',
      code: 'RATE_LIMITED',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another visitor of the same bot is still served.
    expect((await chat({ botId: bot.id, prompt: 'Hello' })).status).toBe(200);

    // The bot's own limit: distinct visitors, LIMITS.bot messages a minute in all.
    const busy = await createChatBot(t, owner.id);
    const statuses = (
      await Promise.all(Array.from({ length: LIMITS.bot + 1 }, () => chat({ botId: busy.id, prompt: 'Hi' })))
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMITS.bot);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect((await usageOfOwner(t, owner.id)).rows).toBe(LIMITS.visitor + 1 + LIMITS.bot);
    expect((await messagesOfBot(t, bot.id)).filter((m) => m.role === 'error')).toEqual([]);
  });

  it('409 MESSAGE_IN_FLIGHT: two messages of one visitor at once give one answer and one refusal', async () => {
    const owner = await createUser(t, { creditsCents: 500 });
    const bot = await createChatBot(t, owner.id);
    const token = tokenOf(await chat({ botId: bot.id, prompt: 'Hello' }));
    const [a, b] = await Promise.all([
      chat({ botId: bot.id, prompt: 'Hello, when does the shop open?' }, { 'X-Visitor-Token': token }),
      chat({ botId: bot.id, prompt: 'Hello, when does the shop open?' }, { 'X-Visitor-Token': token }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const refused = a.status === 409 ? a : b;
    expect(refused.body).toEqual({
      error: 'Please wait for the answer to your previous message.',
      code: 'MESSAGE_IN_FLIGHT',
    });
    expect(await usageOfOwner(t, owner.id)).toMatchObject({ rows: 2, priceCents: 6 });
    // Once answered, the visitor may send the next message.
    expect((await chat({ botId: bot.id, prompt: 'Thanks' }, { 'X-Visitor-Token': token })).status).toBe(200);
  });

  itOnServer('409 across instances: the lock lives in the database, not only in one process', async () => {
    const second = await startTestApp({
      DATABASE_URL: t.database.url,
      SESSION_SECRET,
      OFFLINE_MODEL_WORD_DELAY_MS: '10',
    });
    try {
      const owner = await createUser(t);
      const bot = await createChatBot(t, owner.id);
      // A token one instance issued is honoured by the other (same secret).
      const token = tokenOf(await chat({ botId: bot.id, prompt: 'Hello' }));
      const send = (app: TestApp) =>
        app.http().post('/api/chat').set('X-Visitor-Token', token).send({ botId: bot.id, prompt: 'Shop hours?' });
      const [a, b] = await Promise.all([send(t), send(second)]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      expect((await usageOfOwner(t, owner.id)).rows).toBe(2);
    } finally {
      await second.close();
    }
  });

  it('402 PAYMENT_FAILED and OUT_OF_CREDITS from the owner state, logged for the owner, never charged', async () => {
    const failed = await createUser(t, { billing: 'failed', creditsCents: 200 });
    const failedBot = await createChatBot(t, failed.id);
    const a = await chat({ botId: failedBot.id, prompt: 'Hello?' });
    expect(a.status).toBe(402);
    expect(a.body).toEqual({
      error: 'This chatbot is not available right now. Please try again later.',
      code: 'PAYMENT_FAILED',
    });
    await expectNothingCharged(failed.id, 200);
    expect(await messagesOfBot(t, failedBot.id)).toEqual([
      { role: 'user', content: 'Hello?' },
      { role: 'error', content: 'This chatbot is not available right now. Please try again later.' },
    ]);

    const broke = await createUser(t, { billing: 'customer', creditsCents: 0 });
    const brokeBot = await createChatBot(t, broke.id);
    const b = await chat({ botId: brokeBot.id, prompt: 'Hello?' });
    expect(b.status).toBe(402);
    expect(b.body.code).toBe('OUT_OF_CREDITS');
    await expectNothingCharged(broke.id, 0);
    expect(await reservationsOf(t, brokeBot.id)).toBe(0);
  });

  it('402 BOT_BUDGET_REACHED: 50 concurrent messages against a budget that fits 10 answer exactly 10', async () => {
    const owner = await createUser(t, { creditsCents: 500 });
    const bot = await createChatBot(t, owner.id, { model: 'gpt-3.5-turbo', usageLimitDollars: 1 });
    // 70 cents already spent this period: 30 cents left = 10 messages at 3 cents.
    await chargeMessage(t, owner.id, 70, undefined, { botId: bot.id });

    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => chat({ botId: bot.id, prompt: `Hello, opening hours ${i}?` })),
    );
    const answered = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status !== 200);
    expect(answered).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.status).toBe(402);
      expect(r.body).toEqual({
        error: 'This chatbot has reached its monthly limit. Please try again later.',
        code: 'BOT_BUDGET_REACHED',
      });
    }
    const spent: Array<{ sum: string; n: string }> = await t.dataSource.query(
      `SELECT SUM(price_cents) AS sum, COUNT(*) AS n FROM usage_events WHERE bot_id = $1`,
      [bot.id],
    );
    expect(spent[0]).toEqual({ sum: '100', n: '11' });
    expect(await reservationsOf(t, bot.id)).toBe(0);

    const face = await t.http().get(`/api/widget/bots/${bot.id}`);
    // A new bot takes leads: at its budget it offers the lead form instead of hiding.
    expect(face.body.bot).toMatchObject({ hidden: true, leadOnly: true });
    const after = await chat({ botId: bot.id, prompt: 'Still there?' });
    expect(after.status).toBe(402);
    expect(after.body.code).toBe('BOT_BUDGET_REACHED');
    expect((await messagesOfBot(t, bot.id)).filter((m) => m.role === 'error')).toHaveLength(41);
  });
});

describe('CORS: the widget API answers any origin without credentials; the dashboard API stays same-origin', () => {
  it('answers the preflight of /api/chat for the widget headers', async () => {
    const response = await t
      .http()
      .options('/api/chat')
      .set('Origin', 'https://customer.example')
      .set('Access-Control-Request-Method', 'POST')
      .set(
        'Access-Control-Request-Headers',
        'content-type,x-page-url,x-visitor-token,x-visitor-identity,authorization',
      );
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toContain('POST');
    const allowed = String(response.headers['access-control-allow-headers']).toLowerCase();
    for (const header of ['content-type', 'x-page-url', 'x-visitor-token', 'x-visitor-identity', 'authorization'])
      expect(allowed).toContain(header);
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('puts the CORS headers on refusals too, so the widget can read the error', async () => {
    const response = await chat({ botId: 987654, prompt: 'Hi' }, { Origin: 'https://customer.example' });
    expect(response.status).toBe(404);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-expose-headers']).toContain('Retry-After');
    expect(response.headers['access-control-expose-headers']).toContain('X-Visitor-Token');
  });

  it('sends no CORS headers on the dashboard API', async () => {
    const me = await t.http().get('/api/user/me').set('Origin', 'https://customer.example');
    expect(me.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t
      .http()
      .options('/api/bots')
      .set('Origin', 'https://customer.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
