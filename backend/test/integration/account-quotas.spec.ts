import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { botLimitSentence } from '../../src/modules/bots/bots.service.js';
import { REPLY_STREAMS_BUSY_SENTENCE } from '../../src/modules/chat/agent-messages.service.js';
import { EMBEDDING_WAITS_NOTICE } from '../../src/modules/knowledge/passage-embeddings.service.js';
import { accountQuotaExceededSentence, crawlAccountQuotaSentence } from '../../src/modules/knowledge/quota.js';
import { createBotViaApi } from '../support/bot-factories.js';
import { createChatBot, listen } from '../support/chat-factories.js';
import { createUser, signedInAgent } from '../support/factories.js';
import { startEmbeddingsServer, type EmbeddingsServer } from '../support/embeddings-server.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { page, startTestWebsite } from '../support/test-website.js';

/**
 * Per-account quotas (docs/product.md#quotas), the attack as the test: an owner creating bot after
 * bot, spreading sources over several bots past the account's bytes, having more passages embedded
 * in a day than the account may; and a crowd holding reply streams open on one instance. The
 * limits are set low here; their defaults are checked in config.spec.ts.
 */
const MAX_BOTS = 3;
const BOT_BYTES = 2000;
const ACCOUNT_BYTES = 3000;
const EMBEDDED_PER_DAY = 3;
const STREAMS = 2;
const MODEL = 'test-embedding-small';

let t: TestApp;
let embeddings: EmbeddingsServer;
let base: string;

beforeAll(async () => {
  embeddings = await startEmbeddingsServer();
  t = await startTestApp({
    MAX_BOTS_PER_ACCOUNT: String(MAX_BOTS),
    SOURCES_MAX_BYTES_PER_BOT: String(BOT_BYTES),
    SOURCES_MAX_BYTES_PER_ACCOUNT: String(ACCOUNT_BYTES),
    EMBEDDED_PASSAGES_PER_ACCOUNT_PER_DAY: String(EMBEDDED_PER_DAY),
    REPLY_STREAMS_PER_INSTANCE: String(STREAMS),
    OPENAI_API_KEY: 'sk-test-embeddings',
    OPENAI_BASE_URL: embeddings.url,
    OPENAI_EMBEDDING_MODEL: MODEL,
    OPENAI_MAX_RETRIES: '0',
    SOURCE_JOBS_POLL_MS: '50',
    CRAWL_ALLOW_PRIVATE: 'true',
  });
  base = await listen(t);
});
afterAll(async () => {
  await t.close();
  await embeddings.close();
});

async function botsOf(ownerId: number): Promise<string[]> {
  const rows: Array<{ name: string }> = await t.dataSource.query(
    `SELECT name FROM bots WHERE owner_id = $1 ORDER BY id`,
    [ownerId],
  );
  return rows.map((row) => row.name);
}

async function sourcesOf(ownerId: number): Promise<Array<{ name: string; bytes: number }>> {
  return t.dataSource.query(
    `SELECT s.name, s.bytes FROM bot_sources s JOIN bots b ON b.id = s.bot_id WHERE b.owner_id = $1 ORDER BY s.id`,
    [ownerId],
  );
}

