import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createChatBot } from '../support/chat-factories.js';
import { createUser, signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * No whole client IP address is stored in the database (docs/product.md#retention-and-visitor-privacy):
 * visitors chat and rate answers, and an owner calls the API, from addresses given in X-Forwarded-For
 * (the test client is loopback, which the app trusts as a proxy); then every text-like column of
 * every table is searched for them.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
});
afterAll(() => t.close());

const SITE = 'https://shop.example';
const IPV4 = '203.0.113.77';
const IPV6 = '2001:db8:abcd:12:3456:789a:bcde:f077';

/** Every (table, column) of a type that could hold an address written as text. */
async function textColumns(): Promise<Array<{ table: string; column: string }>> {
  return t.dataSource.query(
    `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
      WHERE table_schema = current_schema()
        AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'inet', 'cidr', 'ARRAY', 'bytea')
      ORDER BY 1, 2`,
  );
}

async function rowsHolding(needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const { table, column } of await textColumns()) {
    const rows: Array<{ n: string }> = await t.dataSource.query(
      `SELECT COUNT(*) AS n FROM "${table}" WHERE position(lower($1) in lower("${column}"::text)) > 0`,
      [needle],
    );
    if (Number(rows[0].n) > 0) found.push(`${table}.${column}`);
  }
  return found;
}

describe('client IP addresses', () => {
  it('are not stored whole in any table after chats, ratings and leads from IPv4, IPv6 and mapped addresses', async () => {
    const owner = await createUser(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example' });
    for (const ip of [IPV4, IPV6, `::ffff:${IPV4}`]) {
      const answer = await t
        .http()
        .post('/api/chat')
        .set('Origin', SITE)
        .set('X-Forwarded-For', ip)
        .set('X-Page-Url', `${SITE}/help`)
        .send({ botId: bot.id, prompt: 'When do you open?' });
      expect(answer.status).toBe(200);
      const token = answer.headers['x-visitor-token'];
      const rated = await t
        .http()
        .post('/api/chat/feedback')
        .set('Origin', SITE)
        .set('X-Forwarded-For', ip)
        .set('X-Visitor-Token', token)
        .send({ botId: bot.id, messageId: answer.body.messageId, rating: 'down', comment: 'Not helpful' });
      expect(rated.status).toBe(204);
      const lead = await t
        .http()
        .post('/api/chat/lead')
        .set('Origin', SITE)
        .set('X-Forwarded-For', ip)
        .set('X-Visitor-Token', token)
        .set('X-Page-Url', `${SITE}/help`)
        .send({ botId: bot.id, email: 'visitor@example.org' });
      expect(lead.status).toBe(201);
    }
    const { agent } = await signedInAgent(t);
    expect((await agent.get('/api/user/me').set('X-Forwarded-For', IPV4)).status).toBe(200);

    // The log holds what the visitors wrote (so the search does reach the chat tables).
    expect(await rowsHolding('When do you open?')).toEqual(expect.arrayContaining(['messages.content']));
    expect(await rowsHolding('visitor@example.org')).toEqual(['leads.email']);
    expect(await rowsHolding(IPV4)).toEqual([]);
    expect(await rowsHolding(IPV6)).toEqual([]);
    expect(await rowsHolding('2001:db8:abcd:12:')).toEqual([]);
  });
});
