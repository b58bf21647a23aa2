import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { WEBHOOK_LIMITS } from '@botsmith/contract';
import type request from 'supertest';
import type { ConnectTarget } from '../../src/common/outbound/guarded-agent.js';
import { BudgetAlertsService } from '../../src/modules/usage/budget-alerts.service.js';
import { UNREACHABLE_NAME, WebhookSender } from '../../src/modules/webhooks/webhook-sender.js';
import { WebhooksRepository } from '../../src/modules/webhooks/webhooks.repository.js';
import { WebhooksService } from '../../src/modules/webhooks/webhooks.service.js';
import { chargeMessage } from '../support/billing-helpers.js';
import { createChatBot, eventually } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/*
 * Webhooks (docs/product.md#webhooks): endpoints per owner, signed deliveries from the queue in
 * the database, retries with backoff for 24 h, each event once per endpoint, and the SSRF guard
 * at registration and at delivery. Every request goes to a receiver on loopback; the worker is
 * off (WEBHOOK_POLL_MS=0) and each test drives `deliverDue` with its own clock, so no test waits
 * for a real backoff.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOT_FOUND = { error: 'Webhook not found.', code: 'WEBHOOK_NOT_FOUND' };

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP server that records each request and answers the next status of `statuses` (then 200). */
async function startReceiver(): Promise<{
  url: string;
  port: number;
  received: Received[];
  statuses: number[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = statuses.shift() ?? 200;
      res.writeHead(status, status === 302 ? { Location: 'http://127.0.0.1:1/' } : {}).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    statuses,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The README's verification example itself (README.md#webhook-signatures), run as a receiver would. */
function readmeVerifier(): (rawBody: string, header: string, secret: string) => boolean {
  const readme = readFileSync(path.join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Webhook signatures'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('README.md has no webhook verification example');
  expect(code.trim().split('\n').length).toBeLessThanOrEqual(10);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the README's own text, run as documented
  return new Function('require', `${code}\nreturn verifyBotsmith;`)(createRequire(import.meta.url)) as never;
}

/** The same recipe with the clock as a parameter, to check the refusal of old timestamps. */
function verify(rawBody: string, header: string, secret: string, nowSeconds: number): boolean {
  const { t, v1 } = Object.fromEntries(header.split(',').map((kv) => kv.split('='))) as Record<string, string>;
  if (!t || !v1 || Math.abs(nowSeconds - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('webhooks (loopback endpoints allowed)', () => {
  let t: TestApp;
  let owner: request.Agent;
  let ownerId: number;
  let other: request.Agent;
  let webhooks: WebhooksService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    t = await startTestApp({
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '0',
      OFFLINE_MODEL_WORD_DELAY_MS: '0',
      CHAT_IP_RATE_LIMIT: '1000',
    });
    const signedIn = await signedInAgent(t, { creditsCents: 5000 });
    owner = signedIn.agent;
    ownerId = signedIn.user.id;
    other = (await signedInAgent(t)).agent;
    webhooks = t.app.get(WebhooksService);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.statuses.length = 0;
    await t.dataSource.query(`DELETE FROM webhook_endpoints`);
  });

  function create(agent: request.Agent, body: unknown) {
    return agent
      .post('/api/webhooks')
      .set('Origin', t.origin)
      .send(body as object);
  }

  async function endpoint(events: string[] = ['lead.created'], url = receiver.url) {
    const response = await create(owner, { url, events });
    expect(response.status).toBe(201);
    return response.body as { webhook: { id: number; url: string; events: string[] }; secret: string };
  }

  async function deliveriesOf(id: number) {
    const response = await owner.get(`/api/webhooks/${id}/deliveries`);
    expect(response.status).toBe(200);
    return response.body.deliveries as Array<Record<string, unknown>>;
  }

  it('registers, lists without the secret, and deletes an endpoint', async () => {
    const response = await create(owner, { url: receiver.url, events: ['lead.created', 'bot.budget_reached'] });
    expect(response.status).toBe(201);
    const { webhook, secret } = response.body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(webhook).toEqual({
      id: expect.any(Number),
      url: receiver.url,
      events: ['lead.created', 'bot.budget_reached'],
      createdAt: expect.any(String),
      lastDelivery: null,
      failingSince: null,
      disabledAt: null,
    });

    const listed = await owner.get('/api/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ webhooks: [webhook] });
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const deleted = await owner.delete(`/api/webhooks/${webhook.id}`).set('Origin', t.origin);
    expect(deleted.status).toBe(204);
    expect((await owner.get('/api/webhooks')).body).toEqual({ webhooks: [] });
    expect((await owner.delete(`/api/webhooks/${webhook.id}`).set('Origin', t.origin)).body).toEqual(NOT_FOUND);
  });

  it("answers 404 for another owner's endpoint and lists only the caller's", async () => {
    const { webhook } = await endpoint();
    expect((await other.get('/api/webhooks')).body).toEqual({ webhooks: [] });
    for (const response of [
      await other.delete(`/api/webhooks/${webhook.id}`).set('Origin', t.origin),
      await other.post(`/api/webhooks/${webhook.id}/test`).set('Origin', t.origin),
      await other.get(`/api/webhooks/${webhook.id}/deliveries`),
    ]) {
      expect([response.status, response.body]).toEqual([404, NOT_FOUND]);
    }
    expect(receiver.received).toEqual([]);
    expect((await owner.get('/api/webhooks')).body.webhooks).toHaveLength(1);
  });

  it('refuses anonymous callers with 401 on every route', async () => {
    const { webhook } = await endpoint();
    const anonymous = [
      await t.http().get('/api/webhooks'),
      await t
        .http()
        .post('/api/webhooks')
        .set('Origin', t.origin)
        .send({ url: receiver.url, events: ['lead.created'] }),
      await t.http().delete(`/api/webhooks/${webhook.id}`).set('Origin', t.origin),
      await t.http().post(`/api/webhooks/${webhook.id}/test`).set('Origin', t.origin),
      await t.http().get(`/api/webhooks/${webhook.id}/deliveries`),
    ];
    expect(anonymous.map((r) => [r.status, r.body.code])).toEqual(Array(5).fill([401, 'UNAUTHORIZED']));
    expect(receiver.received).toEqual([]);
  });

  it.each([
    ['no url', { events: ['lead.created'] }, 'Enter the address of your endpoint in "url".'],
    [
      'a url that is not a string',
      { url: 42, events: ['lead.created'] },
      'Enter the address of your endpoint in "url".',
    ],
    ['a url too long', { url: `https://a.example/${'x'.repeat(2100)}`, events: ['lead.created'] }, 'at most 2048'],
    ['no events', { url: 'https://hooks.example/', events: [] }, 'Choose at least one event'],
    ['events not a list', { url: 'https://hooks.example/', events: 'lead.created' }, 'Choose at least one event'],
    ['an unknown event', { url: 'https://hooks.example/', events: ['lead.deleted'] }, 'Each event must be one of'],
    ['an event of the wrong type', { url: 'https://hooks.example/', events: [7] }, 'Each event must be one of'],
    ['an unknown field', { url: 'https://hooks.example/', events: ['lead.created'], secret: 'mine' }, 'secret'],
    ['not a URL', { url: 'hooks dot example', events: ['lead.created'] }, 'starting with https://'],
  ])('refuses %s with 400 and writes nothing', async (_name, body, message) => {
    const response = await create(owner, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(message);
    expect(await t.dataSource.query(`SELECT id FROM webhook_endpoints`)).toEqual([]);
  });

  it('refuses NUL bytes in the address', async () => {
    const response = await create(owner, { url: 'https://hooks.example/\u0000', events: ['lead.created'] });
    expect(response.status).toBe(400);
    expect(await t.dataSource.query(`SELECT id FROM webhook_endpoints`)).toEqual([]);
  });

  it('keeps each event once when listed twice', async () => {
    const { webhook } = await endpoint(['lead.created', 'lead.created', 'conversation.handoff']);
    expect(webhook.events).toEqual(['lead.created', 'conversation.handoff']);
  });

  it(`allows ${WEBHOOK_LIMITS.perOwner} endpoints per owner, then answers 409`, async () => {
    for (let i = 0; i < WEBHOOK_LIMITS.perOwner; i += 1) await endpoint();
    const refused = await create(owner, { url: receiver.url, events: ['lead.created'] });
    expect([refused.status, refused.body.code]).toEqual([409, 'WEBHOOK_LIMIT_REACHED']);
    expect((await owner.get('/api/webhooks')).body.webhooks).toHaveLength(WEBHOOK_LIMITS.perOwner);
    // Another owner has places of their own.
    expect((await create(other, { url: receiver.url, events: ['lead.created'] })).status).toBe(201);
  });

  it('refuses cloud metadata addresses even where private addresses are allowed', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'https://metadata.google.internal/']) {
      const response = await create(owner, { url, events: ['lead.created'] });
      expect([response.status, response.body.code]).toEqual([422, 'URL_NOT_ALLOWED']);
    }
  });

  it('sends a signed test event that the documented recipe verifies', async () => {
    const { webhook, secret } = await endpoint();
    const response = await owner.post(`/api/webhooks/${webhook.id}/test`).set('Origin', t.origin);
    expect(response.status).toBe(200);
    expect(response.body.delivery).toMatchObject({
      type: 'webhook.test',
      status: 'delivered',
      statusCode: 200,
      attempts: 1,
    });

    expect(receiver.received).toHaveLength(1);
    const [{ headers, body }] = receiver.received;
    expect(headers['content-type']).toBe('application/json');
    const header = headers['botsmith-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const verifyBotsmith = readmeVerifier();
    expect(verifyBotsmith(body, header, secret)).toBe(true);
    expect(verifyBotsmith(body, header, 'whsec_another')).toBe(false);
    expect(verifyBotsmith(body.replace('Botsmith', 'Botsmith!'), header, secret)).toBe(false);
    const now = Math.floor(Date.now() / 1000);
    expect(verify(body, header, secret, now)).toBe(true);
    expect(verify(body, header, 'whsec_another', now)).toBe(false);
    expect(verify(`${body} `, header, secret, now)).toBe(false);
    expect(verify(body, header, secret, now + 301)).toBe(false);
    expect(JSON.parse(body)).toEqual({
      id: response.body.delivery.eventId,
      type: 'webhook.test',
      createdAt: expect.any(String),
      data: { message: 'This is a test event from Botsmith.' },
    });

    const listed = (await owner.get('/api/webhooks')).body.webhooks[0];
    expect(listed.lastDelivery).toMatchObject({ eventId: response.body.delivery.eventId, status: 'delivered' });
  });

  it('answers a failed test send with the status code, and does not retry it', async () => {
    const { webhook } = await endpoint();
    receiver.statuses.push(503);
    const response = await owner.post(`/api/webhooks/${webhook.id}/test`).set('Origin', t.origin);
    expect(response.body.delivery).toMatchObject({
      status: 'failed',
      statusCode: 503,
      lastError: 'The endpoint answered HTTP 503.',
      nextAttemptAt: null,
    });
    expect(await webhooks.deliverDue(new Date(Date.now() + HOUR))).toBe(0);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const { webhook } = await endpoint();
    receiver.statuses.push(302);
    const response = await owner.post(`/api/webhooks/${webhook.id}/test`).set('Origin', t.origin);
    expect(response.body.delivery).toMatchObject({ status: 'failed', statusCode: 302 });
    expect(receiver.received).toHaveLength(1);
  });

  it(`answers 429 after ${WEBHOOK_LIMITS.testsPerMinute} test sends in a minute`, async () => {
    // A new owner: the tests above sent test events within this minute.
    const sender = (await signedInAgent(t)).agent;
    const created = await create(sender, { url: receiver.url, events: ['lead.created'] });
    const id = created.body.webhook.id as number;
    // Another owner's id is 404 and counts nothing; the owner's own sends are limited.
    for (let i = 0; i <= WEBHOOK_LIMITS.testsPerMinute; i += 1) {
      expect((await other.post(`/api/webhooks/${id}/test`).set('Origin', t.origin)).status).toBe(404);
    }
    const sent: request.Response[] = [];
    for (let i = 0; i <= WEBHOOK_LIMITS.testsPerMinute; i += 1) {
      sent.push(await sender.post(`/api/webhooks/${id}/test`).set('Origin', t.origin));
    }
    expect(sent.slice(0, -1).map((r) => r.status)).toEqual(Array(WEBHOOK_LIMITS.testsPerMinute).fill(200));
    const last = sent[sent.length - 1];
    expect([last.status, last.body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(receiver.received).toHaveLength(WEBHOOK_LIMITS.testsPerMinute);
  });

  it('retries after a 500 from the receiver with backoff, then delivers the same event', async () => {
    const { webhook } = await endpoint(['lead.created']);
    receiver.statuses.push(500);
    const start = new Date();
    expect(await webhooks.publish(ownerId, 'lead.created', { leadId: 7 }, { at: start })).toBe(1);

    expect(await webhooks.deliverDue(start)).toBe(1);
    let [delivery] = await deliveriesOf(webhook.id);
    expect(delivery).toMatchObject({ type: 'lead.created', status: 'pending', statusCode: 500, attempts: 1 });
    expect(delivery.lastError).toBe('The endpoint answered HTTP 500.');
    const next = new Date(delivery.nextAttemptAt as string).getTime();
    expect(next).toBeGreaterThanOrEqual(start.getTime() + MINUTE);
    expect(next).toBeLessThan(start.getTime() + 2 * MINUTE);

    expect(await webhooks.deliverDue(new Date(start.getTime() + 30_000))).toBe(0);
    expect(receiver.received).toHaveLength(1);

    expect(await webhooks.deliverDue(new Date(next))).toBe(1);
    [delivery] = await deliveriesOf(webhook.id);
    expect(delivery).toMatchObject({
      status: 'delivered',
      statusCode: 200,
      attempts: 2,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({ type: 'lead.created', data: { leadId: 7 } });
    expect(await webhooks.deliverDue(new Date(next + HOUR))).toBe(0);
  });

  it('delivers an event id once per endpoint, only to endpoints that want its type', async () => {
    const first = await endpoint(['lead.created']);
    const second = await endpoint(['lead.created', 'conversation.handoff']);
    const unrelated = await endpoint(['bot.budget_reached']);
    const at = new Date();
    expect(await webhooks.publish(ownerId, 'lead.created', { n: 1 }, { eventId: 'evt_same', at })).toBe(2);
    expect(await webhooks.publish(ownerId, 'lead.created', { n: 2 }, { eventId: 'evt_same', at })).toBe(0);
    expect(await webhooks.deliverDue(at)).toBe(2);
    expect(await webhooks.deliverDue(new Date(at.getTime() + HOUR))).toBe(0);
    expect(receiver.received.map((r) => JSON.parse(r.body).id)).toEqual(['evt_same', 'evt_same']);
    expect((await deliveriesOf(first.webhook.id)).length).toBe(1);
    expect((await deliveriesOf(second.webhook.id)).length).toBe(1);
    expect(await deliveriesOf(unrelated.webhook.id)).toEqual([]);
  });

  it('sends each delivery once when several workers claim at the same time', async () => {
    await endpoint(['lead.created']);
    const at = new Date();
    for (let i = 0; i < 12; i += 1) await webhooks.publish(ownerId, 'lead.created', { n: i }, { at });
    // Each pass claims with its own database connection, as another instance would.
    const passes = await Promise.all([webhooks.deliverDue(at), webhooks.deliverDue(at), webhooks.deliverDue(at)]);
    expect(passes.reduce((sum, n) => sum + n, 0)).toBe(12);
    const ids = receiver.received.map((r) => JSON.parse(r.body).id as string);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it('gives up 24 h after the event', async () => {
    const { webhook } = await endpoint();
    receiver.statuses.push(500, 500, 500);
    const start = new Date();
    await webhooks.publish(ownerId, 'lead.created', {}, { at: start });
    expect(await webhooks.deliverDue(start)).toBe(1);
    expect(await webhooks.deliverDue(new Date(start.getTime() + 23 * HOUR + 58 * MINUTE))).toBe(1);
    const [delivery] = await deliveriesOf(webhook.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 2, statusCode: 500, nextAttemptAt: null });
    expect(await webhooks.deliverDue(new Date(start.getTime() + 48 * HOUR))).toBe(0);
    expect(receiver.received).toHaveLength(2);
  });

  it('stops delivering to a deleted endpoint', async () => {
    const { webhook } = await endpoint();
    await webhooks.publish(ownerId, 'lead.created', {});
    await owner.delete(`/api/webhooks/${webhook.id}`).set('Origin', t.origin);
    expect(await webhooks.deliverDue(new Date())).toBe(0);
    expect(receiver.received).toEqual([]);
  });

  it("deletes a deleted account's endpoints and their deliveries", async () => {
    const leaving = await signedInAgent(t);
    const created = await create(leaving.agent, { url: receiver.url, events: ['lead.created'] });
    expect(created.status).toBe(201);
    await webhooks.publish(leaving.user.id, 'lead.created', {});
    expect((await leaving.agent.delete('/api/auth/delete-account').set('Origin', t.origin)).status).toBe(200);
    expect(await t.dataSource.query(`SELECT id FROM webhook_endpoints WHERE owner_id = $1`, [leaving.user.id])).toEqual(
      [],
    );
    expect(await webhooks.deliverDue(new Date())).toBe(0);
    expect(receiver.received).toEqual([]);
  });

  it('queues conversation.unanswered when the bot cannot answer', async () => {
    const { webhook } = await endpoint(['conversation.unanswered']);
    const bot = await createChatBot(t, ownerId, { name: 'Quiet Bot' });
    const asked = await t.http().post('/api/chat').send({ botId: bot.id, prompt: 'Do you sell blue paint?' });
    expect(asked.status).toBe(200);
    await webhooks.settled();
    expect(await webhooks.deliverDue(new Date())).toBe(1);
    const [event] = receiver.received.map((r) => JSON.parse(r.body));
    expect(event).toMatchObject({
      type: 'conversation.unanswered',
      data: { botId: bot.id, botName: 'Quiet Bot', question: 'Do you sell blue paint?' },
    });
    expect(event.data.conversationId).toEqual(expect.any(Number));
    expect((await deliveriesOf(webhook.id))[0]).toMatchObject({ status: 'delivered' });
  });

  it("queues an answer's event only when an endpoint takes its type, and from the next message after one is added", async () => {
    const bot = await createChatBot(t, ownerId, { name: 'Unheard Bot' });
    const enqueue = jest.spyOn(t.app.get(WebhooksRepository), 'enqueue');
    try {
      // No endpoint, then one that takes other types: the unanswered answer queues nothing, with no statement.
      for (const events of [null, ['lead.created']]) {
        if (events) await endpoint(events);
        const asked = await t.http().post('/api/chat').send({ botId: bot.id, prompt: 'Do you sell green paint?' });
        expect(asked.status).toBe(200);
        await webhooks.settled();
        expect(enqueue).not.toHaveBeenCalled();
      }
      await endpoint(['conversation.unanswered']);
      const asked = await t.http().post('/api/chat').send({ botId: bot.id, prompt: 'Do you sell red paint?' });
      expect(asked.status).toBe(200);
      await webhooks.settled();
      expect(enqueue).toHaveBeenCalledTimes(1);
      expect(await webhooks.deliverDue(new Date())).toBe(1);
      expect(receiver.received.map((r) => JSON.parse(r.body))).toEqual([
        expect.objectContaining({
          type: 'conversation.unanswered',
          data: expect.objectContaining({ botId: bot.id, question: 'Do you sell red paint?' }),
        }),
      ]);
    } finally {
      enqueue.mockRestore();
    }
  });

  it('queues conversation.unanswered when a visitor rates an answer down, once per answer', async () => {
    await endpoint(['conversation.unanswered']);
    const bot = await createChatBot(t, ownerId, { name: 'Rated Bot' });
    const visitorToken = (await t.http().post('/api/chat').send({ botId: bot.id, prompt: 'Hello?' })).headers[
      'x-visitor-token'
    ];
    await webhooks.settled();
    await t.dataSource.query(`DELETE FROM webhook_deliveries`);
    const [answer]: Array<{ id: number }> = await t.dataSource.query(
      `SELECT m.id FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.bot_id = $1 AND m.role = 'assistant'`,
      [bot.id],
    );
    // The offline model could not answer this one either: flag it as answered first, so the
    // rating is what flags it.
    await t.dataSource.query(`UPDATE messages SET unanswered = false WHERE id = $1`, [answer.id]);
    for (let i = 0; i < 2; i += 1) {
      const rated = await t
        .http()
        .post('/api/chat/feedback')
        .set('X-Visitor-Token', visitorToken)
        .send({ botId: bot.id, messageId: answer.id, rating: 'down' });
      expect(rated.status).toBe(204);
    }
    await webhooks.settled();
    expect(await webhooks.deliverDue(new Date())).toBe(1);
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({
      type: 'conversation.unanswered',
      data: { botId: bot.id, botName: 'Rated Bot', messageId: answer.id, question: 'Hello?' },
    });
  });

  it('queues bot.budget_reached once when a bot reaches its monthly budget', async () => {
    await endpoint(['bot.budget_reached']);
    const bot = await createChatBot(t, ownerId, { name: 'Thrifty Bot', usageLimitDollars: 1 });
    await chargeMessage(t, ownerId, 99, undefined, { botId: bot.id });
    for (let i = 0; i < 2; i += 1) {
      const refused = await t.http().post('/api/chat').send({ botId: bot.id, prompt: 'Hello?' });
      expect(refused.body.code).toBe('BOT_BUDGET_REACHED');
    }
    await t.app.get(BudgetAlertsService).settled();
    await webhooks.settled();
    expect(await webhooks.deliverDue(new Date())).toBe(1);
    expect(receiver.received.map((r) => JSON.parse(r.body))).toEqual([
      expect.objectContaining({
        type: 'bot.budget_reached',
        data: expect.objectContaining({ botId: bot.id, botName: 'Thrifty Bot', budgetDollars: 1 }),
      }),
    ]);
  });
});

describe('webhooks worker', () => {
  it('sends an event queued on this instance at once, without waiting for the next poll', async () => {
    const t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '3600000' });
    const receiver = await startReceiver();
    try {
      const { agent, user } = await signedInAgent(t);
      const created = await agent
        .post('/api/webhooks')
        .set('Origin', t.origin)
        .send({ url: receiver.url, events: ['lead.created'] });
      expect(created.status).toBe(201);
      await t.app.get(WebhooksService).publish(user.id, 'lead.created', { leadId: 1 });
      await eventually(async () => receiver.received.length === 1);
      // The worker marks the delivery after the receiver's answer reached it: wait for that write.
      const status = async () => {
        const rows: Array<{ status: string }> = await t.dataSource.query(`SELECT status FROM webhook_deliveries`);
        return rows[0]?.status;
      };
      await eventually(async () => (await status()) === 'delivered');
      expect(await status()).toBe('delivered');
    } finally {
      await receiver.close();
      await t.close();
    }
  });
});

describe('webhooks SSRF guard (private addresses refused)', () => {
  let t: TestApp;
  let owner: request.Agent;
  let ownerId: number;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_POLL_MS: '0' });
    const signedIn = await signedInAgent(t);
    owner = signedIn.agent;
    ownerId = signedIn.user.id;
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it.each([
    ['plain http', 'http://hooks.example/', 400, 'URL_INVALID'],
    ['loopback', 'https://127.0.0.1/', 422, 'URL_NOT_ALLOWED'],
    ['loopback in hex', 'https://0x7f.0.0.1/', 422, 'URL_NOT_ALLOWED'],
    ['loopback as a number', 'https://2130706433/', 422, 'URL_NOT_ALLOWED'],
    ['IPv6 loopback', 'https://[::1]/', 422, 'URL_NOT_ALLOWED'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/', 422, 'URL_NOT_ALLOWED'],
    ['localhost', 'https://localhost/', 422, 'URL_NOT_ALLOWED'],
    ['a name under localhost', 'https://api.localhost/', 422, 'URL_NOT_ALLOWED'],
    ['a private network', 'https://10.1.2.3/', 422, 'URL_NOT_ALLOWED'],
    ['link-local', 'https://169.254.10.10/', 422, 'URL_NOT_ALLOWED'],
    ['cloud metadata', 'https://169.254.169.254/', 422, 'URL_NOT_ALLOWED'],
    ['a metadata name', 'https://metadata.google.internal/', 422, 'URL_NOT_ALLOWED'],
    ['unique-local IPv6', 'https://[fd00::1]/', 422, 'URL_NOT_ALLOWED'],
    ['a non-standard port', 'https://hooks.example:8443/', 422, 'URL_NOT_ALLOWED'],
    ['credentials in the address', 'https://user:pass@hooks.example/', 400, 'URL_INVALID'],
  ])('refuses %s at registration', async (_name, url, status, code) => {
    const response = await owner
      .post('/api/webhooks')
      .set('Origin', t.origin)
      .send({ url, events: ['lead.created'] });
    expect([response.status, response.body.code]).toEqual([status, code]);
    expect(await t.dataSource.query(`SELECT id FROM webhook_endpoints`)).toEqual([]);
  });

  it('accepts a public https address without looking it up', async () => {
    const response = await owner
      .post('/api/webhooks')
      .set('Origin', t.origin)
      .send({ url: 'https://hooks.example/botsmith', events: ['lead.created'] });
    expect(response.status).toBe(201);
    await owner.delete(`/api/webhooks/${response.body.webhook.id}`).set('Origin', t.origin);
  });

  it('refuses at delivery an endpoint whose address is private, and sends it nothing', async () => {
    // As if registered when it pointed elsewhere: the delivery checks the address again.
    await t.dataSource.query(
      `INSERT INTO webhook_endpoints (owner_id, url, events, secret) VALUES ($1, $2, '{lead.created}', 'whsec_x')`,
      [ownerId, receiver.url],
    );
    const webhooks = t.app.get(WebhooksService);
    await webhooks.publish(ownerId, 'lead.created', {});
    expect(await webhooks.deliverDue(new Date())).toBe(1);
    const [row]: Array<{ status: string; last_error: string; status_code: number | null }> = await t.dataSource.query(
      `SELECT status, last_error, status_code FROM webhook_deliveries`,
    );
    expect(row).toEqual({
      status: 'pending',
      last_error: 'Refused: the address is not allowed (loopback).',
      status_code: null,
    });
    expect(receiver.received).toEqual([]);
  });

  describe('a name that resolves to a private address (stub resolver, refusing connect hook)', () => {
    const PUBLIC_ADDRESS = '93.184.215.14';

    function network(answers: () => string[]) {
      const connections: ConnectTarget[] = [];
      return {
        connections,
        resolve: async () => answers().map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }) as const),
        // PUBLIC_ADDRESS goes to the loopback receiver; nothing else is ever connected.
        connect: (target: ConnectTarget) => {
          connections.push(target);
          if (target.host === PUBLIC_ADDRESS) return net.connect({ host: '127.0.0.1', port: receiver.port });
          const socket = new net.Socket();
          process.nextTick(() =>
            socket.destroy(Object.assign(new Error('refused by the test'), { code: 'ECONNREFUSED' })),
          );
          return socket;
        },
      };
    }

    it.each([
      ['a private address', ['10.0.0.5']],
      ['cloud metadata', ['169.254.169.254']],
      ['a public and a private address together', [PUBLIC_ADDRESS, '192.168.1.1']],
    ])('refuses %s without connecting', async (_name, addresses) => {
      const net = network(() => addresses);
      const sender = new WebhookSender({ allowPrivate: false, timeoutMs: 5000, ...net });
      const result = await sender.send('http://hooks.example/', '{}', 'whsec_x');
      sender.destroy();
      expect(result.ok).toBe(false);
      // Said exactly as of a name that does not resolve (no oracle of our internal DNS).
      expect(result.error).toBe(UNREACHABLE_NAME);
      expect(net.connections).toEqual([]);
    });

    it('says the same of a private name as of one that does not resolve, or resolves to nothing', async () => {
      const results: string[] = [];
      const resolvers = [
        async () => [{ address: '10.0.0.5', family: 4 as const }],
        async () => {
          throw Object.assign(new Error('getaddrinfo ENOTFOUND intranet.hooks.example'), { code: 'ENOTFOUND' });
        },
        async () => [],
      ];
      for (const resolve of resolvers) {
        const connections: ConnectTarget[] = [];
        const sender = new WebhookSender({
          allowPrivate: false,
          timeoutMs: 5000,
          resolve,
          connect: (target) => {
            connections.push(target);
            throw new Error('no connection may be made');
          },
        });
        const result = await sender.send('https://intranet.hooks.example/', '{}', 'whsec_x');
        sender.destroy();
        expect(connections).toEqual([]);
        results.push(JSON.stringify(result));
      }
      expect(new Set(results).size).toBe(1);
      expect(JSON.parse(results[0])).toEqual({ ok: false, statusCode: null, error: UNREACHABLE_NAME });
    });

    it('checks the address again at each delivery (DNS rebinding)', async () => {
      let answer = PUBLIC_ADDRESS;
      const net = network(() => [answer]);
      const sender = new WebhookSender({ allowPrivate: false, timeoutMs: 5000, ...net });
      expect(await sender.send('http://hooks.example/', '{}', 'whsec_x')).toEqual({
        ok: true,
        statusCode: 200,
        error: null,
      });
      answer = '127.0.0.1';
      const rebound = await sender.send('http://hooks.example/', '{}', 'whsec_x');
      sender.destroy();
      expect(rebound).toEqual({ ok: false, statusCode: null, error: UNREACHABLE_NAME });
      expect(net.connections.map((c) => c.host)).toEqual([PUBLIC_ADDRESS]);
      expect(receiver.received).toHaveLength(1);
    });
  });
});
