import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEAD_CAPTURE_DEFAULTS, SOURCE_TEXT_LIMITS } from '@botsmith/contract';
import type request from 'supertest';
import { mailsTo, outboxMails } from '../support/account-helpers.js';
import { createChatBot } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The owner routes issues 25 to 27 added, attacked: without a session, from another site riding
 * the owner's cookie, by another owner naming the victim's ids, with ids that are not ids and with
 * bodies that are not what the route takes. Each refusal is checked for what it answers and for
 * what it must not do: the victim's bot, written answers, correction, lead address and webhook
 * endpoint are read back unchanged after every attack, and no mail goes out.
 */
const FOREIGN = 'https://evil.example';
const REFUSED_ORIGIN = {
  error: 'This request was refused because it did not come from the Botsmith site.',
  code: 'ORIGIN_NOT_ALLOWED',
};
const PARTNER = 'victim-sales@partner.example';
const CONFIRM_LINK = /http:\/\/localhost:3000(\/api\/mail\/confirm\/[A-Za-z0-9_-]{43})/;

let t: TestApp;
let victim: request.Agent;
let victimId: number;
let attacker: request.Agent;
let attackerEmail: string;
let attackerBot: number;
const ids = { bot: 0, text: 0, correction: 0, webhook: 0 };
let confirmPath: string;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0', LEAD_DIGEST_POLL_MS: '0', WEBHOOK_POLL_MS: '0' });
  const v = await signedInAgent(t);
  victim = v.agent;
  victimId = v.user.id;
  const a = await signedInAgent(t);
  attacker = a.agent;
  attackerEmail = a.user.email;
  attackerBot = (await createChatBot(t, a.user.id, { name: 'Attacker Bot' })).id;

  ids.bot = (await createChatBot(t, v.user.id, { name: 'Victim Bot' })).id;
  const saved = await victim
    .put(`/api/bots/${ids.bot}`)
    .set('Origin', t.origin)
    .send({ leadCapture: { ...LEAD_CAPTURE_DEFAULTS, notifyEmails: [PARTNER] } });
  expect(saved.status).toBe(200);
  const [request] = await mailsTo(t, PARTNER);
  confirmPath = CONFIRM_LINK.exec(request.text)![1];

  const text = await victim
    .post(`/api/bots/${ids.bot}/sources/text`)
    .set('Origin', t.origin)
    .send({ name: 'Opening hours', text: 'The victim shop opens at nine.' });
  expect(text.status).toBe(201);
  ids.text = text.body.source.id as number;
  const correction = await victim
    .post(`/api/bots/${ids.bot}/corrections`)
    .set('Origin', t.origin)
    .send({ question: 'Is parking free?', answer: 'Victim parking costs two dollars.' });
  expect(correction.status).toBe(201);
  ids.correction = correction.body.source.id as number;

  const webhook = await victim
    .post('/api/webhooks')
    .set('Origin', t.origin)
    .send({ url: 'https://hooks.partner.example/victim', events: ['lead.created'] });
  expect(webhook.status).toBe(201);
  ids.webhook = webhook.body.webhook.id as number;
  // Disabled after days of failures (webhooks-fairness.spec.ts drives that path): only its owner may enable it.
  await t.dataSource.query(
    `UPDATE webhook_endpoints SET failing_since = now() - interval '4 days', disabled_at = now() WHERE id = $1`,
    [ids.webhook],
  );
});
afterAll(() => t.close());

/** Everything of the victim's that an attack on these routes could change, read from the database. */
async function victimState(): Promise<unknown> {
  const q = (sql: string, params: unknown[]) => t.dataSource.query<unknown[]>(sql, params);
  return {
    bot: await q(`SELECT name, show_model_label, lead_capture FROM bots WHERE id = $1`, [ids.bot]),
    sources: await q(`SELECT id, name, question, bytes FROM bot_sources WHERE bot_id = $1 ORDER BY id`, [ids.bot]),
    passages: await q(`SELECT source_id, content FROM document_chunks WHERE source_id IN ($1, $2) ORDER BY id`, [
      ids.text,
      ids.correction,
    ]),
    webhook: await q(`SELECT url, disabled_at, failing_since FROM webhook_endpoints WHERE id = $1`, [ids.webhook]),
    consent: await q(`SELECT email, requests, requested_at, confirmed_at FROM mail_consents WHERE email = $1`, [
      PARTNER,
    ]),
    mails: (await outboxMails(t)).length,
  };
}

