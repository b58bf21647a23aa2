import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { AgentMessagesService } from '../../src/modules/chat/agent-messages.service.js';
import { OwnerRepliesService } from '../../src/modules/conversations/owner-replies.service.js';
import { WebhooksService } from '../../src/modules/webhooks/webhooks.service.js';
import { createChatBot, creditsOf, eventually, listen, parseSse, usageOfOwner } from '../support/chat-factories.js';
import { mailsTo } from '../support/account-helpers.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { insertUsageEvent } from '../support/usage-factories.js';

/**
 * Owner replies and handoff (docs/product.md#owner-replies): the owner answers a visitor from the
 * inbox, the reply reaches the visitor's open widget (server-sent events or the poll route), the
 * bot stays quiet and nothing is charged until the owner hands the conversation back. The model
 * is a local server speaking Chat Completions, so every call the bot makes is counted.
 */
let upstream: http.Server;
let modelCalls = 0;
let t: TestApp;
let base: string;
let owner: request.Agent;
let ownerId: number;
let other: request.Agent;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      modelCalls += 1;
      const chunk = (content: string | null, finish: string | null, usage: object | null = null) =>
        `data: ${JSON.stringify({
          id: 'c1',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'local',
          choices:
            content === null && finish === null
              ? []
              : [{ index: 0, delta: content ? { content } : {}, finish_reason: finish }],
          usage,
        })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('We open at nine.', null));
      res.write(chunk(null, 'stop'));
      res.write(chunk(null, null, { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 }));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t = await startTestApp({
    OPENAI_API_KEY: 'sk-test-local',
    OPENAI_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`,
    OPENAI_MAX_RETRIES: '0',
    // Webhook deliveries are only queued here (no worker), to a loopback address nobody serves.
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_POLL_MS: '0',
  });
  base = await listen(t);
  const signedIn = await signedInAgent(t);
  owner = signedIn.agent;
  ownerId = signedIn.user.id;
  other = (await signedInAgent(t)).agent;
});
/** Streams still open when a test failed half-way: closed before the app, which waits for them. */
const openStreams = new Set<http.ClientRequest>();
afterAll(async () => {
  for (const req of openStreams) req.destroy();
  await t.close();
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

/** A widget visitor's message (the token names the visitor; none: a new one). */
function chat(botId: number, prompt: string, token?: string, accept = 'application/json') {
  const req = t.http().post('/api/chat').set('X-Page-Url', 'https://shop.example/help').set('Accept', accept);
  if (token) req.set('X-Visitor-Token', token);
  return req.send({ botId, prompt });
}

/** A visitor who chatted once with a new bot of `ownerId`: their token and conversation. */
async function visitorConversation(
  botOwnerId = ownerId,
  botOptions: Parameters<typeof createChatBot>[2] = {},
): Promise<{ botId: number; token: string; conversationId: number }> {
  const bot = await createChatBot(t, botOwnerId, botOptions);
  const first = await chat(bot.id, 'When do you open?');
  expect(first.status).toBe(200);
  const token = first.headers['x-visitor-token'];
  const rows: Array<{ id: number }> = await t.dataSource.query(`SELECT id FROM conversations WHERE bot_id = $1`, [
    bot.id,
  ]);
  return { botId: bot.id, token, conversationId: Number(rows[0].id) };
}

function reply(agent: request.Agent, conversationId: number, body: unknown) {
  return agent
    .post(`/api/conversations/${conversationId}/reply`)
    .set('Origin', t.origin)
    .send(body as object);
}

async function messageRows(conversationId: number) {
  return t.dataSource.query<Array<{ role: string; content: string; agent_name: string | null; cost_cents: number }>>(
    `SELECT role, content, agent_name, cost_cents FROM messages WHERE conversation_id = $1 ORDER BY id`,
    [conversationId],
  );
}

/** An open events stream of the visitor, read as it arrives. */
function openEvents(botId: number, token: string | undefined, query = '', headers: Record<string, string> = {}) {
  return new Promise<{ status: number; waitFor(text: string): Promise<string>; ended: Promise<void>; close(): void }>(
    (resolve, reject) => {
      const req = http.get(`${base}/api/chat/conversations/current/events?botId=${botId}${query}`, {
        headers: {
          'x-page-url': 'https://shop.example/help',
          ...(token ? { 'x-visitor-token': token } : {}),
          ...headers,
        },
      });
      openStreams.add(req);
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
      req.on('response', (res) => {
        let received = '';
        const waiting: Array<{ text: string; done: (all: string) => void }> = [];
        res.on('data', (chunk: Buffer) => {
          received += chunk.toString();
          for (const w of [...waiting]) {
            if (received.includes(w.text)) {
              waiting.splice(waiting.indexOf(w), 1);
              w.done(received);
            }
          }
        });
        const ended = new Promise<void>((done) => res.on('close', () => done()));
        resolve({
          status: res.statusCode ?? 0,
          ended,
          waitFor: (text) =>
            received.includes(text) ? Promise.resolve(received) : new Promise((done) => waiting.push({ text, done })),
          close: () => req.destroy(),
        });
      });
    },
  );
}

describe('POST /api/conversations/{id}/reply', () => {
  it("stores the reply as an agent message with the owner's name, free, and hands the conversation off", async () => {
    const { conversationId } = await visitorConversation();
    const creditsBefore = await creditsOf(t, ownerId);
    const usageBefore = await usageOfOwner(t, ownerId);

    const sent = await reply(owner, conversationId, { content: '  Hi, this is a person. How can I help?  ' });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      message: {
        id: expect.any(Number),
        role: 'agent',
        content: 'Hi, this is a person. How can I help?',
        name: 'Support',
        createdAt: expect.any(String),
        citations: [],
        rating: null,
        unanswered: false,
      },
    });
    expect(await creditsOf(t, ownerId)).toBe(creditsBefore);
    expect(await usageOfOwner(t, ownerId)).toEqual(usageBefore);

    const renamed = await owner.put('/api/user/settings').set('Origin', t.origin).send({ agentName: ' Ana at Acme ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ agentName: 'Ana at Acme' });
    expect((await reply(owner, conversationId, { content: 'Still there?' })).body.message.name).toBe('Ana at Acme');

    const transcript = await owner.get(`/api/conversations/${conversationId}`);
    expect(transcript.body.conversation).toMatchObject({ handoff: true, messageCount: 4 });
    expect(transcript.body.messages.map((m: { role: string; name?: string }) => [m.role, m.name])).toEqual([
      ['user', undefined],
      ['assistant', undefined],
      ['agent', 'Support'],
      ['agent', 'Ana at Acme'],
    ]);
    const list = await owner.get('/api/conversations');
    expect(list.body.conversations.find((c: { id: number }) => c.id === conversationId)).toMatchObject({
      handoff: true,
    });
    expect((await messageRows(conversationId)).filter((m) => m.role === 'agent').map((m) => m.cost_cents)).toEqual([
      0, 0,
    ]);
  });

  it("refuses another owner's conversation (404), an anonymous caller (401) and hostile content (400), writing nothing", async () => {
    const { conversationId } = await visitorConversation();
    const before = await messageRows(conversationId);

    const foreign = await reply(other, conversationId, { content: 'Hello from elsewhere' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('CONVERSATION_NOT_FOUND');
    expect((await other.post(`/api/conversations/${conversationId}/handback`).set('Origin', t.origin)).status).toBe(
      404,
    );
    const anonymous = await t
      .http()
      .post(`/api/conversations/${conversationId}/reply`)
      .set('Origin', t.origin)
      .send({ content: 'Hi' });
    expect(anonymous.status).toBe(401);

    const hostile: Array<[unknown, string]> = [
      [{ content: '' }, 'VALIDATION_FAILED'],
      [{ content: '   ' }, 'VALIDATION_FAILED'],
      [{ content: 'x'.repeat(4001) }, 'VALIDATION_FAILED'],
      [{ content: 42 }, 'VALIDATION_FAILED'],
      [{ content: ['a'] }, 'VALIDATION_FAILED'],
      [{}, 'VALIDATION_FAILED'],
      [{ content: 'Hi', extra: true }, 'VALIDATION_FAILED'],
      [{ content: 'nul \u0000 here' }, 'INVALID_CHARACTERS'],
      [{ content: 'lone \ud800 surrogate' }, 'INVALID_CHARACTERS'],
    ];
    for (const [body, code] of hostile) {
      const refused = await reply(owner, conversationId, body);
      expect([refused.status, refused.body.code]).toEqual([400, code]);
      expect(refused.body.error).toEqual(expect.any(String));
    }
    expect((await reply(owner, conversationId, { content: 'x'.repeat(4000) })).status).toBe(201);
    expect(
      (await owner.post('/api/conversations/abc/reply').set('Origin', t.origin).send({ content: 'Hi' })).status,
    ).toBe(400);
    const after = await messageRows(conversationId);
    expect(after).toHaveLength(before.length + 1);
    const state = await owner.get(`/api/conversations/${conversationId}`);
    expect(state.body.conversation.handoff).toBe(true);
  });

  it('answers 409 BOT_DELETED in a conversation whose bot was deleted', async () => {
    const { botId, conversationId } = await visitorConversation();
    expect((await owner.delete(`/api/bots/${botId}`).set('Origin', t.origin)).status).toBe(200);
    const refused = await reply(owner, conversationId, { content: 'Hello?' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('BOT_DELETED');
    expect((await messageRows(conversationId)).some((m) => m.role === 'agent')).toBe(false);
  });

  it('limits an owner to 30 replies a minute (429 with Retry-After)', async () => {
    const flooder = await signedInAgent(t);
    const { conversationId } = await visitorConversation(flooder.user.id);
    for (let i = 0; i < 30; i += 1) {
      expect((await reply(flooder.agent, conversationId, { content: `Reply ${i}` })).status).toBe(201);
    }
    const limited = await reply(flooder.agent, conversationId, { content: 'One more' });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await messageRows(conversationId)).filter((m) => m.role === 'agent')).toHaveLength(30);
  });

  it('queues conversation.handoff when a reply starts a handoff, not for replies during it', async () => {
    const hook = await owner
      .post('/api/webhooks')
      .set('Origin', t.origin)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['conversation.handoff'] });
    expect(hook.status).toBe(201);
    const { botId, conversationId } = await visitorConversation();
    expect((await reply(owner, conversationId, { content: 'A person here.' })).status).toBe(201);
    expect((await reply(owner, conversationId, { content: 'Still here.' })).status).toBe(201);
    expect((await owner.post(`/api/conversations/${conversationId}/handback`).set('Origin', t.origin)).status).toBe(
      204,
    );
    expect((await reply(owner, conversationId, { content: 'Back again.' })).status).toBe(201);
    await t.app.get(WebhooksService).settled();
    const rows = await t.dataSource.query<Array<{ type: string; payload: string }>>(
      `SELECT type, payload FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id`,
      [hook.body.webhook.id],
    );
    expect(rows.map((r) => [r.type, (JSON.parse(r.payload) as { data: unknown }).data])).toEqual([
      ['conversation.handoff', { conversationId, botId }],
      ['conversation.handoff', { conversationId, botId }],
    ]);
    await t.dataSource.query(`DELETE FROM webhook_endpoints WHERE id = $1`, [hook.body.webhook.id]);
  });

  it('mails each reply to the address the visitor left in a lead once it confirmed, once per reply; no lead, no mail', async () => {
    const { botId, conversationId } = await visitorConversation();
    const email = `visitor-${conversationId}@example.com`;
    await t.dataSource.query(
      `INSERT INTO leads (owner_id, bot_id, bot_name, conversation_id, email) VALUES ($1, $2, 'Acme Helper', $3, $4)`,
      [ownerId, botId, conversationId, email],
    );
    // Since issue 25 (docs/product.md#mail-consent): the first reply mails a fixed-text notice whose
    // link confirms the address; replies are mailed after that (mail-consent.spec covers the notice).
    expect((await reply(owner, conversationId, { content: 'Before the confirmation' })).status).toBe(201);
    await t.app.get(OwnerRepliesService).settled();
    const [notice] = await mailsTo(t, email);
    expect(notice.text).not.toContain('Before the confirmation');
    const link = notice.text.match(/http:\/\/localhost:3000(\/api\/mail\/confirm\/[A-Za-z0-9_-]{43})/)![1];
    expect((await t.http().post(link).set('Origin', t.origin)).status).toBe(200);

    const content = 'Your parcel left today.\nIt arrives on <b>Friday</b>.';
    expect((await reply(owner, conversationId, { content })).status).toBe(201);
    expect((await reply(owner, conversationId, { content: 'Anything else?' })).status).toBe(201);
    await t.app.get(OwnerRepliesService).settled();
    const mails = (await mailsTo(t, email)).slice(1);
    expect(mails.map((m) => m.subject)).toEqual([
      'Ana at Acme replied to your message',
      'Ana at Acme replied to your message',
    ]);
    expect(mails[0].text).toContain('Ana at Acme replied to your conversation with Acme Helper:');
    expect(mails[0].text).toContain(content);
    expect(mails[0].html).toContain('It arrives on &lt;b&gt;Friday&lt;/b&gt;.');
    expect(mails[0].html).not.toContain('<b>Friday</b>');

    // A conversation without a lead mails nobody.
    const quiet = await visitorConversation();
    const before = (await mailsTo(t, email)).length;
    expect((await reply(owner, quiet.conversationId, { content: 'Hello' })).status).toBe(201);
    await t.app.get(OwnerRepliesService).settled();
    expect((await mailsTo(t, email)).length).toBe(before);
  });

  it("charges one owner's visitors and takes the owner's replies at once without a deadlock (one lock order)", async () => {
    // The chat's record statement locks the owner's row before it looks up and share-locks the
    // conversation, as a reply does (docs/decisions/0016-chat-path-cost.md); in the other order
    // the two would deadlock, and PostgreSQL would fail one of them.
    const { agent: busyOwner, user } = await signedInAgent(t);
    const bot = await createChatBot(t, user.id);
    const visitors = [];
    for (let i = 0; i < 6; i++) {
      const first = await chat(bot.id, 'When do you open?');
      expect(first.status).toBe(200);
      const [row]: Array<{ id: number }> = await t.dataSource.query(
        `SELECT id FROM conversations WHERE bot_id = $1 ORDER BY id DESC LIMIT 1`,
        [bot.id],
      );
      visitors.push({ token: first.headers['x-visitor-token'], conversationId: Number(row.id) });
    }
    const before = await usageOfOwner(t, user.id);
    const [chats, replies] = await Promise.all([
      Promise.all(visitors.map((v) => chat(bot.id, 'And on Sundays?', v.token))),
      Promise.all(visitors.map((v) => reply(busyOwner, v.conversationId, { content: 'A person is here.' }))),
    ]);
    expect(replies.map((r) => r.status)).toEqual(visitors.map(() => 201));
    expect(chats.map((r) => r.status)).toEqual(visitors.map(() => 200));
    // Each message was answered and charged, or (after the reply won) logged for the person, free.
    const answered = chats.filter((r) => r.body.handoff !== true).length;
    expect((await usageOfOwner(t, user.id)).rows - before.rows).toBe(answered);
  });

  it('keeps the agent name within 1 to 60 characters', async () => {
    expect((await other.get('/api/user/settings')).body.agentName).toBe('Support');
    for (const agentName of ['', '   ', 'x'.repeat(61), 7, null]) {
      const refused = await other.put('/api/user/settings').set('Origin', t.origin).send({ agentName });
      expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect((await other.get('/api/user/settings')).body.agentName).toBe('Support');
  });
});

describe('the bot during a handoff', () => {
  it('stays quiet: the message is logged, the model is not called, nothing is charged; handback makes it answer again', async () => {
    const { botId, token, conversationId } = await visitorConversation();
    expect((await reply(owner, conversationId, { content: 'A person here.' })).status).toBe(201);
    const calls = modelCalls;
    const usageBefore = await usageOfOwner(t, ownerId);
    const creditsBefore = await creditsOf(t, ownerId);

    const quiet = await chat(botId, 'Thanks! One more question', token);
    expect(quiet.status).toBe(200);
    expect(quiet.body).toEqual({ message: '', messageId: null, citations: [], handoff: true });
    const streamed = await chat(botId, 'And on Sundays?', token, 'text/event-stream');
    expect(streamed.status).toBe(200);
    expect(parseSse(streamed.text)).toEqual([
      { event: 'done', data: { message: '', messageId: null, costCents: 0, citations: [], handoff: true } },
    ]);
    expect(modelCalls).toBe(calls);
    expect(await usageOfOwner(t, ownerId)).toEqual(usageBefore);
    expect(await creditsOf(t, ownerId)).toBe(creditsBefore);
    expect((await messageRows(conversationId)).slice(-2).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Thanks! One more question'],
      ['user', 'And on Sundays?'],
    ]);

    const handedBack = await owner.post(`/api/conversations/${conversationId}/handback`).set('Origin', t.origin);
    expect(handedBack.status).toBe(204);
    expect((await owner.get(`/api/conversations/${conversationId}`)).body.conversation.handoff).toBe(false);
    const answered = await chat(botId, 'Back to the bot?', token);
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ message: 'We open at nine.', messageId: expect.any(Number) });
    expect(answered.body.handoff).toBeUndefined();
    expect(modelCalls).toBe(calls + 1);
  });

  it('charges nothing and refuses nothing when the bot is over its budget', async () => {
    const { botId, token, conversationId } = await visitorConversation(ownerId, { usageLimitDollars: 1 });
    await insertUsageEvent(t, { ownerId, botId, priceCents: 100, totalTokens: 10, at: new Date() });
    expect((await chat(botId, 'Over budget?', token)).status).toBe(402);
    expect((await reply(owner, conversationId, { content: 'I can help.' })).status).toBe(201);
    const usageBefore = await usageOfOwner(t, ownerId);
    const calls = modelCalls;

    const quiet = await chat(botId, 'Great, my order is 1234', token);
    expect(quiet.status).toBe(200);
    expect(quiet.body.handoff).toBe(true);
    expect(modelCalls).toBe(calls);
    expect(await usageOfOwner(t, ownerId)).toEqual(usageBefore);
    expect((await messageRows(conversationId)).at(-1)).toMatchObject({
      role: 'user',
      content: 'Great, my order is 1234',
    });
  });

  it('still applies the domain lock to a handed-off conversation', async () => {
    const { botId, token, conversationId } = await visitorConversation(ownerId, { allowedDomain: 'shop.example' });
    expect((await reply(owner, conversationId, { content: 'Hello' })).status).toBe(201);
    const foreign = await t
      .http()
      .post('/api/chat')
      .set('Origin', 'https://evil.example')
      .set('X-Visitor-Token', token)
      .send({ botId, prompt: 'Hi' });
    expect(foreign.status).toBe(403);
  });
});

