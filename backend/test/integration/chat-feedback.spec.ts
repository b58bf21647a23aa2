import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CANNOT_ANSWER_SENTENCE, FEEDBACK_COMMENT_MAX_CHARS } from '@botsmith/contract';
import type request from 'supertest';
import { FEEDBACK_RATE_LIMITS } from '../../src/modules/chat/rate-limit/chat-rate-limiter.js';
import { createBotViaApi } from '../support/bot-factories.js';
import { createChatBot, creditsOf, parseSse, usageOfOwner } from '../support/chat-factories.js';
import { createUser, signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Answers carry their id, visitors rate them (POST /api/chat/feedback), and answers the bot could
 * not give are flagged unanswered (docs/product.md#conversations), through the real app and
 * database with the offline demo model.
 */
let t: TestApp;
let owner: request.Agent;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
  owner = (await signedInAgent(t, { creditsCents: 10_000 })).agent;
});
afterAll(() => t.close());

const SITE = 'https://shop.example';

interface Answer {
  message: string;
  messageId: number;
  citations: unknown[];
  token: string;
}

async function ask(botId: number, prompt: string, token?: string): Promise<Answer> {
  const call = t.http().post('/api/chat').set('Origin', SITE);
  if (token) call.set('X-Visitor-Token', token);
  const response = await call.send({ botId, prompt });
  expect(response.status).toBe(200);
  return { ...response.body, token: response.headers['x-visitor-token'] } as Answer;
}

function rate(body: Record<string, unknown> | string, token?: string, origin = SITE) {
  const call = t.http().post('/api/chat/feedback').set('Origin', origin);
  if (token) call.set('X-Visitor-Token', token);
  if (typeof body === 'string') call.set('Content-Type', 'application/json');
  return call.send(body);
}

async function messageRow(id: number) {
  const rows: Array<Record<string, unknown>> = await t.dataSource.query(
    `SELECT role, content, rating, rating_comment, rated_at, unanswered, citations FROM messages WHERE id = $1`,
    [id],
  );
  return rows[0];
}

async function conversationOf(messageId: number) {
  const rows: Array<Record<string, number>> = await t.dataSource.query(
    `SELECT c.up_count, c.down_count, c.unanswered_count, c.message_count
       FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE m.id = $1`,
    [messageId],
  );
  const row = rows[0];
  return {
    up: Number(row.up_count),
    down: Number(row.down_count),
    unanswered: Number(row.unanswered_count),
    messages: Number(row.message_count),
  };
}

/** A bot (through the API) with one written answer as its knowledge. */
async function botWithParking(): Promise<{ botId: number; sourceId: number }> {
  const botId = await createBotViaApi(t, owner, 'Hotel');
  const source = await owner
    .post(`/api/bots/${botId}/sources/text`)
    .set('Origin', t.origin)
    .send({ name: 'Parking', text: 'Guests park for free behind the bakery.' });
  expect(source.status).toBe(201);
  return { botId, sourceId: source.body.source.id as number };
}

describe('answers carry their id', () => {
  it('as JSON: {message, messageId, citations}, the id of the logged answer, stored with its citations', async () => {
    const { botId, sourceId } = await botWithParking();
    const answer = await ask(botId, 'Where do guests park?');
    expect(Object.keys(answer).sort()).toEqual(['citations', 'message', 'messageId', 'token']);
    expect(answer.citations).toEqual([{ sourceId, name: 'Parking', page: null, url: null }]);
    expect(await messageRow(answer.messageId)).toMatchObject({
      role: 'assistant',
      content: answer.message,
      rating: null,
      unanswered: false,
      citations: [{ sourceId, name: 'Parking' }],
    });
  });

  it('as server-sent events: the done event carries the same id', async () => {
    const { botId } = await botWithParking();
    const response = await t
      .http()
      .post('/api/chat')
      .set('Accept', 'text/event-stream')
      .set('Origin', SITE)
      .send({ botId, prompt: 'Where do guests park?' })
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => done(null, text));
      });
    const done = parseSse(response.body as string).find((e) => e.event === 'done')!;
    const data = done.data as { message: string; messageId: number };
    expect(data.messageId).toEqual(expect.any(Number));
    expect(await messageRow(data.messageId)).toMatchObject({ role: 'assistant', content: data.message });
  });
});

