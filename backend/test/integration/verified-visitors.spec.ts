import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { createChatBot } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Verified visitors (docs/product.md#verified-visitors): the identity secret's rotate route, and a
 * visitor the owner's server signed following `sub` across visitor tokens; refused proofs make an
 * anonymous visitor (never an error) and are counted.
 */
let t: TestApp;

beforeAll(async () => {
  // Four messages a minute per visitor; the per-IP limit out of the way (every test request is from 127.0.0.1).
  t = await startTestApp({
    OFFLINE_MODEL_WORD_DELAY_MS: '0',
    CHAT_VISITOR_RATE_LIMIT: '4',
    CHAT_IP_RATE_LIMIT: '10000',
  });
});
afterAll(() => t.close());

const SITE = 'https://shop.example';

function jwt(claims: Record<string, unknown>, secret: string): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const signed = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/** One widget message on SITE with `visitor` in the body and, if given, the widget's visitor token. */
function chat(botId: number, visitor: Record<string, unknown> | undefined, token?: string) {
  const call = t.http().post('/api/chat').set('Origin', SITE);
  if (token) call.set('X-Visitor-Token', token);
  return call.send({ botId, prompt: 'When do you open?', ...(visitor ? { visitor } : {}) });
}

async function rows(botId: number) {
  return t.dataSource.query<
    Array<{ visitor_id: string; visitor_name: string | null; visitor_verified: boolean; message_count: number }>
  >(
    `SELECT visitor_id, visitor_name, visitor_verified, message_count FROM conversations WHERE bot_id = $1 ORDER BY id`,
    [botId],
  );
}

async function refusals(botId: number): Promise<number> {
  const [row] = await t.dataSource.query<Array<{ n: string }>>(
    `SELECT COALESCE(SUM(count), 0) AS n FROM identity_refusals WHERE bot_id = $1`,
    [botId],
  );
  return Number(row.n);
}

async function botWithSecret(creditsCents = 10_000) {
  const owner = await signedInAgent(t, { creditsCents });
  const bot = await createChatBot(t, owner.user.id, { allowedDomain: 'shop.example' });
  const rotated = await owner.agent.post(`/api/bots/${bot.id}/identity-secret`).set('Origin', t.origin);
  expect(rotated.status).toBe(200);
  return { ...owner, bot, secret: rotated.body.identitySecret as string };
}

describe('POST /api/bots/:id/identity-secret', () => {
  it('answers a new secret once; no GET of the bot shows it, and it is stored sealed', async () => {
    const { agent, bot, secret } = await botWithSecret();
    expect(secret).toMatch(/^idsec_[A-Za-z0-9_-]{43}$/);
    const again = await agent.post(`/api/bots/${bot.id}/identity-secret`).set('Origin', t.origin);
    expect(again.status).toBe(200);
    expect(Object.keys(again.body)).toEqual(['identitySecret']);
    expect(again.body.identitySecret).not.toBe(secret);

    const one = await agent.get(`/api/bots/${bot.id}`);
    const all = await agent.get('/api/bots');
    for (const body of [JSON.stringify(one.body), JSON.stringify(all.body)]) {
      expect(body).not.toContain(again.body.identitySecret);
      expect(body).not.toContain('identitySecret');
      expect(body).not.toContain('idsec_');
    }
    const [stored] = await t.dataSource.query<Array<{ identity_secret: string }>>(
      `SELECT identity_secret FROM bots WHERE id = $1`,
      [bot.id],
    );
    expect(stored.identity_secret).toMatch(/^v1\./);
    expect(stored.identity_secret).not.toContain(again.body.identitySecret.slice(6));
  });

  it("answers 404 for another owner's bot and an unknown one, 401 without a session, 403 from another site", async () => {
    const { bot } = await botWithSecret();
    const before = await t.dataSource.query(`SELECT identity_secret FROM bots WHERE id = $1`, [bot.id]);
    const other = await signedInAgent(t);
    const theirs = await other.agent.post(`/api/bots/${bot.id}/identity-secret`).set('Origin', t.origin);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ error: 'Bot not found.', code: 'BOT_NOT_FOUND' });
    expect((await other.agent.post('/api/bots/999999/identity-secret').set('Origin', t.origin)).status).toBe(404);
    expect((await other.agent.post('/api/bots/abc/identity-secret').set('Origin', t.origin)).status).toBe(400);
    expect((await t.http().post(`/api/bots/${bot.id}/identity-secret`).set('Origin', t.origin)).status).toBe(401);
    expect(
      (await other.agent.post(`/api/bots/${bot.id}/identity-secret`).set('Origin', 'https://evil.example')).status,
    ).toBe(403);
    expect(await t.dataSource.query(`SELECT identity_secret FROM bots WHERE id = $1`, [bot.id])).toEqual(before);
  });
});

