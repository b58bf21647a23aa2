import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { insertBot, insertConversation, insertMessage } from '../support/usage-factories.js';

/**
 * The inbox's "waiting for you" (docs/product.md#conversations): a handed-off conversation whose
 * newest message is the visitor's waits for the owner; the list marks it, the 'waiting' filter
 * lists only those and GET /api/conversations/waiting-count counts them, for the caller only.
 * The visitor's name and e-mail come from identify() (visitorName/visitorEmail) or from a lead
 * they left (leadName/leadEmail), kept apart so the dashboard can mark the first unverified.
 */
let t: TestApp;
let owner: request.Agent;
let ownerId: number;
let botId: number;
let other: request.Agent;
let otherId: number;
let otherBot: number;

beforeAll(async () => {
  t = await startTestApp();
  ({
    agent: owner,
    user: { id: ownerId },
  } = await signedInAgent(t));
  ({
    agent: other,
    user: { id: otherId },
  } = await signedInAgent(t));
  botId = await insertBot(t, ownerId, { name: 'Support' });
  otherBot = await insertBot(t, otherId, { name: 'Theirs' });
});
afterAll(() => t.close());

let clock = Date.parse('2026-11-20T10:00:00Z');
const tick = () => new Date((clock += 60_000)).toISOString();

/** A message as the chat engine logs it, keeping the conversation's running fields. */
async function say(conversationId: number, ownerOf: number, role: 'user' | 'assistant', content: string) {
  const at = tick();
  await insertMessage(t, { conversationId, ownerId: ownerOf, role, content, at });
  await t.dataSource.query(
    `UPDATE conversations SET last_message_at = $2, message_count = message_count + 1 WHERE id = $1`,
    [conversationId, at],
  );
}

async function conversation(ownerOf: number, bot: number): Promise<number> {
  const id = await insertConversation(t, { ownerId: ownerOf, botId: bot, botName: 'x', at: tick() });
  await say(id, ownerOf, 'user', 'Can I talk to someone?');
  return id;
}

const count = async (agent: request.Agent) => {
  const res = await agent.get('/api/conversations/waiting-count');
  expect(res.status).toBe(200);
  return res.body as { count: number };
};
const waitingIds = async (agent: request.Agent) => {
  const res = await agent.get('/api/conversations?filter=waiting');
  expect(res.status).toBe(200);
  return (res.body.conversations as Array<{ id: number; waiting: boolean }>).map((c) => {
    expect(c.waiting).toBe(true);
    return c.id;
  });
};

describe('waiting for you', () => {
  it('waits only while handed off with the visitor writing last: reply, visitor again, hand back', async () => {
    const id = await conversation(ownerId, botId);
    // Not handed off: the bot handles it, nobody waits.
    expect(await count(owner)).toEqual({ count: 0 });
    expect(await waitingIds(owner)).toEqual([]);

    const reply = await owner.post(`/api/conversations/${id}/reply`).set('Origin', t.origin).send({ content: 'Hi!' });
    expect(reply.status).toBe(201);
    // Handed off, but the owner wrote last.
    const afterReply = await owner.get(`/api/conversations/${id}`);
    expect(afterReply.body.conversation).toMatchObject({ handoff: true, waiting: false });
    expect(await count(owner)).toEqual({ count: 0 });

    await say(id, ownerId, 'user', 'Thanks, and what about refunds?');
    const list = await owner.get('/api/conversations');
    expect(list.body.conversations.find((c: { id: number }) => c.id === id)).toMatchObject({
      handoff: true,
      waiting: true,
    });
    expect(await count(owner)).toEqual({ count: 1 });
    expect(await waitingIds(owner)).toEqual([id]);

    const back = await owner.post(`/api/conversations/${id}/handback`).set('Origin', t.origin).send();
    expect(back.status).toBe(204);
    expect(await count(owner)).toEqual({ count: 0 });
    expect(await waitingIds(owner)).toEqual([]);
  });

  it("counts and lists the caller's own waiting conversations only, newest first, and per bot", async () => {
    const first = await conversation(ownerId, botId);
    const second = await conversation(ownerId, botId);
    const theirs = await conversation(otherId, otherBot);
    for (const [id, agent] of [
      [first, owner],
      [second, owner],
      [theirs, other],
    ] as const) {
      expect(
        (await agent.post(`/api/conversations/${id}/reply`).set('Origin', t.origin).send({ content: 'Hi' })).status,
      ).toBe(201);
    }
    await say(first, ownerId, 'user', 'Still there?');
    await say(theirs, otherId, 'user', 'Hello?');
    await say(second, ownerId, 'user', 'Anyone?');

    expect(await count(owner)).toEqual({ count: 2 });
    expect(await count(other)).toEqual({ count: 1 });
    expect(await waitingIds(owner)).toEqual([second, first]);
    expect(await waitingIds(other)).toEqual([theirs]);
    const byBot = await owner.get(`/api/conversations?filter=waiting&botId=${botId}`);
    expect(byBot.body.conversations.map((c: { id: number }) => c.id)).toEqual([second, first]);
    // Another owner's bot is not a way in.
    const foreign = await owner.get(`/api/conversations?filter=waiting&botId=${otherBot}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'This chatbot does not exist.', code: 'BOT_NOT_FOUND' });

    // The bot's answer after a hand-back also ends the wait; clean up for the next test.
    for (const id of [first, second]) {
      await owner.post(`/api/conversations/${id}/handback`).set('Origin', t.origin).send();
    }
    await other.post(`/api/conversations/${theirs}/handback`).set('Origin', t.origin).send();
  });

  it('refuses an unknown filter and a signed-out caller', async () => {
    const bad = await owner.get('/api/conversations?filter=waiting-ish');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    const anonymous = await t.http().get('/api/conversations/waiting-count');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).not.toHaveProperty('count');
  });
});

describe("the visitor's name and e-mail in the inbox", () => {
  it("answers the newest lead's name and e-mail apart from identify()'s, for the list and the transcript", async () => {
    const id = await conversation(ownerId, botId);
    const insertLead = (name: string | null, email: string | null) =>
      t.dataSource.query(
        `INSERT INTO leads (owner_id, bot_id, bot_name, conversation_id, name, email, created_at)
         VALUES ($1, $2, 'Support', $3, $4, $5, $6)`,
        [ownerId, botId, id, name, email, tick()],
      );
    const summary = async () =>
      ((await owner.get('/api/conversations')).body.conversations as Array<Record<string, unknown>>).find(
        (c) => c.id === id,
      )!;

    expect(await summary()).toMatchObject({ visitorName: null, visitorEmail: null, leadName: null, leadEmail: null });
    await insertLead('Ada Lovelace', 'ada@example.com');
    await insertLead('', 'ada.l@example.com');
    // The newest non-empty of each: an empty name in a later lead does not erase the earlier one.
    expect(await summary()).toMatchObject({ leadName: 'Ada Lovelace', leadEmail: 'ada.l@example.com' });

    await t.dataSource.query(
      `UPDATE conversations SET visitor_name = 'Host Says', visitor_email = NULL WHERE id = $1`,
      [id],
    );
    const transcript = await owner.get(`/api/conversations/${id}`);
    expect(transcript.body.conversation).toMatchObject({
      visitorName: 'Host Says',
      visitorEmail: null,
      leadName: 'Ada Lovelace',
      leadEmail: 'ada.l@example.com',
    });
    // Another owner never sees it.
    const foreign = await other.get(`/api/conversations/${id}`);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain('Ada');
  });
});
