import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createChatBot, creditsOf, reservationsOf, usageOfOwner } from '../support/chat-factories.js';
import { createUser, signedInAgent, TEST_PASSWORD } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { watchPool } from '../support/pool-watch.js';
import { itOnServer } from '../support/test-database.js';

/**
 * Each instance keeps a copy of the bots it answered for (ServableBots), and the statement that
 * takes the visitor's lock checks the copy's version (docs/decisions/0016-chat-path-cost.md): a
 * message after any write to the bot, by any route, writer or instance, is answered from the
 * saved bot, and one after the bot or its owner is gone is refused 404 with nothing written.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function chatFrom(app: TestApp, botId: number, origin: string) {
  return app.http().post('/api/chat').set('Origin', origin).send({ botId, prompt: 'When do you open?' });
}

function chatWithKey(botId: number, apiKey: string) {
  return t
    .http()
    .post('/api/chat')
    .set('Authorization', `Bearer ${apiKey}`)
    .send({ botId, prompt: 'When do you open?' });
}

/** Every message logged in the owner's conversations (a deleted bot's conversations stay, without it). */
async function messagesOfOwner(ownerId: number): Promise<number> {
  const rows: Array<{ n: string }> = await t.dataSource.query(
    `SELECT COUNT(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.owner_id = $1`,
    [ownerId],
  );
  return Number(rows[0].n);
}

