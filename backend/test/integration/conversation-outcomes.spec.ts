import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { CONVERSATION_OUTCOME_QUIET_MS } from '../../src/common/constants.js';
import { ConversationOutcomesService } from '../../src/modules/conversations/conversation-outcomes.service.js';
import { createBotViaApi } from '../support/bot-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Conversation outcomes (docs/product.md#outcomes) on a real database: conversations are made
 * through the widget's routes with the offline demo model (answers, ratings, leads, the owner's
 * reply), and the job is run directly with the time it should believe it is.
 */
let t: TestApp;
let owner: request.Agent;
let botId: number;

const SITE = 'https://shop.example';
const MINUTE = 60 * 1000;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
  owner = (await signedInAgent(t, { creditsCents: 10_000 })).agent;
  botId = await createBotViaApi(t, owner, 'Hotel');
  const source = await owner
    .post(`/api/bots/${botId}/sources/text`)
    .set('Origin', t.origin)
    .send({ name: 'Parking', text: 'Guests park for free behind the bakery.' });
  expect(source.status).toBe(201);
});
afterAll(() => t.close());

let addresses = 0;
/** Each visitor from their own documentation address, so the per-network limit stays out of the way. */
function nextAddress(): string {
  addresses += 1;
  return `198.51.100.${addresses}`;
}

interface Visitor {
  token?: string;
  ip: string;
}

/** One message from `visitor` (a new one when it has no token yet); returns the answer's id. */
async function ask(visitor: Visitor, prompt: string): Promise<number> {
  const call = t.http().post('/api/chat').set('Origin', SITE).set('X-Forwarded-For', visitor.ip);
  if (visitor.token) call.set('X-Visitor-Token', visitor.token);
  const response = await call.send({ botId, prompt });
  expect(response.status).toBe(200);
  visitor.token = response.headers['x-visitor-token'];
  return response.body.messageId as number;
}

async function conversationOf(messageId: number): Promise<number> {
  const rows: Array<{ id: number }> = await t.dataSource.query(
    `SELECT conversation_id AS id FROM messages WHERE id = $1`,
    [messageId],
  );
  return Number(rows[0].id);
}

async function outcomeOf(conversationId: number): Promise<{ outcome: string | null; outcomeAt: Date | null }> {
  const rows: Array<{ outcome: string | null; outcome_at: Date | null }> = await t.dataSource.query(
    `SELECT outcome, outcome_at FROM conversations WHERE id = $1`,
    [conversationId],
  );
  return { outcome: rows[0].outcome, outcomeAt: rows[0].outcome_at === null ? null : new Date(rows[0].outcome_at) };
}

/** Runs the job as if it were `minutesLater` minutes from now. */
const decide = (minutesLater: number) =>
  t.app.get(ConversationOutcomesService).run(new Date(Date.now() + minutesLater * MINUTE));

const QUIET_MINUTES = CONVERSATION_OUTCOME_QUIET_MS / MINUTE;