async function until<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('bots per account', () => {
  it(`creates ${MAX_BOTS} bots; the next is 409 with a sentence and no bot is stored`, async () => {
    const { agent, user } = await signedInAgent(t);
    for (let i = 1; i <= MAX_BOTS; i += 1) await createBotViaApi(t, agent, `Bot ${i}`);

    const refused = await agent.post('/api/bots').set('Origin', t.origin).send({ botName: 'One too many' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: botLimitSentence(MAX_BOTS), code: 'BOT_LIMIT_REACHED' });
    expect(await botsOf(user.id)).toEqual(['Bot 1', 'Bot 2', 'Bot 3']);
  });

  it('holds when the creations arrive at once, and a deleted bot makes room', async () => {
    const { agent, user } = await signedInAgent(t);
    const answers = await Promise.all(
      Array.from({ length: MAX_BOTS + 3 }, (_, i) =>
        agent
          .post('/api/bots')
          .set('Origin', t.origin)
          .send({ botName: `Rush ${i}` }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_BOTS);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(3);
    expect(await botsOf(user.id)).toHaveLength(MAX_BOTS);

    const created = answers.find((answer) => answer.status === 201)!;
    expect((await agent.delete(`/api/bots/${created.body.bot.id}`).set('Origin', t.origin)).status).toBe(200);
    expect((await agent.post('/api/bots').set('Origin', t.origin).send({ botName: 'Again' })).status).toBe(201);
  });

  it("one owner at the limit does not stop another owner's bots", async () => {
    const { agent: first } = await signedInAgent(t);
    for (let i = 0; i < MAX_BOTS; i += 1) await createBotViaApi(t, first, `Full ${i}`);
    const { agent: second } = await signedInAgent(t);
    expect((await second.post('/api/bots').set('Origin', t.origin).send({ botName: 'Mine' })).status).toBe(201);
  });
});

describe('source bytes per account', () => {
  function upload(agent: ReturnType<TestApp['agent']>, botId: number, filename: string, bytes: number) {
    return agent
      .post(`/api/bots/${botId}/sources/files`)
      .set('Origin', t.origin)
      .attach('file', Buffer.from('a'.repeat(bytes - 1) + '\n'), { filename, contentType: 'text/plain' });
  }

  it('refuses an upload that passes the account quota across two bots (413, nothing stored)', async () => {
    const { agent, user } = await signedInAgent(t);
    const first = await createBotViaApi(t, agent, 'First');
    const second = await createBotViaApi(t, agent, 'Second');
    expect((await upload(agent, first, 'one.txt', 1800)).status).toBe(201);
    // Within the second bot's own quota (2000), but the account would hold 1800 + 1500 > 3000.
    const refused = await upload(agent, second, 'two.txt', 1500);
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({
      error: accountQuotaExceededSentence(ACCOUNT_BYTES),
      code: 'ACCOUNT_SOURCES_QUOTA_EXCEEDED',
    });
    // A written answer is refused the same way.
    const text = await agent
      .post(`/api/bots/${second}/sources/text`)
      .set('Origin', t.origin)
      .send({ name: 'Long answer', text: 'word '.repeat(300) });
    expect(text.status).toBe(413);
    expect(text.body.code).toBe('ACCOUNT_SOURCES_QUOTA_EXCEEDED');
    expect(await sourcesOf(user.id)).toEqual([{ name: 'one.txt', bytes: 1800 }]);
    const listed = await agent.get(`/api/bots/${second}/sources`);
    expect(listed.body.sources).toEqual([]);

    // What fits in what is left is taken.
    expect((await upload(agent, second, 'small.txt', 1000)).status).toBe(201);
    expect((await sourcesOf(user.id)).map((s) => s.name)).toEqual(['one.txt', 'small.txt']);
  });

  it('holds when uploads to two bots arrive at once', async () => {
    const { agent, user } = await signedInAgent(t);
    const bots = [await createBotViaApi(t, agent, 'A'), await createBotViaApi(t, agent, 'B')];
    const answers = await Promise.all([
      upload(agent, bots[0], 'a1.txt', 1000),
      upload(agent, bots[1], 'b1.txt', 1000),
      upload(agent, bots[0], 'a2.txt', 900),
      upload(agent, bots[1], 'b2.txt', 900),
    ]);
    const total = (await sourcesOf(user.id)).reduce((sum, source) => sum + Number(source.bytes), 0);
    expect(total).toBeLessThanOrEqual(ACCOUNT_BYTES);
    expect(answers.filter((answer) => answer.status === 413).length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) expect([201, 413]).toContain(answer.status);
  });
});

describe('source bytes per account, crawled', () => {
  it("a crawl keeps the pages that fit in what the account's other bots leave, and says so", async () => {
    const words = (label: string) => `<p>${`${label} bread is baked fresh every morning. `.repeat(12)}</p>`;
    const site = await startTestWebsite({
      '/': () => ({ body: page('Home', words('Rye'), ['/a', '/b', '/c']) }),
      '/a': () => ({ body: page('A', words('Wheat')) }),
      '/b': () => ({ body: page('B', words('Spelt')) }),
      '/c': () => ({ body: page('C', words('Oat')) }),
    });
    try {
      const { agent, user } = await signedInAgent(t);
      const first = await createBotViaApi(t, agent, 'Shop');
      const second = await createBotViaApi(t, agent, 'Bakery');
      const file = await agent
        .post(`/api/bots/${first}/sources/files`)
        .set('Origin', t.origin)
        .attach('file', Buffer.from('Prices: '.repeat(225)), { filename: 'prices.txt', contentType: 'text/plain' });
      expect(file.status).toBe(201);
      const created = await agent
        .post(`/api/bots/${second}/sources/website`)
        .set('Origin', t.origin)
        .send({ url: `${site.origin}/`, maxPages: 10, refreshSchedule: 'off' });
      expect(created.status).toBe(201);
      const done = await until(
        'the crawl',
        async () =>
          ((await agent.get(`/api/bots/${second}/sources`)).body.sources as Array<Record<string, unknown>>)[0],
        (source) => source.status !== 'processing',
      );
      const pages = done.pages as number;
      expect(done).toMatchObject({ status: 'ready', notice: crawlAccountQuotaSentence(ACCOUNT_BYTES, pages) });
      expect(pages).toBeGreaterThan(0);
      expect(pages).toBeLessThan(4);
      const total = (await sourcesOf(user.id)).reduce((sum, source) => sum + Number(source.bytes), 0);
      expect(total).toBeLessThanOrEqual(ACCOUNT_BYTES);
    } finally {
      await site.close();
    }
  });
});

describe('passages embedded per account per day', () => {
  it(`embeds ${EMBEDDED_PER_DAY} passages a day; the rest wait with a notice and answer by full-text search`, async () => {
    const { agent } = await signedInAgent(t);
    const botId = await createBotViaApi(t, agent, 'Embedder');
    const texts = [
      ['Parking', 'Guests park free in the garage behind the hotel.'],
      ['Breakfast', 'Breakfast is served from seven to ten in the garden room.'],
      ['Checkout', 'Checkout is at eleven; late checkout costs twenty euros.'],
      ['Bikes', 'Bicycles can be borrowed at the front desk for the day.'],
    ];
    const ids: number[] = [];
    for (const [name, text] of texts) {
      const added = await agent.post(`/api/bots/${botId}/sources/text`).set('Origin', t.origin).send({ name, text });
      expect(added.status).toBe(201);
      ids.push(added.body.source.id as number);
    }

    const listed = await until(
      'three sources embedded and the fourth waiting',
      async () => (await agent.get(`/api/bots/${botId}/sources`)).body.sources as Array<Record<string, unknown>>,
      (sources) => sources.filter((s) => s.embedded === 1).length === 3 && sources.some((s) => s.notice !== null),
    );
    const waiting = listed.find((s) => s.embedded === 0)!;
    expect(waiting).toMatchObject({ status: 'ready', chunks: 1, embedded: 0, notice: EMBEDDING_WAITS_NOTICE });
    // The model was sent the day's quota and no more.
    const ours = new Set(texts.map(([, text]) => text));
    const sent = embeddings.requests.flatMap((r) => r.inputs).filter((input) => ours.has(input));
    expect(sent).toHaveLength(EMBEDDED_PER_DAY);
    // It waits for the next UTC day, and the wait is not counted as a failed attempt.
    const [state]: Array<{ embed_attempts: number; retry: Date }> = await t.dataSource.query(
      `SELECT embed_attempts, embed_retry_at AS retry FROM bot_sources WHERE id = $1`,
      [waiting.id],
    );
    expect(state.embed_attempts).toBe(0);
    const tomorrow = new Date();
    tomorrow.setUTCHours(24, 0, 0, 0);
    expect(new Date(state.retry).getTime()).toBe(tomorrow.getTime());
    // Still answering by full-text search.
    const [found]: Array<{ n: number }> = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM document_chunks WHERE source_id = $1`,
      [waiting.id],
    );
    expect(found.n).toBe(1);

    // Another account's passages are embedded as usual.
    const { agent: other } = await signedInAgent(t);
    const otherBot = await createBotViaApi(t, other, 'Other');
    const added = await other
      .post(`/api/bots/${otherBot}/sources/text`)
      .set('Origin', t.origin)
      .send({ name: 'Pool', text: 'The pool opens at eight.' });
    await until(
      "the other account's source embedded",
      async () => (await other.get(`/api/bots/${otherBot}/sources`)).body.sources[0] as Record<string, unknown>,
      (source) => source.embedded === 1,
    );
    expect(added.status).toBe(201);
    // And the first account's waiting source was not taken up again today.
    const again = (await agent.get(`/api/bots/${botId}/sources`)).body.sources as Array<Record<string, unknown>>;
    expect(again.find((s) => s.id === waiting.id)).toMatchObject({ embedded: 0, notice: EMBEDDING_WAITS_NOTICE });
  });
});

describe('open reply streams per instance', () => {
  const open: http.ClientRequest[] = [];
  afterAll(() => {
    for (const req of open) req.destroy();
  });

  function openStream(botId: number, apiKey: string, visitorId: string, ip: string) {
    return new Promise<{ status: number; body: Promise<string>; close(): void }>((resolve, reject) => {
      const req = http.get(`${base}/api/chat/conversations/current/events?botId=${botId}`, {
        headers: { authorization: `Bearer ${apiKey}`, 'x-visitor-id': visitorId, 'x-forwarded-for': ip },
      });
      open.push(req);
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
      req.on('response', (res) => {
        let received = '';
        res.on('data', (chunk: Buffer) => (received += chunk.toString()));
        const body = new Promise<string>((done) => res.on('end', () => done(received)));
        resolve({ status: res.statusCode ?? 0, body, close: () => req.destroy() });
      });
    });
  }

  it(`holds ${STREAMS} streams open on the instance; the next is 429 with a sentence, whoever opens it`, async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id);
    const other = await createChatBot(t, (await createUser(t)).id);
    // Different visitors, networks and bots: only the instance's cap applies.
    const first = await openStream(bot.id, bot.apiKey, 'visitor-aaaa-1', '203.0.113.1');
    const second = await openStream(bot.id, bot.apiKey, 'visitor-bbbb-2', '203.0.113.2');
    expect([first.status, second.status]).toEqual([200, 200]);

    const refused = await openStream(other.id, other.apiKey, 'visitor-cccc-3', '203.0.113.3');
    expect(refused.status).toBe(429);
    expect(JSON.parse(await refused.body)).toEqual({ error: REPLY_STREAMS_BUSY_SENTENCE, code: 'REPLY_STREAMS_BUSY' });

    // A closed stream gives its place back.
    first.close();
    const next = await until(
      'a place on the instance',
      async () => {
        const attempt = await openStream(other.id, other.apiKey, 'visitor-cccc-3', '203.0.113.3');
        if (attempt.status !== 200) await attempt.body;
        return attempt;
      },
      (attempt) => attempt.status === 200,
    );
    expect(next.status).toBe(200);
    second.close();
    next.close();
  });
});