describe('POST /api/chat after the bot changed (this instance answered for it before)', () => {
  it('a domain the owner saved on the dashboard applies from the next message', async () => {
    const { agent, user } = await signedInAgent(t);
    const bot = await createChatBot(t, user.id, { allowedDomain: '' });
    expect((await chatFrom(t, bot.id, 'https://elsewhere.test')).status).toBe(200);

    await agent.put(`/api/bots/${bot.id}`).set('Origin', t.origin).send({ allowedDomain: 'shop.test' }).expect(200);

    const refused = await chatFrom(t, bot.id, 'https://elsewhere.test');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('DOMAIN_NOT_ALLOWED');
    expect((await chatFrom(t, bot.id, 'https://shop.test')).status).toBe(200);
    expect((await usageOfOwner(t, user.id)).rows).toBe(2);
    expect(await reservationsOf(t, bot.id)).toBe(0);
  });

  it('a rotated API key: the old key is refused (401) from the next message, the new one answers', async () => {
    const { agent, user } = await signedInAgent(t);
    const bot = await createChatBot(t, user.id);
    expect((await chatWithKey(bot.id, bot.apiKey)).status).toBe(200);

    const rotated = await agent.post(`/api/bots/${bot.id}/api-key`).set('Origin', t.origin).expect(200);

    const old = await chatWithKey(bot.id, bot.apiKey);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('INVALID_API_KEY');
    expect((await chatWithKey(bot.id, rotated.body.apiKey as string)).status).toBe(200);
    expect((await usageOfOwner(t, user.id)).rows).toBe(2);
  });

  it('a write outside the app (plain SQL, another tool) is seen too: the version is the row, not a timestamp', async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id, { allowedDomain: '' });
    expect((await chatFrom(t, bot.id, 'https://elsewhere.test')).status).toBe(200);
    await t.dataSource.query(`UPDATE bots SET allowed_domain = 'shop.test' WHERE id = $1`, [bot.id]);
    expect((await chatFrom(t, bot.id, 'https://elsewhere.test')).status).toBe(403);
    expect((await chatFrom(t, bot.id, 'https://shop.test')).status).toBe(200);
  });

  it('a deleted bot: 404 BOT_NOT_FOUND, no message, no lock and no charge left behind', async () => {
    const { agent, user } = await signedInAgent(t);
    const bot = await createChatBot(t, user.id);
    expect((await chatFrom(t, bot.id, 'https://elsewhere.test')).status).toBe(200);
    const credits = await creditsOf(t, user.id);
    const logged = await messagesOfOwner(user.id);

    await agent.delete(`/api/bots/${bot.id}`).set('Origin', t.origin).expect(200);

    const gone = await chatFrom(t, bot.id, 'https://elsewhere.test');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'This chatbot does not exist.', code: 'BOT_NOT_FOUND' });
    expect(await creditsOf(t, user.id)).toBe(credits);
    expect(await messagesOfOwner(user.id)).toBe(logged);
    expect(await reservationsOf(t, bot.id)).toBe(0);
  });

  it("a deleted owner account: 404, though the bot's row is untouched", async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id);
    expect((await chatFrom(t, bot.id, 'https://elsewhere.test')).status).toBe(200);
    await t.dataSource.query(`UPDATE users SET deleted_at = now() WHERE id = $1`, [owner.id]);
    expect((await chatFrom(t, bot.id, 'https://elsewhere.test')).status).toBe(404);
    expect(await reservationsOf(t, bot.id)).toBe(0);
  });

  it("the owner's credits and payment state are read with every message, never from the copy", async () => {
    const owner = await createUser(t, { billing: 'customer', creditsCents: 300 });
    const bot = await createChatBot(t, owner.id);
    expect((await chatFrom(t, bot.id, 'https://elsewhere.test')).status).toBe(200);
    // The owner's row changes, the bot's does not: the copy is still current, the gate still refuses.
    await t.dataSource.query(`UPDATE users SET credits_cents = 0 WHERE id = $1`, [owner.id]);
    const broke = await chatFrom(t, bot.id, 'https://elsewhere.test');
    expect(broke.status).toBe(402);
    expect(broke.body.code).toBe('OUT_OF_CREDITS');
    expect((await usageOfOwner(t, owner.id)).rows).toBe(1);
    await t.dataSource.query(`UPDATE users SET has_paid = false, credits_cents = 300 WHERE id = $1`, [owner.id]);
    expect((await chatFrom(t, bot.id, 'https://elsewhere.test')).body.code).toBe('PAYMENT_FAILED');
  });

  itOnServer('across instances: a save made through one is applied by the other', async () => {
    const second = await startTestApp({ DATABASE_URL: t.database.url });
    try {
      const { user } = await signedInAgent(t);
      const bot = await createChatBot(t, user.id, { allowedDomain: '' });
      // Both instances answer once, so both hold a copy.
      expect((await chatFrom(t, bot.id, 'https://elsewhere.test')).status).toBe(200);
      expect((await chatFrom(second, bot.id, 'https://elsewhere.test')).status).toBe(200);

      // The owner signs in on the second instance and saves there.
      const owner = second.agent();
      await owner
        .post('/api/auth/login')
        .set('Origin', second.origin)
        .send({ email: user.email, password: TEST_PASSWORD })
        .expect(200);
      await owner
        .put(`/api/bots/${bot.id}`)
        .set('Origin', second.origin)
        .send({ allowedDomain: 'shop.test' })
        .expect(200);

      for (const app of [t, second]) {
        expect((await chatFrom(app, bot.id, 'https://elsewhere.test')).status).toBe(403);
        expect((await chatFrom(app, bot.id, 'https://shop.test')).status).toBe(200);
      }
    } finally {
      await second.close();
    }
  });
});