describe('GET /api/bots/:id/identity', () => {
  it("says whether a secret was made and counts this week's refused proofs; another owner's bot is 404", async () => {
    const owner = await signedInAgent(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, owner.user.id, { allowedDomain: 'shop.example' });
    const status = async () => (await owner.agent.get(`/api/bots/${bot.id}/identity`)).body;
    expect(await status()).toEqual({ identity: { secretSet: false, refusedThisWeek: 0 } });
    // Without a secret every proof is refused, and counted.
    expect((await chat(bot.id, { token: jwt({ sub: 'a', exp: inAnHour() }, 'idsec_none') })).status).toBe(200);
    const secret = (await owner.agent.post(`/api/bots/${bot.id}/identity-secret`).set('Origin', t.origin)).body
      .identitySecret as string;
    expect((await chat(bot.id, { token: jwt({ sub: 'a', exp: inAnHour() }, secret) })).status).toBe(200);
    expect((await chat(bot.id, { userId: 'a', userHash: '0'.repeat(64) })).status).toBe(200);
    // Eight days ago is not this week.
    await t.dataSource.query(
      `INSERT INTO identity_refusals (bot_id, day, count) VALUES ($1, (now() AT TIME ZONE 'UTC')::date - 8, 50)`,
      [bot.id],
    );
    expect(await status()).toEqual({ identity: { secretSet: true, refusedThisWeek: 2 } });

    const other = await signedInAgent(t);
    const theirs = await other.agent.get(`/api/bots/${bot.id}/identity`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ error: 'Bot not found.', code: 'BOT_NOT_FOUND' });
    expect((await t.http().get(`/api/bots/${bot.id}/identity`)).status).toBe(401);
    expect((await other.agent.get('/api/bots/abc/identity')).status).toBe(400);
  });
});

