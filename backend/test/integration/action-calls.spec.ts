import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import type request from 'supertest';
import type { ActionStatsResponse, BotAction, ConversationsPage, ConversationTranscript } from '@botsmith/contract';
import { TransactionRunner } from '../../src/database/transaction.js';
import { CONVERSATIONS_SHEET } from '../../src/modules/conversations/conversations-export.service.js';
import { ConversationLog, type LoggedActionCall } from '../../src/modules/conversations/conversation-log.js';
import { createChatBot, parseSse, visitor } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/*
 * What owners see of the calls answers make to their bot's actions (docs/product.md#actions):
 * the calls in the inbox transcript, the "used an action" and "action failed" filters, and each
 * action's counters. The calls are logged as the chat logs them: ConversationLog.record, in a
 * transaction, with the turn's messages.
 */

let t: TestApp;
let log: ConversationLog;
let transactions: TransactionRunner;

beforeAll(async () => {
  // A local "shop API" on 127.0.0.1 for the end-to-end case (as the chat-actions spec does).
  t = await startTestApp({
    ACTIONS_ALLOW_PRIVATE: 'true',
    OFFLINE_MODEL_WORD_DELAY_MS: '0',
    CHAT_IP_RATE_LIMIT: '10000',
  });
  log = t.app.get(ConversationLog);
  transactions = t.app.get(TransactionRunner);
});
afterAll(() => t.close());

async function owner() {
  const { agent, user } = await signedInAgent(t);
  const bot = await createChatBot(t, user.id, { name: 'Shop helper' });
  return { agent, user, bot };
}

async function addAction(agent: request.Agent, botId: number, name: string): Promise<BotAction> {
  const response = await agent
    .post(`/api/bots/${botId}/actions`)
    .set('Origin', t.origin)
    .send({
      name,
      description: `Runs ${name}`,
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string', maxLength: 20 } },
        required: ['order_id'],
      },
      method: 'GET',
      url: 'https://shop.example.com/orders/{order_id}',
      answerFields: ['/status'],
    });
  expect(response.status).toBe(201);
  return response.body.action as BotAction;
}

const call = (
  action: { id: number | null; name: string },
  fields: Partial<LoggedActionCall> = {},
): LoggedActionCall => ({
  actionId: action.id,
  actionName: action.name,
  parameters: { order_id: '1042' },
  status: 200,
  durationMs: 184,
  answer: '{"/status":"shipped"}',
  error: null,
  createdAt: new Date(),
  ...fields,
});

/** One turn (question, answer) of a visitor's conversation, with the answer's action calls. */
async function turn(
  ownerId: number,
  bot: { id: number; name: string },
  visitorId: string,
  question: string,
  answer: string,
  actionCalls: LoggedActionCall[] = [],
): Promise<{ conversationId: number; messageIds: number[] }> {
  const at = new Date();
  return transactions.run((tx) =>
    log.record(tx, {
      conversation: { ownerId, botId: bot.id, botName: bot.name, visitorId, pageUrl: null },
      messages: [
        { role: 'user', content: question, createdAt: at },
        { role: 'assistant', content: answer, createdAt: new Date(at.getTime() + 1) },
      ],
      actionCalls,
    }),
  );
}