describe("the visitor's widget receiving replies", () => {
  it('gets the reply on its open events stream', async () => {
    const { botId, token, conversationId } = await visitorConversation();
    const stream = await openEvents(botId, token);
    expect(stream.status).toBe(200);
    await stream.waitFor(': open');
    const sent = await reply(owner, conversationId, { content: 'Hello from a person\nline two' });
    const id = sent.body.message.id as number;
    const received = await stream.waitFor(`id: ${id}\n`);
    stream.close();
    const block = received.split('\n\n').find((b) => b.startsWith('event: message'))!;
    expect(block.split('\n')).toEqual([
      'event: message',
      `id: ${id}`,
      `data: ${JSON.stringify({
        id,
        role: 'agent',
        content: 'Hello from a person\nline two',
        name: 'Ana at Acme',
        createdAt: sent.body.message.createdAt,
      })}`,
    ]);
    await eventually(async () => t.app.get(AgentMessagesService).openStreams === 0);
  });

  it('sends replies after Last-Event-ID at once, and caps the streams of one visitor', async () => {
    const { botId, token, conversationId } = await visitorConversation();
    const first = (await reply(owner, conversationId, { content: 'First' })).body.message.id as number;
    const second = (await reply(owner, conversationId, { content: 'Second' })).body.message.id as number;
    const resumed = await openEvents(botId, token, '', { 'last-event-id': String(first) });
    const text = await resumed.waitFor(`id: ${second}\n`);
    expect(text).not.toContain(`id: ${first}\n`);

    const more = [await openEvents(botId, token), await openEvents(botId, token)];
    const refused = await openEvents(botId, token);
    expect(refused.status).toBe(429);
    refused.close();
    for (const stream of [resumed, ...more]) stream.close();
    await eventually(async () => t.app.get(AgentMessagesService).openStreams === 0);
    const again = await openEvents(botId, token);
    expect(again.status).toBe(200);
    again.close();
  });

  it('ends open streams when the app shuts down, so shutdown does not wait for them', async () => {
    const { botId, token } = await visitorConversation();
    const stream = await openEvents(botId, token);
    await stream.waitFor(': open');
    t.app.get(AgentMessagesService).onModuleDestroy();
    await stream.ended;
    await eventually(async () => t.app.get(AgentMessagesService).openStreams === 0);
  });

  it('polls replies after an id; other visitors and callers without a conversation see nothing', async () => {
    const { botId, token, conversationId } = await visitorConversation();
    const poll = (query: string, visitorToken?: string) => {
      const req = t
        .http()
        .get(`/api/chat/conversations/current/messages?${query}`)
        .set('X-Page-Url', 'https://shop.example/');
      return visitorToken ? req.set('X-Visitor-Token', visitorToken) : req;
    };
    expect((await poll(`botId=${botId}`, token)).body).toEqual({ messages: [], handoff: false });
    const sent = (await reply(owner, conversationId, { content: 'Your parcel left today.' })).body.message;

    const all = await poll(`botId=${botId}&after=0`, token);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      messages: [
        {
          id: sent.id,
          role: 'agent',
          content: 'Your parcel left today.',
          name: 'Ana at Acme',
          createdAt: sent.createdAt,
        },
      ],
      handoff: true,
    });
    expect((await poll(`botId=${botId}&after=${sent.id}`, token)).body).toEqual({ messages: [], handoff: true });

    // Another visitor of the same bot, a caller without a token, a forged token: nothing of it.
    const stranger = (await chat(botId, 'Hello?')).headers['x-visitor-token'];
    expect((await poll(`botId=${botId}&after=0`, stranger)).body).toEqual({ messages: [], handoff: false });
    expect((await poll(`botId=${botId}&after=0`)).body).toEqual({ messages: [], handoff: false });
    expect((await poll(`botId=${botId}&after=0`, `${token.slice(0, -2)}xx`)).body).toEqual({
      messages: [],
      handoff: false,
    });
    // Another bot's token names nobody there.
    const elsewhere = await visitorConversation();
    expect((await poll(`botId=${elsewhere.botId}&after=0`, token)).body).toEqual({ messages: [], handoff: false });
  });

  it('checks the caller as a chat message does, and refuses hostile queries', async () => {
    const { botId, token } = await visitorConversation(ownerId, { allowedDomain: 'shop.example' });
    const foreign = await t
      .http()
      .get(`/api/chat/conversations/current/messages?botId=${botId}`)
      .set('Origin', 'https://evil.example')
      .set('X-Visitor-Token', token);
    expect([foreign.status, foreign.body.code]).toEqual([403, 'DOMAIN_NOT_ALLOWED']);
    const events = await openEvents(botId, token, '', { origin: 'https://evil.example' });
    expect(events.status).toBe(403);
    events.close();
    expect((await t.http().get('/api/chat/conversations/current/messages?botId=99999999')).body.code).toBe(
      'BOT_NOT_FOUND',
    );
    for (const query of [
      '',
      'botId=abc',
      `botId=${botId}&after=-1`,
      `botId=${botId}&after=99999999999`,
      `botId=${botId}&x=1`,
    ]) {
      const refused = await t.http().get(`/api/chat/conversations/current/messages?${query}`);
      expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
  });

  it('limits polling per visitor (429)', async () => {
    const { botId, token } = await visitorConversation();
    const poll = () =>
      t
        .http()
        .get(`/api/chat/conversations/current/messages?botId=${botId}`)
        .set('X-Page-Url', 'https://shop.example/')
        .set('X-Visitor-Token', token);
    for (let i = 0; i < 30; i += 1) expect((await poll()).status).toBe(200);
    const limited = await poll();
    expect([limited.status, limited.body.code]).toEqual([429, 'RATE_LIMITED']);
  });
});
