import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { insertBot, insertConversation } from '../support/usage-factories.js';

/**
 * GET /api/onboarding (docs/product.md#next-steps): the dashboard's three first steps, each from
 * what the account records — a knowledge source, a conversation, a conversation from a page
 * outside Botsmith's own origin — and never from another account's rows.
 */
let t: TestApp;
let owner: request.Agent;
let ownerId: number;
let other: request.Agent;
let otherId: number;

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
});
afterAll(() => t.close());

const state = async (agent: request.Agent) => {
  const res = await agent.get('/api/onboarding');
  expect(res.status).toBe(200);
  return res.body as Record<string, unknown>;
};

async function addSource(botId: number, status: 'processing' | 'ready' | 'failed', isCorrection = false) {
  // A 'processing' source is leased for an hour, as if another instance were reading it: else this
  // app's source jobs would claim it, find no file, and mark it failed before the next request.
  await t.dataSource.query(
    `INSERT INTO bot_sources (bot_id, kind, name, status, is_correction, job_lease_until)
     VALUES ($1, 'text', 'Notes', $2, $3, $4)`,
    [botId, status, isCorrection, status === 'processing' ? new Date(Date.now() + 3_600_000) : null],
  );
}

async function conversationFrom(ownerOf: number, botId: number, pageUrl: string | null) {
  const id = await insertConversation(t, { ownerId: ownerOf, botId, botName: 'x' });
  await t.dataSource.query(`UPDATE conversations SET page_url = $2 WHERE id = $1`, [id, pageUrl]);
}

describe('next steps', () => {
  it('starts with nothing done, and another account doing all three changes nothing', async () => {
    expect(await state(owner)).toEqual({ hasKnowledge: false, hasConversation: false, onSite: false });

    const theirs = await insertBot(t, otherId, { name: 'Theirs' });
    await addSource(theirs, 'ready');
    await conversationFrom(otherId, theirs, 'https://their-shop.example/pricing');
    expect(await state(other)).toEqual({ hasKnowledge: true, hasConversation: true, onSite: true });
    expect(await state(owner)).toEqual({ hasKnowledge: false, hasConversation: false, onSite: false });
  });

  it('ticks knowledge only for a usable source of its own bot: not a failed one, not a correction', async () => {
    const botId = await insertBot(t, ownerId, { name: 'Support' });
    await addSource(botId, 'failed');
    await addSource(botId, 'ready', true);
    expect((await state(owner)).hasKnowledge).toBe(false);
    await addSource(botId, 'processing');
    expect((await state(owner)).hasKnowledge).toBe(true);
  });

  it("ticks 'try it' for any conversation, and 'on your site' only for a page outside Botsmith's origin", async () => {
    const botId = await insertBot(t, ownerId, { name: 'Sales' });
    // The dashboard's preview and the landing page: Botsmith's own origin, or no page at all.
    await conversationFrom(ownerId, botId, `${t.origin}/dashboard`);
    await conversationFrom(ownerId, botId, t.origin);
    await conversationFrom(ownerId, botId, null);
    expect(await state(owner)).toMatchObject({ hasConversation: true, onSite: false });

    // A host that only starts with Botsmith's origin is someone else's site.
    await conversationFrom(ownerId, botId, `${t.origin}.their-shop.example/`);
    expect(await state(owner)).toMatchObject({ hasConversation: true, onSite: true });
  });

  it('refuses a signed-out caller with 401 and no flags', async () => {
    const anonymous = await t.http().get('/api/onboarding');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toEqual(expect.any(String));
    expect(anonymous.body).not.toHaveProperty('hasKnowledge');
  });
});