describe('GET /api/conversations/{id}: action calls in the transcript', () => {
  it('lists each call with its action, parameters, status, time, filtered answer and error, tied to its answer', async () => {
    const { agent, user, bot } = await owner();
    const action = await addAction(agent, bot.id, 'order_status');
    const who = visitor();
    const first = await turn(user.id, bot, who, 'Hello', 'Hi! How can I help?');
    const second = await turn(user.id, bot, who, 'Where is order 1042?', 'Order 1042 has shipped.', [
      call(action),
      call(action, {
        parameters: { order_id: '9' },
        status: 503,
        durationMs: 2400,
        answer: null,
        error: 'The order system answered with an error (503).',
      }),
    ]);
    expect(second.conversationId).toBe(first.conversationId);

    const response = await agent.get(`/api/conversations/${first.conversationId}`);
    expect(response.status).toBe(200);
    const transcript = response.body as ConversationTranscript;
    expect(transcript.messages.map((m) => m.content)).toEqual([
      'Hello',
      'Hi! How can I help?',
      'Where is order 1042?',
      'Order 1042 has shipped.',
    ]);
    const answerId = second.messageIds[1];
    expect(transcript.messages[3].id).toBe(answerId);
    expect(transcript.actionCalls).toEqual([
      {
        id: expect.any(Number),
        messageId: answerId,
        actionName: 'order_status',
        actionId: action.id,
        parameters: { order_id: '1042' },
        status: 200,
        durationMs: 184,
        answer: '{"/status":"shipped"}',
        error: null,
        failed: false,
        createdAt: expect.any(String),
      },
      expect.objectContaining({
        messageId: answerId,
        parameters: { order_id: '9' },
        status: 503,
        durationMs: 2400,
        answer: null,
        error: 'The order system answered with an error (503).',
        failed: true,
      }),
    ]);
  });

  it('keeps the call under its name once the action is deleted, and a conversation without calls has none', async () => {
    const { agent, user, bot } = await owner();
    const action = await addAction(agent, bot.id, 'lookup_invoice');
    const withCall = await turn(user.id, bot, visitor(), 'Invoice 7?', 'Here it is.', [call(action)]);
    const without = await turn(user.id, bot, visitor(), 'Opening hours?', 'Nine to five.');
    expect((await agent.delete(`/api/bots/${bot.id}/actions/${action.id}`).set('Origin', t.origin)).status).toBe(204);

    const kept = (await agent.get(`/api/conversations/${withCall.conversationId}`)).body as ConversationTranscript;
    expect(kept.actionCalls).toEqual([expect.objectContaining({ actionId: null, actionName: 'lookup_invoice' })]);
    const none = (await agent.get(`/api/conversations/${without.conversationId}`)).body as ConversationTranscript;
    expect(none.actionCalls).toEqual([]);
  });

  it("is 404 for another owner's conversation, its calls never shown", async () => {
    const a = await owner();
    const action = await addAction(a.agent, a.bot.id, 'order_status');
    const logged = await turn(a.user.id, a.bot, visitor(), 'Order 5?', 'Shipped.', [call(action)]);
    const b = await owner();
    const response = await b.agent.get(`/api/conversations/${logged.conversationId}`);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('CONVERSATION_NOT_FOUND');
    expect(JSON.stringify(response.body)).not.toContain('order_status');
  });
});

describe('GET /api/conversations?filter=action|action_failed', () => {
  it('narrows the list to conversations that used an action, or where a call failed', async () => {
    const { agent, user, bot } = await owner();
    const action = await addAction(agent, bot.id, 'order_status');
    const plain = await turn(user.id, bot, visitor(), 'Hours?', 'Nine to five.');
    const used = await turn(user.id, bot, visitor(), 'Order 1?', 'Shipped.', [call(action)]);
    const failed = await turn(user.id, bot, visitor(), 'Order 2?', 'I could not reach the order system just now.', [
      call(action, { status: null, answer: null, error: 'The order system did not answer in time.' }),
    ]);
    // A call that failed in an earlier turn still marks the conversation.
    const recovered = visitor();
    await turn(user.id, bot, recovered, 'Order 3?', 'Sorry, not now.', [
      call(action, { status: 500, answer: null, error: 'The order system answered with an error (500).' }),
    ]);
    const later = await turn(user.id, bot, recovered, 'Try again?', 'Order 3 is packed.', [call(action)]);

    const ids = async (query: Record<string, string>) => {
      const response = await agent.get('/api/conversations').query(query);
      expect(response.status).toBe(200);
      return (response.body as ConversationsPage).conversations.map((c) => c.id).sort((x, y) => x - y);
    };
    const sorted = (...values: number[]) => [...values].sort((x, y) => x - y);
    expect(await ids({ filter: 'action' })).toEqual(
      sorted(used.conversationId, failed.conversationId, later.conversationId),
    );
    expect(await ids({ filter: 'action_failed' })).toEqual(sorted(failed.conversationId, later.conversationId));
    expect(await ids({ filter: 'all' })).toContain(plain.conversationId);
    // With the other filters: the bot, and a search.
    expect(await ids({ filter: 'action_failed', botId: String(bot.id), q: 'reach' })).toEqual([failed.conversationId]);
  });

  it("never lists another owner's conversations, and refuses an unknown filter", async () => {
    const a = await owner();
    const action = await addAction(a.agent, a.bot.id, 'order_status');
    await turn(a.user.id, a.bot, visitor(), 'Order 1?', 'Failed.', [call(action, { error: 'down', answer: null })]);
    const b = await owner();
    for (const filter of ['action', 'action_failed']) {
      const response = await b.agent.get('/api/conversations').query({ filter });
      expect(response.status).toBe(200);
      expect(response.body.conversations).toEqual([]);
    }
    const bad = await a.agent.get('/api/conversations').query({ filter: 'actions' });
    expect(bad.status).toBe(400);
  });

  it('applies to the export too', async () => {
    const { agent, user, bot } = await owner();
    const action = await addAction(agent, bot.id, 'order_status');
    await turn(user.id, bot, visitor(), 'Hours?', 'Nine to five.');
    await turn(user.id, bot, visitor(), 'Order 8?', 'Shipped.', [call(action)]);
    const response = await agent
      .get('/api/conversations/export')
      .query({ filter: 'action' })
      .buffer(true)
      .parse((res, callback) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => callback(null, Buffer.concat(chunks)));
      });
    expect(response.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.body);
    const texts: string[] = [];
    workbook.getWorksheet(CONVERSATIONS_SHEET)!.eachRow((row) => texts.push(JSON.stringify(row.values)));
    expect(texts.join('\n')).toContain('Order 8?');
    expect(texts.join('\n')).not.toContain('Hours?');
  });
});

