import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  chatAndDisconnectAfterFirstToken,
  createChatBot,
  creditsOf,
  eventually,
  listen,
  messagesOfBot,
  parseSse,
  usageOfOwner,
  visitor,
} from '../support/chat-factories.js';
import { createUser } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { describeOnServer } from '../support/test-database.js';

/**
 * The chat path with the production model adapter: the app (OPENAI_API_KEY + OPENAI_BASE_URL)
 * talks through the real `openai` SDK to a local server speaking Chat Completions. Proves the
 * ledger takes the provider's token counts, and that failures, timeouts and visitors who leave
 * are never charged.
 */
type Mode = 'answer' | 'fail' | 'silent' | 'endless';
let mode: Mode;
let upstreamRequests: Array<Record<string, unknown>>;
let upstreamClosedEarly: number;
let upstream: http.Server;
let t: TestApp;

function chunk(model: string, content: string | null, finish: string | null = null, usage?: object): string {
  const choices =
    content === null && finish === null ? [] : [{ index: 0, delta: content ? { content } : {}, finish_reason: finish }];
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices, usage: usage ?? null })}\n\n`;
}

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      upstreamRequests.push(body);
      res.on('close', () => {
        if (!res.writableFinished) upstreamClosedEarly += 1;
      });
      const model = `${String(body.model)}-snapshot`;
      if (mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"boom","type":"server_error"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (mode === 'silent') return;
      if (mode === 'endless') {
        const timer = setInterval(() => {
          if (res.destroyed) return clearInterval(timer);
          res.write(chunk(model, 'more '));
        }, 20);
        return;
      }
      for (const piece of ['Refunds ', 'take ', '30 days ', '(page 2).']) res.write(chunk(model, piece));
      res.write(chunk(model, null, 'stop'));
      res.write(chunk(model, null, null, { prompt_tokens: 812, completion_tokens: 7, total_tokens: 819 }));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const port = (upstream.address() as AddressInfo).port;
  t = await startTestApp({
    OPENAI_API_KEY: 'sk-test-local',
    OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
    OPENAI_MODEL_MAP: 'gpt-4o=local-model-x',
    OPENAI_TIMEOUT_MS: '1000',
    OPENAI_MAX_RETRIES: '0',
  });
});

afterAll(async () => {
  await t.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

beforeEach(() => {
  mode = 'answer';
  upstreamRequests = [];
  upstreamClosedEarly = 0;
});

function chat(botId: number, prompt: string, sse = false) {
  const request = t.http().post('/api/chat').set('X-Visitor-Id', visitor());
  if (sse) {
    request
      .set('Accept', 'text/event-stream')
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => done(null, text));
      });
  }
  return request.send({ botId, prompt });
}

describe('chat through the OpenAI adapter (local Chat Completions server)', () => {
  it('sends the bot prompt, the mapped upstream model and the bot settings; meters the reported tokens', async () => {
    const owner = await createUser(t, { creditsCents: 500 });
    const bot = await createChatBot(t, owner.id, {
      model: 'gpt-4o',
      prompt: 'You are the Acme helper.',
      maxTokens: 120,
    });
    const response = await chat(bot.id, 'How long for refunds?');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: 'Refunds take 30 days (page 2).',
      messageId: expect.any(Number),
      citations: [],
    });

    expect(upstreamRequests).toHaveLength(1);
    const sent = upstreamRequests[0];
    expect(sent).toMatchObject({
      model: 'local-model-x',
      max_tokens: 120,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(sent.temperature).toBeCloseTo(0.3);
    const messages = sent.messages as Array<{ role: string; content: string }>;
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain('You are the Acme helper.');
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'How long for refunds?' });

    const rows: Array<Record<string, unknown>> = await t.dataSource.query(
      `SELECT model_tier, upstream_model, price_cents, prompt_tokens, completion_tokens, total_tokens
         FROM usage_events WHERE owner_id = $1`,
      [owner.id],
    );
    expect(rows).toEqual([
      {
        model_tier: 'gpt-4o',
        upstream_model: 'local-model-x-snapshot',
        price_cents: 5,
        prompt_tokens: 812,
        completion_tokens: 7,
        total_tokens: 819,
      },
    ]);
  });

  it('502 UPSTREAM_FAILED when the model service fails: logged for the owner, never charged', async () => {
    mode = 'fail';
    const owner = await createUser(t, { creditsCents: 500 });
    const bot = await createChatBot(t, owner.id);
    const response = await chat(bot.id, 'Hello?');
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      error: 'The AI model could not answer right now. Please try again.',
      code: 'UPSTREAM_FAILED',
    });
    expect(await usageOfOwner(t, owner.id)).toMatchObject({ rows: 0 });
    expect(await creditsOf(t, owner.id)).toBe(500);
    expect(await messagesOfBot(t, bot.id)).toEqual([
      { role: 'user', content: 'Hello?' },
      { role: 'error', content: 'The AI model could not answer right now. Please try again.' },
    ]);
  });

  it('streams the failure as an error event once the stream is open', async () => {
    mode = 'fail';
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id);
    const response = await chat(bot.id, 'Hello?', true);
    expect(response.status).toBe(200);
    expect(parseSse(response.body as string)).toEqual([
      {
        event: 'error',
        data: { error: 'The AI model could not answer right now. Please try again.', code: 'UPSTREAM_FAILED' },
      },
    ]);
    expect((await usageOfOwner(t, owner.id)).rows).toBe(0);
  });

  it('504 UPSTREAM_TIMEOUT when the model goes silent, never charged', async () => {
    mode = 'silent';
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id);
    const response = await chat(bot.id, 'Hello?');
    expect(response.status).toBe(504);
    expect(response.body.code).toBe('UPSTREAM_TIMEOUT');
    expect((await usageOfOwner(t, owner.id)).rows).toBe(0);
  });

  it('a visitor who disconnects stops the upstream call, and the answer costs nothing', async () => {
    mode = 'endless';
    const owner = await createUser(t, { creditsCents: 500 });
    const bot = await createChatBot(t, owner.id);
    const base = await listen(t);
    await chatAndDisconnectAfterFirstToken(base, { botId: bot.id, prompt: 'Tell me everything' }, visitor());
    await eventually(() => Promise.resolve(upstreamClosedEarly === 1));
    await eventually(async () => (await messagesOfBot(t, bot.id)).some((m) => m.role === 'error'));
    expect(await usageOfOwner(t, owner.id)).toMatchObject({ rows: 0 });
    expect(await creditsOf(t, owner.id)).toBe(500);
  });
});

// Two app instances need one database both reach: the PostgreSQL server. An embedded PGlite belongs
// to one process (its folder is locked), so without TEST_DATABASE_URL this part is skipped.
describeOnServer('rate limits in Redis (REDIS_URL) hold across instances', () => {
  it('counts one visitor across two app instances sharing Redis and the database', async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    // One session secret, as every instance of one deployment has: a visitor token one issues, the other honours.
    const env = {
      REDIS_URL: redisUrl,
      CHAT_VISITOR_RATE_LIMIT: '3',
      SESSION_SECRET: 'shared-by-both-instances-0123456789abcdef',
    };
    const a = await startTestApp({ ...env, DATABASE_URL: t.database.url });
    const b = await startTestApp({ ...env, DATABASE_URL: t.database.url });
    try {
      const owner = await createUser(t);
      const bot = await createChatBot(t, owner.id);
      mode = 'answer';
      const statuses: number[] = [];
      let token: string | undefined;
      for (const app of [a, b, a, b]) {
        const request = app.http().post('/api/chat');
        if (token) request.set('X-Visitor-Token', token);
        const response = await request.send({ botId: bot.id, prompt: 'Hi' });
        token ??= response.headers['x-visitor-token'] as string | undefined;
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