describe('conversation outcomes', () => {
  it('decides each conversation once it has been quiet for 30 minutes, by the rule', async () => {
    const resolved: Visitor = { ip: nextAddress() };
    const resolvedId = await conversationOf(await ask(resolved, 'Where do guests park?'));

    const unanswered: Visitor = { ip: nextAddress() };
    const unansweredId = await conversationOf(await ask(unanswered, 'Where do guests park?'));
    await ask(unanswered, 'Is there a swimming pool?');

    const ratedDown: Visitor = { ip: nextAddress() };
    const downAnswer = await ask(ratedDown, 'Where do guests park?');
    const ratedDownId = await conversationOf(downAnswer);
    const rating = await t
      .http()
      .post('/api/chat/feedback')
      .set('Origin', SITE)
      .set('X-Forwarded-For', ratedDown.ip)
      .set('X-Visitor-Token', ratedDown.token!)
      .send({ botId, messageId: downAnswer, rating: 'down' });
    expect(rating.status).toBe(204);

    const handedOff: Visitor = { ip: nextAddress() };
    const handedOffId = await conversationOf(await ask(handedOff, 'Is there a swimming pool?'));
    const lead = await t
      .http()
      .post('/api/chat/lead')
      .set('Origin', SITE)
      .set('X-Forwarded-For', handedOff.ip)
      .set('X-Visitor-Token', handedOff.token!)
      .send({ botId: String(botId), email: 'ann@example.org' });
    expect(lead.status).toBe(201);

    // A failed answer leaves the visitor's message and what they were told (role 'error'), as
    // ChatService.refuse logs it, and no answer: the visitor got nothing.
    const [abandoned]: Array<{ id: number }> = await t.dataSource.query(
      `INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id, message_count, preview)
       SELECT owner_id, id, name, 'abandoned-visitor', 2, 'Hello?' FROM bots WHERE id = $1 RETURNING id`,
      [botId],
    );
    await t.dataSource.query(
      `INSERT INTO messages (conversation_id, owner_id, role, content)
       SELECT $1, owner_id, r.role, r.content FROM conversations,
              (VALUES ('user', 'Hello?'), ('error', 'Sorry, something went wrong.')) AS r(role, content)
        WHERE id = $1`,
      [abandoned.id],
    );

    const ids = [resolvedId, unansweredId, ratedDownId, handedOffId, Number(abandoned.id)];
    expect((await decide(QUIET_MINUTES - 1)).decided).toBe(0);
    for (const id of ids) expect((await outcomeOf(id)).outcome).toBeNull();

    expect(await decide(QUIET_MINUTES + 1)).toEqual({ decided: 5, skipped: false });
    expect(await Promise.all(ids.map(async (id) => (await outcomeOf(id)).outcome))).toEqual([
      'resolved',
      'unanswered',
      'rated_down',
      'handed_off',
      'abandoned',
    ]);
    // Decided ones are not decided again while nothing new happens.
    expect((await decide(QUIET_MINUTES + 10)).decided).toBe(0);
  });

  it('decides a conversation again when it resumed, once it is quiet again, on all its messages', async () => {
    const visitor: Visitor = { ip: nextAddress() };
    const id = await conversationOf(await ask(visitor, 'Where do guests park?'));
    await decide(QUIET_MINUTES + 1);
    const first = await outcomeOf(id);
    expect(first.outcome).toBe('resolved');

    // The job ran in the test's future; its decision moves to the past, where a real one would
    // be, so the visitor's next message is later than it: the conversation is due again.
    await t.dataSource.query(`UPDATE conversations SET outcome_at = now() - interval '1 minute' WHERE id = $1`, [id]);
    await ask(visitor, 'Is there a swimming pool?');
    expect((await decide(QUIET_MINUTES - 1)).decided).toBe(0);
    expect((await outcomeOf(id)).outcome).toBe('resolved');

    expect((await decide(QUIET_MINUTES + 1)).decided).toBe(1);
    expect((await outcomeOf(id)).outcome).toBe('unanswered');
  });

  it('the owner replying makes a conversation handed_off, even after the handoff ended', async () => {
    const visitor: Visitor = { ip: nextAddress() };
    const id = await conversationOf(await ask(visitor, 'Where do guests park?'));
    const reply = await owner
      .post(`/api/conversations/${id}/reply`)
      .set('Origin', t.origin)
      .send({ content: 'Hi, I can help with parking too.' });
    expect(reply.status).toBe(201);
    expect((await owner.post(`/api/conversations/${id}/handback`).set('Origin', t.origin)).status).toBe(204);
    await decide(QUIET_MINUTES + 1);
    expect((await outcomeOf(id)).outcome).toBe('handed_off');
  });

  it('two runs at once decide each conversation once (one holds the lock, batches are small)', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 4; i += 1)
      ids.push(await conversationOf(await ask({ ip: nextAddress() }, 'Where do guests park?')));
    const service = t.app.get(ConversationOutcomesService);
    const at = new Date(Date.now() + (QUIET_MINUTES + 1) * MINUTE);
    const runs = await Promise.all([service.run(at, 1), service.run(at, 1)]);
    expect(runs.reduce((sum, run) => sum + run.decided, 0)).toBe(4);
    for (const id of ids) expect((await outcomeOf(id)).outcome).toBe('resolved');
  });
});