/** The victim's routes, each with a body the victim itself could send (accepted for the victim). */
function victimRoutes(): Array<[method: 'get' | 'post' | 'put', path: string, body?: object]> {
  return [
    ['get', `/api/bots/${ids.bot}/notify-emails`],
    ['post', `/api/bots/${ids.bot}/notify-emails/resend`, { email: PARTNER }],
    ['get', `/api/bots/${ids.bot}/sources/${ids.text}/pages`],
    ['get', `/api/bots/${ids.bot}/sources/${ids.text}/text`],
    ['put', `/api/bots/${ids.bot}/sources/${ids.text}/text`, { name: 'Hijacked', text: 'Everything is free.' }],
    ['put', `/api/bots/${ids.bot}/corrections/${ids.correction}`, { question: 'Free?', answer: 'Everything is free.' }],
    ['put', `/api/bots/${ids.bot}`, { showModelLabel: true }],
    ['post', `/api/webhooks/${ids.webhook}/enable`],
  ];
}

/** What must never appear in an answer to anyone but the victim. */
const VICTIM_SECRETS = [PARTNER, 'victim shop', 'Victim parking', 'hooks.partner.example', 'Victim Bot'];

function expectNothingOfTheVictim(body: unknown): void {
  const text = JSON.stringify(body);
  for (const secret of VICTIM_SECRETS) expect(text).not.toContain(secret);
}

describe('without a session', () => {
  it("answers 401 on every route, with nothing of the owner's and nothing changed", async () => {
    const before = await victimState();
    const routes: Array<[string, string, object?]> = [
      ...victimRoutes(),
      ['get', '/api/mail/usage'],
      ['get', '/api/conversations/waiting-count'],
      ['get', '/api/onboarding'],
      ['get', '/api/billing'],
      ['post', '/api/billing/portal', {}],
    ];
    for (const [method, path, body] of routes) {
      const call = t.http()[method as 'get' | 'post' | 'put'](path).set('Origin', t.origin);
      const response = await (body ? call.send(body) : call);
      expect({ route: `${method} ${path}`, status: response.status, body: response.body }).toEqual({
        route: `${method} ${path}`,
        status: 401,
        body: { error: 'Please sign in.', code: 'UNAUTHORIZED' },
      });
    }
    expect(await victimState()).toEqual(before);
  });
});

describe("another site riding the owner's cookie", () => {
  it('is refused with 403 on every state-changing route, and nothing changes', async () => {
    const before = await victimState();
    for (const [method, path, body] of victimRoutes()) {
      if (method === 'get') continue;
      const response = await victim[method](path)
        .set('Origin', FOREIGN)
        .send(body ?? {});
      expect({ route: `${method} ${path}`, status: response.status, body: response.body }).toEqual({
        route: `${method} ${path}`,
        status: 403,
        body: REFUSED_ORIGIN,
      });
    }
    const portal = await victim.post('/api/billing/portal').set('Origin', FOREIGN).send({});
    expect([portal.status, portal.body]).toEqual([403, REFUSED_ORIGIN]);
    // The confirmation link's own button, posted from another site: the address stays unconfirmed.
    const confirm = await t.http().post(confirmPath).set('Origin', FOREIGN).type('form').send('');
    expect([confirm.status, confirm.body]).toEqual([403, REFUSED_ORIGIN]);
    expect(await victimState()).toEqual(before);
  });
});

describe("another owner naming the victim's ids", () => {
  it("answers 404 on every route, telling nothing of the victim's and changing nothing", async () => {
    const before = await victimState();
    for (const [method, path, body] of victimRoutes()) {
      const call = attacker[method](path).set('Origin', t.origin);
      const response = await (body ? call.send(body) : call);
      expect({ route: `${method} ${path}`, status: response.status }).toEqual({
        route: `${method} ${path}`,
        status: 404,
      });
      expect(response.body).toEqual({ error: expect.any(String), code: expect.stringMatching(/_NOT_FOUND$/) });
      expectNothingOfTheVictim(response.body);
    }
    // The victim's sources under the attacker's own bot.
    for (const [method, path, body] of [
      ['get', `/api/bots/${attackerBot}/sources/${ids.text}/text`],
      ['get', `/api/bots/${attackerBot}/sources/${ids.text}/pages`],
      ['put', `/api/bots/${attackerBot}/sources/${ids.text}/text`, { name: 'Hijacked', text: 'Free.' }],
      ['put', `/api/bots/${attackerBot}/corrections/${ids.correction}`, { question: 'Free?', answer: 'Yes.' }],
    ] as const) {
      const call = attacker[method](path).set('Origin', t.origin);
      const response = await (body ? call.send(body) : call);
      expect([`${method} ${path}`, response.status, response.body.code]).toEqual([
        `${method} ${path}`,
        404,
        'SOURCE_NOT_FOUND',
      ]);
      expectNothingOfTheVictim(response.body);
    }
    // The victim's lead address resent from the attacker's own bot: not one of its addresses, no mail.
    const resend = await attacker
      .post(`/api/bots/${attackerBot}/notify-emails/resend`)
      .set('Origin', t.origin)
      .send({ email: PARTNER });
    expect([resend.status, resend.body.code]).toEqual([409, 'NOTIFY_EMAIL_NOT_PENDING']);
    expectNothingOfTheVictim(resend.body);
    expect(await victimState()).toEqual(before);
  });

  it("counts the mail of the caller's own account only", async () => {
    const usage = await attacker.get('/api/mail/usage');
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ sentToday: 0, limitReached: false });
    // The victim's confirmation request was one mail of the victim's day.
    expect((await victim.get('/api/mail/usage')).body).toMatchObject({ sentToday: 1 });
  });
});