describe('POST /api/chat to a bot with a monthly budget: the lock and the reservation in one round trip', () => {
  it.each([
    ['a quote', "o'brien"],
    ['SQL', "x'); DELETE FROM bots; --"],
    ['a backslash and a dollar quote', '\\$$x$$'],
    ['letters outside ASCII', 'visitor-éè'],
    ['500 characters', 'v'.repeat(500)],
  ])(
    "a hostile X-Visitor-Id (%s) from the owner's server is answered, charged once, and leaves no lock",
    async (_name, id) => {
      const owner = await createUser(t);
      const bot = await createChatBot(t, owner.id, { usageLimitDollars: 10 });
      const response = await t
        .http()
        .post('/api/chat')
        .set('Authorization', `Bearer ${bot.apiKey}`)
        .set('X-Visitor-Id', id)
        .send({ botId: bot.id, prompt: 'When do you open?' });
      expect(response.status).toBe(200);
      expect((await usageOfOwner(t, owner.id)).rows).toBe(1);
      expect(await reservationsOf(t, bot.id)).toBe(0);
      const bots: Array<{ n: string }> = await t.dataSource.query(`SELECT COUNT(*) AS n FROM bots WHERE id = $1`, [
        bot.id,
      ]);
      expect(Number(bots[0].n)).toBe(1);
    },
  );

  it('a conversation a person handles: the message is logged for them, nothing is charged or held', async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id, { usageLimitDollars: 10 });
    const first = await chatWithKey(bot.id, bot.apiKey).set('X-Visitor-Id', 'handed-off-visitor');
    expect(first.status).toBe(200);
    await t.dataSource.query(`UPDATE conversations SET handoff_at = now() WHERE bot_id = $1`, [bot.id]);
    const credits = await creditsOf(t, owner.id);

    const quiet = await chatWithKey(bot.id, bot.apiKey).set('X-Visitor-Id', 'handed-off-visitor');
    expect(quiet.status).toBe(200);
    expect(quiet.body.messageId).toBeNull();
    expect(await creditsOf(t, owner.id)).toBe(credits);
    expect((await usageOfOwner(t, owner.id)).rows).toBe(1);
    expect(await reservationsOf(t, bot.id)).toBe(0);
  });

  it('an owner who cannot be billed is refused for that (402 PAYMENT_FAILED), and the reservation goes', async () => {
    const owner = await createUser(t, { billing: 'failed', creditsCents: 0 });
    const bot = await createChatBot(t, owner.id, { usageLimitDollars: 10 });
    const refused = await chatWithKey(bot.id, bot.apiKey);
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('PAYMENT_FAILED');
    expect(await reservationsOf(t, bot.id)).toBe(0);
    expect((await usageOfOwner(t, owner.id)).rows).toBe(0);
  });
});

describe("POST /api/chat: the lock and the question's retrieval in one round trip (database/pipeline.ts)", () => {
  it.each([
    ['without a budget (a prepared statement)', 0],
    ['with a monthly budget (the batch with the reservation)', 10],
  ])('%s: both leave in one write, and the answer cites what retrieval found', async (_name, usageLimitDollars) => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id, { usageLimitDollars });
    const [source] = await t.dataSource.query<Array<{ id: number }>>(
      `INSERT INTO bot_sources (bot_id, kind, name, status) VALUES ($1, 'text', 'Opening hours', 'ready') RETURNING id`,
      [bot.id],
    );
    await t.dataSource.query(
      `INSERT INTO document_chunks (source_id, bot_id, page, ordinal, content) VALUES ($1, $2, 1, 0, $3)`,
      [source.id, bot.id, 'We open at nine in the morning on weekdays and at ten on Saturdays.'],
    );
    const watch = watchPool(t.dataSource);
    let response;
    try {
      response = await chatWithKey(bot.id, bot.apiKey);
    } finally {
      watch.restore();
    }
    expect(response.status).toBe(200);
    expect(response.body.citations).toEqual([expect.objectContaining({ sourceId: source.id, name: 'Opening hours' })]);
    const together = watch.writes.filter(
      (texts) =>
        texts.some((text) => text.includes('chat_reservations')) && texts.some((text) => text.includes('WITH q AS')),
    );
    expect(together).toHaveLength(1);
    expect(together[0]).toHaveLength(2);
    expect((await usageOfOwner(t, owner.id)).rows).toBe(1);
    expect(await reservationsOf(t, bot.id)).toBe(0);
  });

  it('a message refused by the lock (another is in flight) is refused as before; its retrieval is read by no one', async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id);
    // Another instance's message of this visitor in flight: its reservation row.
    await t.dataSource.query(
      `INSERT INTO chat_reservations (id, bot_id, visitor_id, expires_at) VALUES (gen_random_uuid(), $1, $2, now() + interval '1 minute')`,
      [bot.id, 'api-busy-visitor'],
    );
    const refused = await chatWithKey(bot.id, bot.apiKey).set('X-Visitor-Id', 'busy-visitor');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('MESSAGE_IN_FLIGHT');
    expect(await messagesOfOwner(owner.id)).toBe(0);
    expect((await usageOfOwner(t, owner.id)).rows).toBe(0);
  });
});