describe('unanswered answers are flagged', () => {
  it('when retrieval finds nothing relevant in a bot that has knowledge (one shared word is not enough)', async () => {
    const { botId } = await botWithParking();
    const relevant = await ask(botId, 'Where do guests park?');
    expect((await messageRow(relevant.messageId)).unanswered).toBe(false);

    // "bakery" matches the parking passage, but the question is about something else.
    const offTopic = await ask(botId, 'What bread does the bakery sell on Sundays?', relevant.token);
    expect((await messageRow(offTopic.messageId)).unanswered).toBe(true);
    const nothing = await ask(botId, 'Is there a swimming pool?', relevant.token);
    expect((await messageRow(nothing.messageId)).unanswered).toBe(true);
    expect(await conversationOf(relevant.messageId)).toMatchObject({ unanswered: 2, messages: 6 });
  });

  it("not once the owner's correction answers the question", async () => {
    const { botId } = await botWithParking();
    const before = await ask(botId, 'Is there a swimming pool?');
    expect((await messageRow(before.messageId)).unanswered).toBe(true);
    const corrected = await owner
      .post(`/api/bots/${botId}/corrections`)
      .set('Origin', t.origin)
      .send({ question: 'Is there a swimming pool?', answer: 'No pool, but the lake is a short walk away.' });
    expect(corrected.status).toBe(201);
    const after = await ask(botId, 'Is there a swimming pool?', before.token);
    expect(after.message).toContain('the lake is a short walk away');
    expect((await messageRow(after.messageId)).unanswered).toBe(false);
  });

  it('when the model answers with the cannot-answer sentence (a bot without knowledge), not for a greeting', async () => {
    const user = await createUser(t);
    const bot = await createChatBot(t, user.id);
    const greeting = await ask(bot.id, 'Hello there');
    expect((await messageRow(greeting.messageId)).unanswered).toBe(false);
    const unknown = await ask(bot.id, 'What is the airspeed of a swallow?', greeting.token);
    expect(unknown.message.startsWith(CANNOT_ANSWER_SENTENCE)).toBe(true);
    expect((await messageRow(unknown.messageId)).unanswered).toBe(true);
    expect((await conversationOf(unknown.messageId)).unanswered).toBe(1);
  });

  it('when the visitor rates the answer down (counted once, kept when rated up again)', async () => {
    const { botId } = await botWithParking();
    const answer = await ask(botId, 'Where do guests park?');
    expect((await rate({ botId, messageId: answer.messageId, rating: 'down' }, answer.token)).status).toBe(204);
    expect((await messageRow(answer.messageId)).unanswered).toBe(true);
    expect((await conversationOf(answer.messageId)).unanswered).toBe(1);
    await rate({ botId, messageId: answer.messageId, rating: 'up' }, answer.token);
    await rate({ botId, messageId: answer.messageId, rating: 'down' }, answer.token);
    expect((await messageRow(answer.messageId)).unanswered).toBe(true);
    expect((await conversationOf(answer.messageId)).unanswered).toBe(1);
  });
});