describe('ids that are not ids', () => {
  it.each(['0', '-1', '2147483648', '99999999999999999999', '1e3', '0x1f', '1.5', '01', '%00', '%F0%9F%98%80'])(
    'answers 400 INVALID_ID for %s in any id of every route, and changes nothing',
    async (bad) => {
      const before = await victimState();
      const paths = [
        `/api/bots/${bad}/notify-emails`,
        `/api/bots/${ids.bot}/sources/${bad}/pages`,
        `/api/bots/${ids.bot}/sources/${bad}/text`,
        `/api/bots/${bad}/sources/${ids.text}/text`,
      ];
      for (const path of paths) {
        const response = await victim.get(path);
        expect([path, response.status, response.body.code]).toEqual([path, 400, 'INVALID_ID']);
      }
      for (const [method, path, body] of [
        ['post', `/api/bots/${bad}/notify-emails/resend`, { email: PARTNER }],
        ['put', `/api/bots/${ids.bot}/sources/${bad}/text`, { name: 'Hours', text: 'We open at ten.' }],
        ['put', `/api/bots/${ids.bot}/corrections/${bad}`, { question: 'Free?', answer: 'Yes.' }],
        ['post', `/api/webhooks/${bad}/enable`, {}],
      ] as const) {
        const response = await victim[method](path).set('Origin', t.origin).send(body);
        expect([path, response.status, response.body.code]).toEqual([path, 400, 'INVALID_ID']);
      }
      expect(await victimState()).toEqual(before);
    },
  );
});

describe('POST /api/bots/{id}/notify-emails/resend with hostile bodies', () => {
  it.each([
    ['no e-mail', '{}'],
    ['an empty e-mail', '{"email":""}'],
    ['an array', JSON.stringify({ email: [PARTNER] })],
    ['an operator object', '{"email":{"$ne":null}}'],
    ['a number', '{"email":42}'],
    ['a NUL', JSON.stringify({ email: 'victim-sales\u0000@partner.example' })],
    ['a lone surrogate', '{"email":"victim-sales@partner.example\\ud800"}'],
    ['an e-mail of 100,000 characters', JSON.stringify({ email: `${'a'.repeat(100_000)}@partner.example` })],
    ['an extra field', JSON.stringify({ email: PARTNER, botId: 1 })],
    ['a __proto__ field', `{"email":"${PARTNER}","__proto__":{"admin":true}}`],
  ])('refuses %s with 400 and a sentence, mailing nobody', async (_, body) => {
    const before = await victimState();
    const response = await victim
      .post(`/api/bots/${ids.bot}/notify-emails/resend`)
      .set('Origin', t.origin)
      .set('Content-Type', 'application/json')
      .send(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.any(String), code: expect.any(String) });
    expect(await victimState()).toEqual(before);
  });
});

describe('edits of a written answer or a correction with hostile values', () => {
  it.each([
    ['a NUL in the answer', 'text', '{"name":"Hours","text":"We open at nine.\\u0000"}'],
    ['a lone surrogate in the question', 'text', '{"name":"Hours\\ud800","text":"We open at nine."}'],
    ['an answer that is a number', 'text', '{"name":"Hours","text":42}'],
    ['an answer that is an object', 'text', '{"name":"Hours","text":{"toString":"x"}}'],
    ['a __proto__ field', 'text', '{"name":"Hours","text":"We open at nine.","__proto__":{"bytes":0}}'],
    ['a NUL in the correction', 'correction', '{"question":"Free?","answer":"Yes.\\u0000"}'],
    ['a lone surrogate in the question', 'correction', '{"question":"Free\\udc00?","answer":"Yes."}'],
    ['a question that is an array', 'correction', '{"question":["Free?"],"answer":"Yes."}'],
  ])('refuses %s (%s) with 400 and a sentence, changing nothing', async (_, kind, body) => {
    const before = await victimState();
    const path =
      kind === 'text'
        ? `/api/bots/${ids.bot}/sources/${ids.text}/text`
        : `/api/bots/${ids.bot}/corrections/${ids.correction}`;
    const response = await victim.put(path).set('Origin', t.origin).set('Content-Type', 'application/json').send(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.any(String), code: expect.any(String) });
    expect(await victimState()).toEqual(before);
  });
});