describe('POST /api/chat with an identity proof', () => {
  it('a verified visitor on two visitor tokens (two devices) is one conversation, marked verified', async () => {
    const { bot, secret } = await botWithSecret();
    const token = jwt(
      { sub: 'customer-1', name: 'Ana Lima', email: 'ana@example.com', exp: inAnHour(), plan: 'pro' },
      secret,
    );

    const phone = await chat(bot.id, { token });
    expect(phone.status).toBe(200);
    const laptop = await chat(bot.id, { token });
    expect(laptop.status).toBe(200);
    expect(laptop.headers['x-visitor-token']).not.toBe(phone.headers['x-visitor-token']);
    // The userHash form names the same visitor.
    const hash = createHmac('sha256', secret).update('customer-1').digest('hex');
    expect((await chat(bot.id, { userId: 'customer-1', userHash: hash, name: 'Ana L.' })).status).toBe(200);

    expect(await rows(bot.id)).toEqual([
      { visitor_id: expect.stringMatching(/^u-/), visitor_name: 'Ana L.', visitor_verified: true, message_count: 6 },
    ]);
    expect(await refusals(bot.id)).toBe(0);
  });

  it('the per-visitor limit follows sub, not the visitor token', async () => {
    const { bot, secret } = await botWithSecret(100_000);
    const token = jwt({ sub: 'customer-2', exp: inAnHour() }, secret);
    const statuses: number[] = [];
    // Four a minute per visitor (see beforeAll); each message from a new device (no visitor token).
    for (let i = 0; i < 5; i++) statuses.push((await chat(bot.id, { token })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    // Another visitor of the same bot is not limited by it.
    expect((await chat(bot.id, { token: jwt({ sub: 'customer-3', exp: inAnHour() }, secret) })).status).toBe(200);
  });

  it('forged, expired, other-bot and pre-rotation proofs are anonymous visitors, answered and counted', async () => {
    const { agent, bot, secret } = await botWithSecret();
    const otherBot = await botWithSecret();
    const hour = inAnHour();
    const proofs: Array<Record<string, unknown>> = [
      { token: jwt({ sub: 'mallory', exp: hour }, 'idsec_guessed') },
      { token: jwt({ sub: 'customer-1', exp: Math.floor(Date.now() / 1000) - 10 }, secret) },
      { token: jwt({ sub: 'customer-1', exp: hour }, otherBot.secret) },
      { token: jwt({ sub: 'customer-1', exp: hour, bot: otherBot.bot.id }, secret) },
      { userId: 'customer-1', userHash: createHmac('sha256', 'idsec_guessed').update('customer-1').digest('hex') },
      { token: 'not-a-jwt', name: 'Unsigned Ana' },
    ];
    for (const visitor of proofs) {
      const response = await chat(bot.id, visitor);
      expect(response.status).toBe(200);
      expect(response.body.message).toEqual(expect.any(String));
    }
    const good = jwt({ sub: 'customer-1', exp: hour }, secret);
    expect((await chat(bot.id, { token: good })).status).toBe(200);
    const rotated = await agent.post(`/api/bots/${bot.id}/identity-secret`).set('Origin', t.origin);
    expect(rotated.status).toBe(200);
    expect((await chat(bot.id, { token: good })).status).toBe(200);

    const conversations = await rows(bot.id);
    const verified = conversations.filter((c) => c.visitor_verified);
    expect(verified).toHaveLength(1);
    expect(verified[0].message_count).toBe(2);
    expect(conversations.filter((c) => !c.visitor_verified)).toHaveLength(7);
    expect(conversations.every((c) => c.visitor_verified === c.visitor_id.startsWith('u-'))).toBe(true);
    // A token that is no JWT is refused as well, and the name beside it kept, unverified.
    expect(conversations.some((c) => c.visitor_name === 'Unsigned Ana' && !c.visitor_verified)).toBe(true);
    expect(await refusals(bot.id)).toBe(7);
  });

  it('a JWT in X-Visitor-Token works on the API-key path; a bad one falls back to X-Visitor-Id', async () => {
    const { bot, secret } = await botWithSecret();
    const apiKey = (
      await t.dataSource.query<Array<{ api_key: string }>>(`SELECT api_key FROM bots WHERE id = $1`, [bot.id])
    )[0].api_key;
    const viaApi = (visitorToken: string) =>
      t
        .http()
        .post('/api/chat')
        .set('Authorization', `Bearer ${apiKey}`)
        .set('X-Visitor-Id', 'server-visitor-9')
        .set('X-Visitor-Token', visitorToken)
        .send({ botId: bot.id, prompt: 'Hello' });
    expect((await viaApi(jwt({ sub: 'customer-9', email: 'c9@example.com', exp: inAnHour() }, secret))).status).toBe(
      200,
    );
    expect((await viaApi(jwt({ sub: 'customer-9', exp: inAnHour() }, 'idsec_wrong'))).status).toBe(200);
    const conversations = await rows(bot.id);
    expect(
      conversations.map((c) => [
        c.visitor_id.startsWith('u-'),
        c.visitor_id === 'api-server-visitor-9',
        c.visitor_verified,
      ]),
    ).toEqual([
      [true, false, true],
      [false, true, false],
    ]);
    expect(await refusals(bot.id)).toBe(1);
  });

  it('the inbox shows a verified visitor with the name and e-mail the token gave, and an unsigned identify as unverified', async () => {
    const { agent, bot, secret } = await botWithSecret();
    const token = jwt({ sub: 'customer-5', name: 'Ana Lima', email: 'ana@example.com', exp: inAnHour() }, secret);
    expect((await chat(bot.id, { token, name: 'Someone Else' })).status).toBe(200);
    expect((await chat(bot.id, { name: 'Bo Unsigned', email: 'bo@example.com' })).status).toBe(200);

    const list = await agent.get('/api/conversations');
    expect(list.status).toBe(200);
    const summaries = list.body.conversations.map((c: Record<string, unknown>) => [
      c.visitorName,
      c.visitorEmail,
      c.visitorVerified,
    ]);
    expect(summaries).toEqual([
      ['Bo Unsigned', 'bo@example.com', false],
      ['Ana Lima', 'ana@example.com', true],
    ]);
    const verifiedId = list.body.conversations[1].id;
    const transcript = await agent.get(`/api/conversations/${verifiedId}`);
    expect(transcript.body.conversation).toMatchObject({ visitorName: 'Ana Lima', visitorVerified: true });
    // Another owner sees none of it.
    const other = await signedInAgent(t);
    expect((await other.agent.get(`/api/conversations/${verifiedId}`)).status).toBe(404);
  });
});

describe('every visitor route reads the identity proof (X-Visitor-Identity), as POST /api/chat does', () => {
  /** A widget call from a device with this visitor token, and the proof if given. */
  function device(token: string | undefined, identity?: string) {
    const set = (call: ReturnType<ReturnType<TestApp['http']>['get']>) => {
      call.set('Origin', SITE);
      if (token) call.set('X-Visitor-Token', token);
      if (identity !== undefined) call.set('X-Visitor-Identity', identity);
      return call;
    };
    return {
      rate: (botId: number, messageId: number) =>
        set(t.http().post('/api/chat/feedback')).send({ botId, messageId, rating: 'down' }),
      lead: (botId: number, email: string) => set(t.http().post('/api/chat/lead')).send({ botId, email }),
      messages: (botId: number) => set(t.http().get(`/api/chat/conversations/current/messages?botId=${botId}`)),
      remove: (botId: number) => set(t.http().delete('/api/chat/conversations/current')).send({ botId }),
    };
  }

  async function conversationIds(botId: number) {
    const found = await t.dataSource.query<Array<{ id: number; visitor_id: string }>>(
      `SELECT id, visitor_id FROM conversations WHERE bot_id = $1 ORDER BY id`,
      [botId],
    );
    return found.map((c) => ({ id: Number(c.id), verified: c.visitor_id.startsWith('u-') }));
  }

  async function ratingOf(messageId: number): Promise<string | null> {
    const [row] = await t.dataSource.query<Array<{ rating: string | null }>>(
      `SELECT rating FROM messages WHERE id = $1`,
      [messageId],
    );
    return row.rating;
  }

  it('a verified visitor on a second device rates, reads a reply, leaves a lead and deletes their conversation', async () => {
    const { agent, bot, secret } = await botWithSecret();
    const token = jwt({ sub: 'customer-7', email: 'c7@example.com', exp: inAnHour() }, secret);
    const phone = await chat(bot.id, { token });
    expect(phone.status).toBe(200);
    // The laptop: a visitor token of its own (it chatted before signing in) and the same sub.
    const before = await chat(bot.id, undefined);
    const laptopToken = before.headers['x-visitor-token'];
    expect(laptopToken).not.toBe(phone.headers['x-visitor-token']);
    const [anonymous, verified] = await conversationIds(bot.id).then((all) => [
      all.find((c) => !c.verified)!,
      all.find((c) => c.verified)!,
    ]);
    const laptop = device(laptopToken, token);

    expect((await laptop.rate(bot.id, phone.body.messageId as number)).status).toBe(204);
    expect(await ratingOf(phone.body.messageId as number)).toBe('down');

    const sent = await agent
      .post(`/api/conversations/${verified.id}/reply`)
      .set('Origin', t.origin)
      .send({ content: 'Your order ships today.' });
    expect(sent.status).toBe(201);
    const read = await laptop.messages(bot.id);
    expect(read.status).toBe(200);
    expect(read.body.messages.map((m: { content: string }) => m.content)).toEqual(['Your order ships today.']);
    // The userHash proof in the header names the same visitor.
    const hash = createHmac('sha256', secret).update('customer-7').digest('hex');
    const viaHash = await device(laptopToken, `userId=customer-7&userHash=${hash}`).messages(bot.id);
    expect(viaHash.body.messages).toHaveLength(1);
    // Without the proof the laptop is its anonymous visitor, who has no reply.
    expect((await device(laptopToken).messages(bot.id)).body.messages).toEqual([]);

    const left = await laptop.lead(bot.id, 'c7@example.com');
    expect(left.status).toBe(201);
    const [lead] = await t.dataSource.query<Array<{ conversation_id: number }>>(
      `SELECT conversation_id FROM leads WHERE bot_id = $1`,
      [bot.id],
    );
    expect(Number(lead.conversation_id)).toBe(verified.id);

    expect((await laptop.remove(bot.id)).status).toBe(204);
    expect(await conversationIds(bot.id)).toEqual([anonymous]);
    expect(await refusals(bot.id)).toBe(0);
  });

  it('a forged, expired or malformed proof on those routes is the anonymous visitor of the token, never an error', async () => {
    const { bot, secret } = await botWithSecret();
    const phone = await chat(bot.id, { token: jwt({ sub: 'customer-8', exp: inAnHour() }, secret) });
    const mine = await chat(bot.id, undefined);
    const myToken = mine.headers['x-visitor-token'];
    const [verified] = (await conversationIds(bot.id)).filter((c) => c.verified);
    const hour = inAnHour();
    const proofs = [
      jwt({ sub: 'customer-8', exp: hour }, 'idsec_guessed'),
      jwt({ sub: 'customer-8', exp: Math.floor(Date.now() / 1000) - 10 }, secret),
      `userId=customer-8&userHash=${'0'.repeat(64)}`,
      'userId=customer-8',
      'not a token %%%',
      'x'.repeat(5000),
    ];
    for (const proof of proofs) {
      const forged = device(myToken, proof);
      // The verified visitor's answer is not theirs to rate; their own is.
      expect((await forged.rate(bot.id, phone.body.messageId as number)).body.code).toBe('MESSAGE_NOT_FOUND');
      expect((await forged.rate(bot.id, mine.body.messageId as number)).status).toBe(204);
      const read = await forged.messages(bot.id);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ messages: [], handoff: false });
    }
    expect(await ratingOf(phone.body.messageId as number)).toBeNull();

    const forged = device(myToken, proofs[0]);
    expect((await forged.lead(bot.id, 'mallory@example.com')).status).toBe(201);
    const [lead] = await t.dataSource.query<Array<{ conversation_id: number }>>(
      `SELECT conversation_id FROM leads WHERE bot_id = $1`,
      [bot.id],
    );
    expect(Number(lead.conversation_id)).not.toBe(verified.id);
    expect((await forged.remove(bot.id)).status).toBe(204);
    expect(await conversationIds(bot.id)).toEqual([verified]);
    // Only a chat message counts a refused proof: a widget polling for replies would count each poll.
    expect(await refusals(bot.id)).toBe(0);
  });
});
