import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chargeMessage } from '../support/billing-helpers.js';
import { createChatBot } from '../support/chat-factories.js';
import { createUser, signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * POST /api/chat's `visitor` (docs/product.md#the-widgets-api-for-host-pages): who the host page
 * says the visitor is, stored on the visitor's conversation with an accepted message and shown in
 * the owner's inbox; a refused message stores nothing.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
});
afterAll(() => t.close());

const SITE = 'https://shop.example';

/** One message from the widget on SITE, as the visitor `token` names (a new visitor without one). */
function chat(botId: number, body: Record<string, unknown>, token?: string) {
  const call = t.http().post('/api/chat').set('Origin', SITE);
  if (token) call.set('X-Visitor-Token', token);
  return call.send({ botId, prompt: 'When do you open?', ...body });
}

async function identityOf(
  botId: number,
): Promise<Array<{ visitor_name: string | null; visitor_email: string | null }>> {
  return t.dataSource.query(`SELECT visitor_name, visitor_email FROM conversations WHERE bot_id = $1 ORDER BY id`, [
    botId,
  ]);
}

describe('POST /api/chat visitor', () => {
  it('stores the identity on the conversation, shows it to the owner, and the latest given values win', async () => {
    const { agent, user } = await signedInAgent(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, user.id, { allowedDomain: 'shop.example' });

    const first = await chat(bot.id, { visitor: { name: '  Ana Lima ', email: ' Ana@Example.COM ' } });
    expect(first.status).toBe(200);
    const token = first.headers['x-visitor-token'];
    expect(await identityOf(bot.id)).toEqual([{ visitor_name: 'Ana Lima', visitor_email: 'Ana@example.com' }]);

    const list = await agent.get('/api/conversations');
    expect(list.status).toBe(200);
    expect(list.body.conversations).toHaveLength(1);
    const summary = list.body.conversations[0];
    expect(summary).toMatchObject({ visitorName: 'Ana Lima', visitorEmail: 'Ana@example.com' });
    const transcript = await agent.get(`/api/conversations/${summary.id}`);
    expect(transcript.body.conversation).toMatchObject({ visitorName: 'Ana Lima', visitorEmail: 'Ana@example.com' });

    // Absent, or an empty object: the stored identity stays.
    expect((await chat(bot.id, {}, token)).status).toBe(200);
    expect((await chat(bot.id, { visitor: {} }, token)).status).toBe(200);
    expect(await identityOf(bot.id)).toEqual([{ visitor_name: 'Ana Lima', visitor_email: 'Ana@example.com' }]);

    // A field given replaces its stored value; the one not given stays.
    expect((await chat(bot.id, { visitor: { name: 'Ana L. Souza' } }, token)).status).toBe(200);
    expect(await identityOf(bot.id)).toEqual([{ visitor_name: 'Ana L. Souza', visitor_email: 'Ana@example.com' }]);
    expect((await chat(bot.id, { visitor: { email: 'ana@work.example' } }, token)).status).toBe(200);
    expect(await identityOf(bot.id)).toEqual([{ visitor_name: 'Ana L. Souza', visitor_email: 'ana@work.example' }]);

    // While a person handles the conversation the bot stays quiet, and the message still carries it.
    await t.dataSource.query(`UPDATE conversations SET handoff_at = now() WHERE bot_id = $1`, [bot.id]);
    const quiet = await chat(bot.id, { visitor: { name: 'Ana Souza' } }, token);
    expect(quiet.body.handoff).toBe(true);
    expect(await identityOf(bot.id)).toEqual([{ visitor_name: 'Ana Souza', visitor_email: 'ana@work.example' }]);

    // A new visitor without identity: null for the owner, and the other conversation unchanged.
    expect((await chat(bot.id, {})).status).toBe(200);
    const rows = (await agent.get('/api/conversations')).body.conversations;
    expect(rows.map((c: Record<string, unknown>) => [c.visitorName, c.visitorEmail])).toEqual([
      [null, null],
      ['Ana Souza', 'ana@work.example'],
    ]);

    // Another owner sees none of it.
    const other = await signedInAgent(t);
    expect((await other.agent.get('/api/conversations')).body.conversations).toEqual([]);
    const foreign = await other.agent.get(`/api/conversations/${summary.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain('Ana');
  });

  it("stores it from the owner's server too (the bot's API key and X-Visitor-Id)", async () => {
    const owner = await createUser(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example' });
    const response = await t
      .http()
      .post('/api/chat')
      .set('Authorization', `Bearer ${bot.apiKey}`)
      .set('X-Visitor-Id', 'crm-visitor-42')
      .send({ botId: bot.id, prompt: 'Hello', visitor: { name: 'Bo', email: 'bo@example.org' } });
    expect(response.status).toBe(200);
    expect(await identityOf(bot.id)).toEqual([{ visitor_name: 'Bo', visitor_email: 'bo@example.org' }]);
  });

  it('leaves out values it cannot show and answers the message: a host page mistake never stops a chat', async () => {
    const owner = await createUser(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example' });
    const first = await chat(bot.id, { visitor: { name: 42, email: 'not-an-address' } });
    expect(first.status).toBe(200);
    expect(await identityOf(bot.id)).toEqual([{ visitor_name: null, visitor_email: null }]);
    const token = first.headers['x-visitor-token'];
    const second = await chat(bot.id, { visitor: { name: 'a'.repeat(101), email: 'ana@example.com' } }, token);
    expect(second.status).toBe(200);
    expect(await identityOf(bot.id)).toEqual([{ visitor_name: null, visitor_email: 'ana@example.com' }]);
    // An address with a NUL or a lone surrogate is refused like such a name (see below), not left out.
    const third = await chat(bot.id, { visitor: { name: '  Ana ', email: 7 } }, token);
    expect(third.status).toBe(200);
    expect(await identityOf(bot.id)).toEqual([{ visitor_name: 'Ana', visitor_email: 'ana@example.com' }]);
  });

  it('refuses a visitor that is not an object, unknown keys and unstorable text with 400, writing nothing', async () => {
    const owner = await createUser(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example' });
    const cases: Array<[unknown, string, RegExp]> = [
      ['Ana', 'VALIDATION_FAILED', /visitor must be an object/],
      [['Ana'], 'VALIDATION_FAILED', /visitor must be an object/],
      [42, 'VALIDATION_FAILED', /visitor must be an object/],
      [null, '', /./],
      [{ name: 'An\u0000a' }, 'INVALID_CHARACTERS', /visitor\.name contains a NUL character/],
      [{ name: 'Ana\ud800' }, 'INVALID_CHARACTERS', /visitor\.name contains broken Unicode/],
      // Issue 25: a lone surrogate in the address was a 500 (isEmail threw before this check ran).
      [{ email: 'bo@example.com\u0000' }, 'INVALID_CHARACTERS', /visitor\.email contains a NUL character/],
      [{ email: 'a\ud800@example.com' }, 'INVALID_CHARACTERS', /visitor\.email contains broken Unicode/],
      [{ name: 'Ana', role: 'admin' }, 'VALIDATION_FAILED', /property role should not exist/i],
    ];
    for (const [visitor, code, message] of cases) {
      const response = await chat(bot.id, { visitor });
      if (visitor === null) {
        // null is "absent", as for every optional field: the message is answered, nothing stored.
        expect(response.status).toBe(200);
        continue;
      }
      expect({ visitor, status: response.status, code: response.body.code }).toEqual({ visitor, status: 400, code });
      expect(response.body.error).toMatch(message);
    }
    // Only the message with `visitor: null` was logged, with no identity.
    expect(await identityOf(bot.id)).toEqual([{ visitor_name: null, visitor_email: null }]);
  });

  it('is not stored when the message is refused (402 budget reached), though the refusal is logged', async () => {
    const owner = await createUser(t, { creditsCents: 500 });
    const bot = await createChatBot(t, owner.id, { model: 'gpt-3.5-turbo', usageLimitDollars: 1 });
    await chargeMessage(t, owner.id, 100, undefined, { botId: bot.id });
    const response = await t
      .http()
      .post('/api/chat')
      .set('Authorization', `Bearer ${bot.apiKey}`)
      .set('X-Visitor-Id', 'crm-visitor-7')
      .send({ botId: bot.id, prompt: 'Hello', visitor: { name: 'Cy', email: 'cy@example.org' } });
    expect(response.status).toBe(402);
    expect(response.body.code).toBe('BOT_BUDGET_REACHED');
    expect(await identityOf(bot.id)).toEqual([{ visitor_name: null, visitor_email: null }]);
  });
});