describe('POST /api/chat/feedback', () => {
  it('stores the rating and comment (204, CORS for the widget); the last rating wins and the counts follow', async () => {
    const { botId } = await botWithParking();
    const first = await ask(botId, 'Where do guests park?');
    const second = await ask(botId, 'Is parking free for guests?', first.token);

    const up = await rate({ botId, messageId: first.messageId, rating: 'up', comment: '  Thanks! ' }, first.token);
    expect(up.status).toBe(204);
    expect(up.text).toBe('');
    expect(up.headers['access-control-allow-origin']).toBe('*');
    const stored = await messageRow(first.messageId);
    expect(stored).toMatchObject({ rating: 'up', rating_comment: 'Thanks!', unanswered: false });
    expect(stored.rated_at).toBeInstanceOf(Date);
    expect(await conversationOf(first.messageId)).toMatchObject({ up: 1, down: 0 });

    await rate({ botId: String(botId), messageId: second.messageId, rating: 'up' }, first.token);
    expect(await conversationOf(first.messageId)).toMatchObject({ up: 2, down: 0 });
    await rate({ botId, messageId: first.messageId, rating: 'down' }, first.token);
    expect(await messageRow(first.messageId)).toMatchObject({ rating: 'down', rating_comment: null });
    expect(await conversationOf(first.messageId)).toMatchObject({ up: 1, down: 1 });
    // The same rating again moves nothing.
    await rate({ botId, messageId: first.messageId, rating: 'down', comment: 'Wrong door' }, first.token);
    expect(await messageRow(first.messageId)).toMatchObject({ rating: 'down', rating_comment: 'Wrong door' });
    expect(await conversationOf(first.messageId)).toMatchObject({ up: 1, down: 1, unanswered: 1 });
    await rate({ botId, messageId: first.messageId, rating: 'up' }, first.token);
    expect(await conversationOf(first.messageId)).toMatchObject({ up: 2, down: 0 });

    const preflight = await t
      .http()
      .options('/api/chat/feedback')
      .set('Origin', SITE)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type, x-visitor-token');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('X-Visitor-Token');
  });

  it('only from the visitor whose conversation holds the answer: anyone or anything else is 404', async () => {
    const { botId } = await botWithParking();
    const { botId: otherBotId } = await botWithParking();
    const mine = await ask(botId, 'Where do guests park?');
    const theirs = await ask(botId, 'Where do guests park?');
    const elsewhere = await ask(otherBotId, 'Where do guests park?');
    const notFound = { error: 'This answer does not exist.', code: 'MESSAGE_NOT_FOUND' };

    const attempts = [
      rate({ botId, messageId: mine.messageId, rating: 'down' }), // no token: a new visitor
      rate({ botId, messageId: mine.messageId, rating: 'down' }, theirs.token), // another visitor
      rate({ botId, messageId: mine.messageId - 1, rating: 'down' }, mine.token), // the visitor's own message
      rate({ botId, messageId: elsewhere.messageId, rating: 'down' }, mine.token), // another bot's answer
      rate({ botId: otherBotId, messageId: mine.messageId, rating: 'down' }, mine.token), // through another bot
      rate({ botId, messageId: 2_000_000_000, rating: 'down' }, mine.token), // unknown
    ];
    for (const attempt of attempts) {
      const response = await attempt;
      expect(response.status).toBe(404);
      expect(response.body).toEqual(notFound);
    }
    expect((await messageRow(mine.messageId - 1)).role).toBe('user');
    for (const answer of [mine, theirs, elsewhere]) expect((await messageRow(answer.messageId)).rating).toBeNull();

    const unknownBot = await rate({ botId: 2_000_000_000, messageId: mine.messageId, rating: 'up' }, mine.token);
    expect(unknownBot.status).toBe(404);
    expect(unknownBot.body.code).toBe('BOT_NOT_FOUND');
  });

  it("keeps the bot's domain lock, and takes the bot's API key with the owner's visitor id", async () => {
    const user = await createUser(t);
    const bot = await createChatBot(t, user.id, { allowedDomain: 'shop.example' });
    const answer = await ask(bot.id, 'Hello');
    const foreign = await rate(
      { botId: bot.id, messageId: answer.messageId, rating: 'up' },
      answer.token,
      'https://evil.example',
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('DOMAIN_NOT_ALLOWED');

    const viaKey = (visitorId: string, body: Record<string, unknown>) =>
      t
        .http()
        .post(body.prompt ? '/api/chat' : '/api/chat/feedback')
        .set('Authorization', `Bearer ${bot.apiKey}`)
        .set('X-Visitor-Id', visitorId)
        .send(body);
    const served = await viaKey('alice-0001', { botId: bot.id, prompt: 'Hello' });
    expect(served.status).toBe(200);
    expect((await viaKey('bob-00002', { botId: bot.id, messageId: served.body.messageId, rating: 'up' })).status).toBe(
      404,
    );
    expect((await viaKey('alice-0001', { botId: bot.id, messageId: served.body.messageId, rating: 'up' })).status).toBe(
      204,
    );
    const wrongKey = await t
      .http()
      .post('/api/chat/feedback')
      .set('Authorization', 'Bearer nope')
      .send({ botId: bot.id, messageId: served.body.messageId, rating: 'up' });
    expect(wrongKey.status).toBe(401);
  });

  it('is never charged', async () => {
    const user = await createUser(t, { creditsCents: 500 });
    const bot = await createChatBot(t, user.id);
    const answer = await ask(bot.id, 'Hello');
    const usageBefore = await usageOfOwner(t, user.id);
    const creditsBefore = await creditsOf(t, user.id);
    for (const rating of ['up', 'down', 'up']) {
      expect((await rate({ botId: bot.id, messageId: answer.messageId, rating }, answer.token)).status).toBe(204);
    }
    expect(await usageOfOwner(t, user.id)).toEqual(usageBefore);
    expect(await creditsOf(t, user.id)).toBe(creditsBefore);
    expect(usageBefore.rows).toBe(1);
  });

  it(`is rate limited: ${FEEDBACK_RATE_LIMITS.visitorPerMinute} ratings a minute per visitor, then 429`, async () => {
    const user = await createUser(t);
    const bot = await createChatBot(t, user.id);
    const answer = await ask(bot.id, 'Hello');
    for (let i = 0; i < FEEDBACK_RATE_LIMITS.visitorPerMinute; i += 1) {
      const rating = i % 2 === 0 ? 'up' : 'down';
      expect((await rate({ botId: bot.id, messageId: answer.messageId, rating }, answer.token)).status).toBe(204);
    }
    const refused = await rate({ botId: bot.id, messageId: answer.messageId, rating: 'up' }, answer.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'Too many ratings right now. Please wait a moment and try again.',
      code: 'RATE_LIMITED',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The refused rating changed nothing: the last accepted one (down) stands.
    expect((await messageRow(answer.messageId)).rating).toBe('down');
    // Chat itself is counted apart.
    expect(
      (await t.http().post('/api/chat').set('X-Visitor-Token', answer.token).send({ botId: bot.id, prompt: 'Hi' }))
        .status,
    ).toBe(200);
  });

  it('refuses hostile bodies with 4xx and stores nothing', async () => {
    const user = await createUser(t);
    const bot = await createChatBot(t, user.id);
    const answer = await ask(bot.id, 'Hello');
    const base = { botId: bot.id, messageId: answer.messageId, rating: 'up' };
    const cases: Array<[Record<string, unknown> | string, string]> = [
      [{ ...base, comment: 'nice\u0000' }, 'INVALID_CHARACTERS'],
      [{ ...base, comment: 'x\ud800' }, 'INVALID_CHARACTERS'],
      [{ ...base, comment: 'x'.repeat(FEEDBACK_COMMENT_MAX_CHARS + 1) }, 'VALIDATION_FAILED'],
      [{ ...base, comment: 42 }, 'VALIDATION_FAILED'],
      [{ ...base, rating: 'sideways' }, 'VALIDATION_FAILED'],
      [{ ...base, rating: ['up'] }, 'VALIDATION_FAILED'],
      [{ ...base, messageId: 'abc' }, 'VALIDATION_FAILED'],
      [{ ...base, messageId: -1 }, 'VALIDATION_FAILED'],
      [{ ...base, messageId: 99_999_999_999 }, 'VALIDATION_FAILED'],
      [{ ...base, messageId: 1.5 }, 'VALIDATION_FAILED'],
      [{ ...base, botId: null }, 'VALIDATION_FAILED'],
      [{ botId: bot.id, rating: 'up' }, 'VALIDATION_FAILED'],
      [{ ...base, extra: true }, 'VALIDATION_FAILED'],
      ['{"botId": 1,', 'INVALID_JSON'],
    ];
    for (const [body, code] of cases) {
      const response = await rate(body, answer.token);
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code });
    }
    const array = await rate('[1, 2]', answer.token);
    expect(array.status).toBeGreaterThanOrEqual(400);
    expect(array.status).toBeLessThan(500);
    expect((await messageRow(answer.messageId)).rating).toBeNull();
    // A comment at the limit is fine.
    const longest = await rate({ ...base, comment: 'x'.repeat(FEEDBACK_COMMENT_MAX_CHARS) }, answer.token);
    expect(longest.status).toBe(204);
  });
});
