import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DELETION_RATE_LIMITS } from '../../src/modules/chat/rate-limit/chat-rate-limiter.js';
import { createChatBot, usageOfOwner } from '../support/chat-factories.js';
import { createUser } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * DELETE /api/chat/conversations/current (docs/product.md#retention-and-visitor-privacy): a
 * visitor deletes their own conversation with a bot, identified by the server-issued visitor
 * token; anyone else deletes nothing and learns nothing (404).
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
});
afterAll(() => t.close());

const SITE = 'https://shop.example';

/** One chat message from the widget on SITE; returns the visitor's token. */
async function chat(botId: number, token?: string): Promise<string> {
  const call = t.http().post('/api/chat').set('Origin', SITE);
  if (token) call.set('X-Visitor-Token', token);
  const response = await call.send({ botId, prompt: 'When do you open?' });
  expect(response.status).toBe(200);
  return response.headers['x-visitor-token'];
}

function remove(botId: unknown, token?: string, origin = SITE) {
  const call = t.http().delete('/api/chat/conversations/current').set('Origin', origin);
  if (token) call.set('X-Visitor-Token', token);
  return call.send({ botId });
}

async function logOf(botId: number): Promise<{ conversations: number; messages: number }> {
  const [row]: Array<{ c: string; m: string }> = await t.dataSource.query(
    `SELECT (SELECT COUNT(*) FROM conversations WHERE bot_id = $1) AS c,
            (SELECT COUNT(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.bot_id = $1) AS m`,
    [botId],
  );
  return { conversations: Number(row.c), messages: Number(row.m) };
}

const NOT_FOUND = { error: 'There is no conversation to delete.', code: 'CONVERSATION_NOT_FOUND' };

describe('a visitor deletes their conversation', () => {
  it("deletes the caller's conversation with its messages (204), keeps other visitors' and the usage ledger", async () => {
    const owner = await createUser(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example' });
    const mine = await chat(bot.id);
    await chat(bot.id, mine);
    const theirs = await chat(bot.id);
    expect(await logOf(bot.id)).toEqual({ conversations: 2, messages: 6 });
    const usage = await usageOfOwner(t, owner.id);

    const deleted = await remove(bot.id, mine);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(await logOf(bot.id)).toEqual({ conversations: 1, messages: 2 });
    const left: Array<{ n: string }> = await t.dataSource.query(
      `SELECT COUNT(*) AS n FROM messages WHERE content LIKE '%When do you open%' AND owner_id = $1`,
      [owner.id],
    );
    expect(Number(left[0].n)).toBe(1);
    expect(await usageOfOwner(t, owner.id)).toEqual(usage);

    // Nothing is left to delete; the other visitor's conversation is theirs alone to delete.
    expect((await remove(bot.id, mine)).body).toEqual(NOT_FOUND);
    expect((await remove(bot.id, theirs)).status).toBe(204);
    expect(await logOf(bot.id)).toEqual({ conversations: 0, messages: 0 });

    // The same visitor may chat again: a new conversation.
    await chat(bot.id, mine);
    expect(await logOf(bot.id)).toEqual({ conversations: 1, messages: 2 });
  });

  it('deletes nothing for a missing, forged or other-bot token, or a visitor id without the API key (404)', async () => {
    const owner = await createUser(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example' });
    const otherBot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example' });
    const token = await chat(bot.id);
    await chat(otherBot.id);
    const [, id, mac] = token.split('.');
    const flipped = `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`;
    const attempts: Array<() => Promise<{ status: number; body: unknown }>> = [
      () => remove(bot.id),
      () => remove(bot.id, `v1.${flipped}.${mac}`),
      () => remove(bot.id, `v1.${id}.${'A'.repeat(22)}`),
      () => remove(bot.id, `${token}x`),
      // The token names a visitor of `bot`; for another bot it names nobody.
      () => remove(otherBot.id, token),
      () =>
        t
          .http()
          .delete('/api/chat/conversations/current')
          .set('Origin', SITE)
          .set('X-Visitor-Id', id)
          .send({ botId: bot.id }),
    ];
    for (const attempt of attempts) {
      const response = await attempt();
      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    }
    expect(await logOf(bot.id)).toEqual({ conversations: 1, messages: 2 });
    expect(await logOf(otherBot.id)).toEqual({ conversations: 1, messages: 2 });
  });

  it('another owner’s bot, an unknown bot, a foreign site and bad bodies are refused, deleting nothing', async () => {
    const owner = await createUser(t, { creditsCents: 10_000 });
    const stranger = await createUser(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example' });
    const strangersBot = await createChatBot(t, stranger.id, { allowedDomain: 'shop.example' });
    const token = await chat(bot.id);
    await chat(strangersBot.id);

    expect((await remove(strangersBot.id, token)).body).toEqual(NOT_FOUND);
    expect((await remove(2_000_000_000, token)).body).toMatchObject({ code: 'BOT_NOT_FOUND' });
    const foreign = await remove(bot.id, token, 'https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 'DOMAIN_NOT_ALLOWED' });
    for (const botId of ['abc', 0, -1, 1.5, null, { $gt: 0 }]) {
      const refused = await remove(botId, token);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: 'BotId must be a whole number.', code: 'VALIDATION_FAILED' });
    }
    expect(await logOf(bot.id)).toEqual({ conversations: 1, messages: 2 });
    expect(await logOf(strangersBot.id)).toEqual({ conversations: 1, messages: 2 });
  });

  it("the owner's server deletes a visitor it names, with the bot's API key", async () => {
    const owner = await createUser(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, owner.id);
    const asServer = (call: ReturnType<ReturnType<TestApp['http']>['post']>) =>
      call.set('Authorization', `Bearer ${bot.apiKey}`).set('X-Visitor-Id', 'crm-visitor-42');
    expect((await asServer(t.http().post('/api/chat')).send({ botId: bot.id, prompt: 'Hi' })).status).toBe(200);
    const wrongKey = await t
      .http()
      .delete('/api/chat/conversations/current')
      .set('Authorization', 'Bearer nope')
      .set('X-Visitor-Id', 'crm-visitor-42')
      .send({ botId: bot.id });
    expect(wrongKey.status).toBe(401);
    expect(await logOf(bot.id)).toEqual({ conversations: 1, messages: 2 });
    expect((await asServer(t.http().delete('/api/chat/conversations/current')).send({ botId: bot.id })).status).toBe(
      204,
    );
    expect(await logOf(bot.id)).toEqual({ conversations: 0, messages: 0 });
  });

  it('a flood is refused with 429 and Retry-After, per visitor and per client network', async () => {
    const owner = await createUser(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example' });
    const token = await chat(bot.id);
    for (let i = 0; i < DELETION_RATE_LIMITS.visitorPerMinute; i++) {
      expect([204, 404]).toContain((await remove(bot.id, token)).status);
    }
    const limited = await remove(bot.id, token);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // Without a token every request is a new visitor: the per-network limit holds the script.
    const other = await createChatBot(t, owner.id, { allowedDomain: 'shop.example' });
    const statuses: number[] = [];
    for (let i = 0; i <= DELETION_RATE_LIMITS.ipPerMinute; i++) statuses.push((await remove(other.id)).status);
    expect(statuses.slice(0, -1).every((status) => status === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