describe('a written answer at its size limit (POST and PUT /api/bots/{id}/sources/…/text)', () => {
  it.each([
    ['Latin letters', 'a'],
    // 300 KB of UTF-8: refused as a body over 256 KB until REQUEST_BODY_MAX_BYTES made room for it.
    ['Japanese, 3 bytes a character', '日'],
  ])(
    'takes an answer of exactly the limit in %s, edits it at the limit, and reads it back whole',
    async (_, letter) => {
      const bot = (await createChatBot(t, victimId, { name: 'Long' })).id;
      // Words of 9 letters and a space: the limit exactly.
      const text = `${letter.repeat(9)} `.repeat(SOURCE_TEXT_LIMITS.textMaxChars / 10 - 1) + letter.repeat(10);
      expect(text).toHaveLength(SOURCE_TEXT_LIMITS.textMaxChars);
      const name = 'n'.repeat(SOURCE_TEXT_LIMITS.nameMaxChars);
      const added = await victim.post(`/api/bots/${bot}/sources/text`).set('Origin', t.origin).send({ name, text });
      expect([added.status, added.body.code]).toEqual([201, undefined]);
      const id = added.body.source.id as number;

      const edit = `${text.slice(1)}${letter}`;
      const started = Date.now();
      const edited = await victim
        .put(`/api/bots/${bot}/sources/${id}/text`)
        .set('Origin', t.origin)
        .send({ name, text: edit });
      expect([edited.status, edited.body.code]).toEqual([200, undefined]);
      expect(edited.body.source).toMatchObject({ id, bytes: Buffer.byteLength(edit), status: 'ready' });
      // A guard against a blow-up on a loaded machine, not a speed test.
      expect(Date.now() - started).toBeLessThan(15_000);
      const read = await victim.get(`/api/bots/${bot}/sources/${id}/text`);
      expect(read.status).toBe(200);
      expect(read.body.text).toBe(edit);
    },
  );
});

describe("a lead address's consent belongs to the owner it was given to", () => {
  it("is not confirmed for another owner who lists the same address, nor sent that owner's leads", async () => {
    const confirmed = await t.http().post(confirmPath).set('Origin', t.origin).type('form').send('');
    expect(confirmed.status).toBe(200);
    const ofVictim = await victim.get(`/api/bots/${ids.bot}/notify-emails`);
    expect(ofVictim.body.addresses).toEqual([
      { email: PARTNER, state: 'confirmed', confirmationSentAt: expect.any(String) },
    ]);

    const listed = await attacker
      .put(`/api/bots/${attackerBot}`)
      .set('Origin', t.origin)
      .send({ leadCapture: { ...LEAD_CAPTURE_DEFAULTS, enabled: true, notifyEmails: [PARTNER] } });
    expect(listed.status).toBe(200);
    const ofAttacker = await attacker.get(`/api/bots/${attackerBot}/notify-emails`);
    expect(ofAttacker.status).toBe(200);
    expect(ofAttacker.body.addresses).toEqual([
      { email: PARTNER, state: 'pending', confirmationSentAt: expect.any(String) },
    ]);
    // The address is asked again, by a mail of its own naming its own link.
    const requests = await mailsTo(t, PARTNER);
    expect(requests).toHaveLength(2);
    expect(CONFIRM_LINK.exec(requests[1].text)![1]).not.toBe(confirmPath);

    const lead = await t.http().post('/api/chat/lead').send({ botId: attackerBot, email: 'ana@client.example' });
    expect(lead.status).toBe(201);
    // The lead reached the attacker's own address (the account's needs no confirmation), not the partner.
    expect((await mailsTo(t, attackerEmail)).map((m) => m.subject)).toContainEqual(expect.stringMatching(/^New lead/));
    expect((await mailsTo(t, PARTNER)).map((m) => m.subject)).not.toContainEqual(expect.stringMatching(/^New lead/));
    // The victim's consent is untouched.
    expect((await victim.get(`/api/bots/${ids.bot}/notify-emails`)).body).toEqual(ofVictim.body);
  });
});