describe('GET /api/bots/{id}/actions/stats', () => {
  it("counts each action's calls, failures and p95 time over the last 30 days", async () => {
    const { agent, user, bot } = await owner();
    const orders = await addAction(agent, bot.id, 'order_status');
    const tickets = await addAction(agent, bot.id, 'create_ticket');
    const unused = await addAction(agent, bot.id, 'book_meeting');
    // 20 calls of 10, 20, …, 200 ms: p95 (interpolated) is 190.5 ms, rounded 191 (190 would be a floor).
    const calls = Array.from({ length: 20 }, (_, i) =>
      call(orders, {
        durationMs: (i + 1) * 10,
        ...(i % 5 === 0 ? { status: 502, answer: null, error: 'Bad gateway' } : {}),
      }),
    );
    await turn(user.id, bot, visitor(), 'Orders?', 'Here.', calls.slice(0, 3));
    await turn(user.id, bot, visitor(), 'More orders?', 'Here.', calls.slice(3));
    await turn(user.id, bot, visitor(), 'Ticket please', 'Done.', [call(tickets, { durationMs: 300 })]);
    // Older than 30 days: not counted.
    await turn(user.id, bot, visitor(), 'Old', 'Old.', [
      call(tickets, { durationMs: 9000, createdAt: new Date(Date.now() - 31 * 24 * 60 * 60 * 1000) }),
    ]);

    const response = await agent.get(`/api/bots/${bot.id}/actions/stats`);
    expect(response.status).toBe(200);
    expect(response.body as ActionStatsResponse).toEqual({
      days: 30,
      stats: [
        { actionId: orders.id, calls: 20, failures: 4, p95Ms: 191 },
        { actionId: tickets.id, calls: 1, failures: 0, p95Ms: 300 },
        { actionId: unused.id, calls: 0, failures: 0, p95Ms: null },
      ],
    });
  });

  it("is 404 for another owner's bot and 400 for a malformed id", async () => {
    const a = await owner();
    const action = await addAction(a.agent, a.bot.id, 'order_status');
    await turn(a.user.id, a.bot, visitor(), 'Order?', 'Yes.', [call(action)]);
    const b = await owner();
    const foreign = await b.agent.get(`/api/bots/${a.bot.id}/actions/stats`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('BOT_NOT_FOUND');
    expect(JSON.stringify(foreign.body)).not.toContain(String(action.id) + ',');
    expect((await b.agent.get('/api/bots/99999999/actions/stats')).status).toBe(404);
    expect((await b.agent.get('/api/bots/abc/actions/stats')).status).toBe(400);
    expect((await t.http().get(`/api/bots/${a.bot.id}/actions/stats`)).status).toBe(401);
  });
});

describe('end to end: a chat answer that called an action', () => {
  let shop: http.Server;
  let base: string;

  beforeAll(async () => {
    shop = http.createServer((req, res) => {
      const path = new URL(req.url!, 'http://x').pathname;
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      if (path === '/orders/1042') return json(200, { status: 'shipped', internal: { margin: '42%' } });
      json(500, { error: 'database down' });
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    shop.closeAllConnections();
    await new Promise<void>((resolve) => shop.close(() => resolve()));
  });

  function jwt(claims: Record<string, unknown>, secret: string): string {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const signed = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
    return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
  }

  it('shows the call in the transcript, the filters and the counters; a failing one under "action failed"', async () => {
    const { agent, user } = await signedInAgent(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, user.id, { allowedDomain: 'shop.example' });
    const secret = (await agent.post(`/api/bots/${bot.id}/identity-secret`).set('Origin', t.origin)).body
      .identitySecret as string;
    const create = (name: string, path: string) =>
      agent
        .post(`/api/bots/${bot.id}/actions`)
        .set('Origin', t.origin)
        .send({
          name,
          description: name === 'order_status' ? 'Look up the status of an order by its number' : 'Track a parcel',
          parameters: { type: 'object', properties: { order_id: { type: 'integer' } }, required: ['order_id'] },
          method: 'GET',
          url: `${base}/${path}/{order_id}`,
          visitorFields: ['email'],
          answerFields: ['/status'],
        });
    const orders = (await create('order_status', 'orders')).body.action as BotAction;
    const parcels = (await create('parcel_tracking', 'parcels')).body.action as BotAction;
    const ask = async (prompt: string, sub: string) => {
      const token = jwt({ sub, email: `${sub}@example.org`, exp: Math.floor(Date.now() / 1000) + 3600 }, secret);
      const response = await t
        .http()
        .post('/api/chat')
        .set('Origin', 'https://shop.example')
        .set('Accept', 'text/event-stream')
        .send({ botId: bot.id, prompt, visitor: { token } });
      expect(response.status).toBe(200);
      const done = parseSse(response.text).find((e) => e.event === 'done')?.data as { messageId: number };
      return done.messageId;
    };

    const answered = await ask('What is the status of my order 1042?', 'ada');
    await ask('Track my parcel 77 please', 'bob');

    const list = async (filter: string) =>
      ((await agent.get('/api/conversations').query({ filter })).body as ConversationsPage).conversations;
    const used = await list('action');
    expect(used).toHaveLength(2);
    const failed = await list('action_failed');
    expect(failed).toHaveLength(1);

    const ok = used.find((c) => c.id !== failed[0].id)!;
    const transcript = (await agent.get(`/api/conversations/${ok.id}`)).body as ConversationTranscript;
    const answerIndex = transcript.messages.findIndex((m) => m.id === answered);
    expect(transcript.messages[answerIndex].role).toBe('assistant');
    expect(transcript.actionCalls).toEqual([
      expect.objectContaining({
        messageId: answered,
        actionId: orders.id,
        actionName: 'order_status',
        parameters: { order_id: 1042 },
        status: 200,
        answer: '{"/status":"shipped"}',
        error: null,
        failed: false,
      }),
    ]);
    const broken = (await agent.get(`/api/conversations/${failed[0].id}`)).body as ConversationTranscript;
    expect(broken.actionCalls).toEqual([
      expect.objectContaining({ actionName: 'parcel_tracking', status: 500, answer: null, failed: true }),
    ]);
    expect(broken.actionCalls[0].error).toEqual(expect.any(String));

    const stats = (await agent.get(`/api/bots/${bot.id}/actions/stats`)).body as ActionStatsResponse;
    expect(stats.stats).toEqual([
      { actionId: orders.id, calls: 1, failures: 0, p95Ms: expect.any(Number) },
      { actionId: parcels.id, calls: 1, failures: 1, p95Ms: expect.any(Number) },
    ]);
  });
});
