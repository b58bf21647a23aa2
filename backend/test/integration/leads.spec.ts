import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import ExcelJS from 'exceljs';
import type request from 'supertest';
import { LEAD_CAPTURE_DEFAULTS, LEAD_THANK_YOU_DEFAULT } from '@botsmith/contract';
import { ConversationRetentionService } from '../../src/modules/conversations/conversation-retention.service.js';
import { LEAD_RATE_LIMITS } from '../../src/modules/chat/rate-limit/chat-rate-limiter.js';
import { LEADS_COLUMNS, LEADS_SHEET } from '../../src/modules/leads/leads-export.service.js';
import { LeadsService } from '../../src/modules/leads/leads.service.js';
import { MailConsentService } from '../../src/modules/mail-consent/mail-consent.service.js';
import { WebhooksService } from '../../src/modules/webhooks/webhooks.service.js';
import { mailsTo } from '../support/account-helpers.js';
import { chargeMessage } from '../support/billing-helpers.js';
import { createChatBot, creditsOf, usageOfOwner, type BotOptions } from '../support/chat-factories.js';
import { createUser, signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Lead capture (docs/product.md#leads-and-handoff) through the real app on a real database: the
 * bot's setting, the public face at the budget, POST /api/chat/lead with its checks, the owner's
 * mail, the handoff mark, the owner's list, export and deletion, and retention.
 */
let t: TestApp;
const SITE = 'https://shop.example';

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
});
afterAll(() => t.close());

/** Each request from its own documentation address unless told: the per-network limit is shared by all bots. */
let addresses = 0;
function nextAddress(): string {
  addresses += 1;
  return `198.51.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
}

interface Caller {
  token?: string;
  ip?: string;
  origin?: string;
}

function lead(body: Record<string, unknown>, caller: Caller = {}) {
  const req = t
    .http()
    .post('/api/chat/lead')
    .set('Origin', caller.origin ?? SITE)
    .set('X-Page-Url', `${caller.origin ?? SITE}/contact`)
    .set('X-Forwarded-For', caller.ip ?? nextAddress());
  if (caller.token) req.set('X-Visitor-Token', caller.token);
  return req.send(body);
}

function chat(botId: number, prompt: string, caller: Caller = {}) {
  const req = t
    .http()
    .post('/api/chat')
    .set('Origin', SITE)
    .set('X-Forwarded-For', caller.ip ?? nextAddress());
  if (caller.token) req.set('X-Visitor-Token', caller.token);
  return req.send({ botId, prompt });
}

async function face(botId: number): Promise<request.Response> {
  const response = await t.http().get(`/api/widget/bots/${botId}`);
  expect(response.status).toBe(200);
  return response;
}

async function leadRows(botId: number): Promise<Array<Record<string, unknown>>> {
  return t.dataSource.query(
    `SELECT name, email, phone, message, conversation_id, bot_name FROM leads WHERE bot_id = $1 ORDER BY id`,
    [botId],
  );
}

async function handoffOf(conversationId: number): Promise<Date | null> {
  const [row]: Array<{ handoff_at: Date | null }> = await t.dataSource.query(
    `SELECT handoff_at FROM conversations WHERE id = $1`,
    [conversationId],
  );
  return row.handoff_at;
}

async function ownerWithBot(options: BotOptions = {}, billing: Parameters<typeof createUser>[1] = {}) {
  const owner = await createUser(t, billing);
  const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example', ...options });
  return { owner, bot };
}

describe('a bot at its budget offers the lead form instead of hiding', () => {
  it('face is leadOnly, chat still 402, the lead is 201 and charges nothing; the owner gets the lead and the transcript', async () => {
    const { owner, bot } = await ownerWithBot({ usageLimitDollars: 1 });
    await chargeMessage(t, owner.id, 100, undefined, { botId: bot.id });
    const usageBefore = await usageOfOwner(t, owner.id);
    const creditsBefore = await creditsOf(t, owner.id);

    const shown = await face(bot.id);
    expect(shown.body.bot).toMatchObject({
      hidden: true,
      leadOnly: true,
      leadCapture: { fields: ['email'], offerWhen: ['cap', 'request'], thankYouText: '' },
    });
    expect(Object.keys(shown.body.bot.leadCapture).sort()).toEqual(['fields', 'offerWhen', 'thankYouText']);
    expect(shown.text).not.toContain('notifyEmails');

    const refused = await chat(bot.id, 'Do you ship to Ireland?');
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('BOT_BUDGET_REACHED');

    const left = await lead({ botId: bot.id, email: 'Ann@Example.org' });
    expect(left.status).toBe(201);
    expect(left.body).toEqual({ message: LEAD_THANK_YOU_DEFAULT });
    expect(left.headers['x-visitor-token']).toMatch(/^v1\./);
    expect(left.headers['cache-control']).toBe('no-store');

    expect(await usageOfOwner(t, owner.id)).toEqual(usageBefore);
    expect(await creditsOf(t, owner.id)).toBe(creditsBefore);
    const [row] = await leadRows(bot.id);
    expect(row).toMatchObject({ email: 'Ann@Example.org', name: null, phone: null, message: null, bot_name: bot.name });
    expect(await handoffOf(Number(row.conversation_id))).toBeInstanceOf(Date);

    // (The owner also got the budget alert at 100%.)
    const mails = (await mailsTo(t, owner.email)).filter((m) => m.subject.startsWith('New lead'));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain(`New lead from ${bot.name}`);
    expect(mails[0].text).toContain('Email: Ann@Example.org');
    expect(mails[0].text).toContain('(No messages before the lead.)');
    expect(mails[0].text).toContain(`/dashboard/conversations?c=${String(row.conversation_id)}`);
    expect(mails[0].html).toContain('Ann@Example.org');
  });

  it('also when the owner cannot be charged; a bot that takes no leads there still hides', async () => {
    const { bot } = await ownerWithBot({}, { billing: 'failed' });
    expect((await face(bot.id)).body.bot).toMatchObject({ hidden: true, leadOnly: true });
    expect((await chat(bot.id, 'Hello?')).status).toBe(402);
    expect((await lead({ botId: bot.id, email: 'bo@example.org' })).status).toBe(201);

    const { bot: requestOnly } = await ownerWithBot({ leadCapture: { offerWhen: ['request'] } }, { billing: 'failed' });
    expect((await face(requestOnly.id)).body.bot).toMatchObject({ hidden: true, leadOnly: false });
    const { bot: off } = await ownerWithBot({ leadCapture: { enabled: false } }, { billing: 'failed' });
    expect((await face(off.id)).body.bot).toMatchObject({ hidden: true, leadOnly: false, leadCapture: null });
  });
});

describe('POST /api/chat/lead on a bot that answers', () => {
  it("joins the visitor's conversation, mails the transcript to the notify addresses, and thanks with the owner's text", async () => {
    const { owner, bot } = await ownerWithBot({
      leadCapture: {
        fields: ['name', 'email', 'phone', 'message'],
        notifyEmails: ['sales@example.net', 'boss@example.net'],
        thankYouText: 'Thank you, we will call you today.',
      },
    });
    expect((await face(bot.id)).body.bot).toMatchObject({ hidden: false, leadOnly: false });
    // Since issue 25 (docs/product.md#mail-consent) lead addresses confirm first (mail-consent.spec).
    await t.app.get(MailConsentService).leadAddressesSaved(owner.id, bot.leadCapture.notifyEmails);
    for (const address of ['sales@example.net', 'boss@example.net']) {
      const [request] = await mailsTo(t, address);
      const link = request.text.match(/http:\/\/localhost:3000(\/api\/mail\/confirm\/[A-Za-z0-9_-]{43})/)![1];
      expect((await t.http().post(link).set('Origin', t.origin)).status).toBe(200);
    }
    const ip = nextAddress();
    const answered = await chat(bot.id, 'When does the shop open?', { ip });
    expect(answered.status).toBe(200);
    const token = answered.headers['x-visitor-token'];

    const left = await lead(
      {
        botId: '' + bot.id,
        name: '  Ann Lee ',
        email: 'ann@example.org',
        phone: '+353 (1) 555-0100',
        message: 'Call me',
      },
      { token, ip },
    );
    expect(left.status).toBe(201);
    expect(left.body).toEqual({ message: 'Thank you, we will call you today.' });
    expect(left.headers['x-visitor-token']).toBe(token);

    const [row] = await leadRows(bot.id);
    expect(row).toMatchObject({ name: 'Ann Lee', phone: '+353 (1) 555-0100', message: 'Call me' });
    const [conversation]: Array<{ id: number; n: string; preview: string }> = await t.dataSource.query(
      `SELECT id, (SELECT COUNT(*) FROM conversations WHERE bot_id = $1) AS n, preview FROM conversations WHERE bot_id = $1`,
      [bot.id],
    );
    expect(Number(conversation.n)).toBe(1);
    expect(Number(row.conversation_id)).toBe(Number(conversation.id));
    expect(await handoffOf(conversation.id)).toBeInstanceOf(Date);
    // Where the owner's replies in this conversation can be mailed; nobody else's.
    const leads = t.app.get(LeadsService);
    expect(await leads.visitorEmailOf(owner.id, Number(conversation.id))).toBe('ann@example.org');
    expect(await leads.visitorEmailOf(owner.id + 1000, Number(conversation.id))).toBeNull();

    expect(await mailsTo(t, owner.email)).toHaveLength(0);
    for (const address of ['sales@example.net', 'boss@example.net']) {
      const [, mail] = await mailsTo(t, address);
      expect(mail.subject).toBe(`New lead from ${bot.name}: Ann Lee`);
      expect(mail.text).toContain('Phone: +353 (1) 555-0100');
      expect(mail.text).toContain('Message: Call me');
      expect(mail.text).toContain('Visitor: When does the shop open?');
      expect(mail.text).toContain(`Bot: ${answered.body.message as string}`);
    }
  });

  it('queues lead.created with the lead, and conversation.handoff only when the lead started the handoff', async () => {
    const { owner, bot } = await ownerWithBot();
    const notify = jest.spyOn(t.app.get(WebhooksService), 'notify');
    try {
      const ip = nextAddress();
      const first = await lead({ botId: bot.id, email: 'ann@example.org' }, { ip });
      expect(first.status).toBe(201);
      const [row] = await leadRows(bot.id);
      const conversationId = Number(row.conversation_id);
      expect(notify.mock.calls).toEqual([
        [
          owner.id,
          'lead.created',
          expect.objectContaining({ botId: bot.id, email: 'ann@example.org', conversationId, name: null }),
        ],
        [owner.id, 'conversation.handoff', { conversationId, botId: bot.id }],
      ]);
      notify.mockClear();
      // The same visitor again: a second lead, the conversation was already handed off.
      const token = first.headers['x-visitor-token'];
      expect((await lead({ botId: bot.id, email: 'ann@example.org' }, { ip, token })).status).toBe(201);
      expect(notify.mock.calls.map(([, type]) => type)).toEqual(['lead.created']);
    } finally {
      notify.mockRestore();
    }
  });

  it("works from the owner's server with the API key and X-Visitor-Id", async () => {
    const { bot } = await ownerWithBot({ leadCapture: { fields: ['phone'] } });
    const response = await t
      .http()
      .post('/api/chat/lead')
      .set('Authorization', `Bearer ${bot.apiKey}`)
      .set('X-Visitor-Id', 'crm-visitor-42')
      .send({ botId: bot.id, phone: '555 0100 22' });
    expect(response.status).toBe(201);
    expect(response.headers['x-visitor-token']).toBeUndefined();
    const [conversation]: Array<{ visitor_id: string }> = await t.dataSource.query(
      `SELECT visitor_id FROM conversations WHERE bot_id = $1`,
      [bot.id],
    );
    expect(conversation.visitor_id).toBe('api-crm-visitor-42');
  });
});

describe('POST /api/chat/lead refuses', () => {
  const PHONE_RULE = 'Please enter a valid phone number: digits, spaces and + ( ) - ., with 6 to 20 digits.';
  // Every row has all five values: jest hands a shorter row's test a `done` callback in their place.
  const refusals: Array<[string, Record<string, unknown>, number, string, string | null]> = [
    ['an e-mail that is not one', { email: 'ann@' }, 400, 'VALIDATION_FAILED', 'Please enter a valid email address.'],
    ['an e-mail of the wrong type', { email: 42 }, 400, 'VALIDATION_FAILED', 'Email must be text.'],
    ['a phone with letters', { email: 'a@example.org', phone: '555-CALL-NOW' }, 400, 'VALIDATION_FAILED', PHONE_RULE],
    ['a phone with 5 digits', { email: 'a@example.org', phone: '+1 2345' }, 400, 'VALIDATION_FAILED', null],
    ['a phone with 21 digits', { phone: '1'.repeat(21) }, 400, 'VALIDATION_FAILED', null],
    ['a name of 101 characters', { email: 'a@example.org', name: 'n'.repeat(101) }, 400, 'VALIDATION_FAILED', null],
    [
      'a message of 2001 characters',
      { email: 'a@example.org', message: 'm'.repeat(2001) },
      400,
      'VALIDATION_FAILED',
      null,
    ],
    ['a NUL in the name', { email: 'a@example.org', name: 'Ann\u0000' }, 400, 'INVALID_CHARACTERS', null],
    ['an unknown field', { email: 'a@example.org', company: 'Acme' }, 400, 'VALIDATION_FAILED', null],
    [
      'neither e-mail nor phone',
      { name: 'Ann', message: 'Hi' },
      400,
      'VALIDATION_FAILED',
      'Please leave an e-mail address or a phone number, so we can get back to you.',
    ],
    ['blank e-mail and phone', { email: '  ', phone: '' }, 400, 'VALIDATION_FAILED', null],
    ['a botId that is not a number', { botId: 'abc', email: 'a@example.org' }, 400, 'VALIDATION_FAILED', null],
    ['an unknown bot', { botId: 987654, email: 'a@example.org' }, 404, 'BOT_NOT_FOUND', null],
  ];

  it.each(refusals)('%s, writing nothing', async (_case, body, status, code, error) => {
    const { bot } = await ownerWithBot({ leadCapture: { fields: ['name', 'email', 'phone', 'message'] } });
    const response = await lead({ botId: bot.id, ...body });
    expect(response.status).toBe(status);
    expect(response.body.code).toBe(code);
    if (error) expect(response.body.error).toBe(error);
    expect(await leadRows(bot.id)).toEqual([]);
    const conversations: unknown[] = await t.dataSource.query(`SELECT id FROM conversations WHERE bot_id = $1`, [
      bot.id,
    ]);
    expect(conversations).toEqual([]);
  });

  it('fields the form does not ask for, naming them', async () => {
    const { bot } = await ownerWithBot();
    const phone = await lead({ botId: bot.id, email: 'a@example.org', phone: '555 0100 22' });
    expect(phone.status).toBe(400);
    expect(phone.body).toEqual({ error: 'This form does not ask for a phone number.', code: 'VALIDATION_FAILED' });
    const onlyPhone = await lead({ botId: bot.id, name: 'Ann' });
    expect(onlyPhone.body.error).toBe('This form does not ask for a name.');
    expect(await leadRows(bot.id)).toEqual([]);
  });

  it('409 LEAD_CAPTURE_DISABLED when the owner turned lead capture off', async () => {
    const { bot } = await ownerWithBot({ leadCapture: { enabled: false } });
    const response = await lead({ botId: bot.id, email: 'a@example.org' });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ error: 'This chatbot does not take messages.', code: 'LEAD_CAPTURE_DISABLED' });
    expect(await leadRows(bot.id)).toEqual([]);
  });

  it("403 on another site than the bot's domain, 401 with a wrong API key", async () => {
    const { bot } = await ownerWithBot();
    const foreign = await lead({ botId: bot.id, email: 'a@example.org' }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('DOMAIN_NOT_ALLOWED');
    const wrongKey = await t
      .http()
      .post('/api/chat/lead')
      .set('Authorization', 'Bearer not-the-key')
      .send({ botId: bot.id, email: 'a@example.org' });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body.code).toBe('INVALID_API_KEY');
    expect(await leadRows(bot.id)).toEqual([]);
  });

  it(`429 after ${LEAD_RATE_LIMITS.visitorPerMinute} leads a minute from one visitor, with Retry-After`, async () => {
    const { bot } = await ownerWithBot();
    // The visitor's token holds only on the network it was issued to.
    const ip = nextAddress();
    const first = await lead({ botId: bot.id, email: 'a@example.org' }, { ip });
    const token = first.headers['x-visitor-token'];
    for (let i = 1; i < LEAD_RATE_LIMITS.visitorPerMinute; i += 1) {
      expect((await lead({ botId: bot.id, email: `a${i}@example.org` }, { token, ip })).status).toBe(201);
    }
    const limited = await lead({ botId: bot.id, email: 'z@example.org' }, { token, ip });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await leadRows(bot.id)).toHaveLength(LEAD_RATE_LIMITS.visitorPerMinute);
  });

  it(`429 after ${LEAD_RATE_LIMITS.networkPerMinute} leads a minute from one network, across bots, without tokens`, async () => {
    const ip = nextAddress();
    const bots = await Promise.all([ownerWithBot(), ownerWithBot()]);
    const statuses: number[] = [];
    for (let i = 0; i <= LEAD_RATE_LIMITS.networkPerMinute; i += 1) {
      statuses.push((await lead({ botId: bots[i % 2].bot.id, email: `n${i}@example.org` }, { ip })).status);
    }
    expect(statuses.slice(0, LEAD_RATE_LIMITS.networkPerMinute).every((s) => s === 201)).toBe(true);
    expect(statuses[LEAD_RATE_LIMITS.networkPerMinute]).toBe(429);
  });
});

/** Reads a binary body (the .xlsx) into a Buffer. */
function binary(res: request.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
  res.on('error', (error: Error) => callback(error, Buffer.alloc(0)));
}

function plain(value: unknown): unknown {
  if (value && typeof value === 'object' && 'richText' in value) {
    return (value as ExcelJS.CellRichTextValue).richText.map((run) => run.text).join('');
  }
  return value ?? null;
}

describe("the owner's leads", () => {
  async function ownerWithLead(options: BotOptions = {}) {
    const { agent, user } = await signedInAgent(t);
    const bot = await createChatBot(t, user.id, {
      allowedDomain: 'shop.example',
      leadCapture: { fields: ['name', 'email', 'message'] },
      ...options,
    });
    const left = await lead({ botId: bot.id, name: 'Ann', email: 'ann@example.org', message: 'Call me' });
    expect(left.status).toBe(201);
    return { agent, user, bot };
  }

  it('lists them newest first, filters by bot, and pages by cursor', async () => {
    const { agent, user, bot } = await ownerWithLead();
    const other = await createChatBot(t, user.id, { allowedDomain: 'shop.example', name: 'Other bot' });
    expect((await lead({ botId: other.id, email: 'bo@example.org' })).status).toBe(201);

    const all = await agent.get('/api/leads');
    expect(all.status).toBe(200);
    expect(all.body.nextCursor).toBeNull();
    expect(all.body.leads.map((l: { email: string }) => l.email)).toEqual(['bo@example.org', 'ann@example.org']);
    const [, ann] = all.body.leads;
    expect(ann).toEqual({
      id: expect.any(Number),
      botId: bot.id,
      botName: bot.name,
      name: 'Ann',
      email: 'ann@example.org',
      phone: null,
      message: 'Call me',
      conversationId: expect.any(Number),
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const conversation = await agent.get(`/api/conversations/${ann.conversationId as number}`);
    expect(conversation.status).toBe(200);

    const filtered = await agent.get('/api/leads').query({ botId: bot.id });
    expect(filtered.body.leads.map((l: { id: number }) => l.id)).toEqual([ann.id]);

    // 60 more leads of the same conversation, at one instant: pages break ties by id.
    await t.dataSource.query(
      `INSERT INTO leads (owner_id, bot_id, bot_name, conversation_id, email, created_at)
       SELECT $1, $2, 'Acme Helper', $3, 'p' || g || '@example.org', now() - interval '1 day'
         FROM generate_series(1, 60) g`,
      [user.id, bot.id, ann.conversationId],
    );
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: request.Response = await agent.get('/api/leads').query(cursor ? { cursor } : {});
      expect(page.status).toBe(200);
      seen.push(...page.body.leads.map((l: { id: number }) => l.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(62);
    expect(new Set(seen).size).toBe(62);

    const bad = await agent.get('/api/leads').query({ cursor: 'not-a-cursor' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_CURSOR');
  });

  it("404 for another owner's bot filter, lead and export; 401 without a session", async () => {
    const mine = await ownerWithLead();
    const theirs = await ownerWithLead();
    const [theirLead] = (await theirs.agent.get('/api/leads')).body.leads as Array<{ id: number }>;

    const list = await mine.agent.get('/api/leads').query({ botId: theirs.bot.id });
    expect(list.status).toBe(404);
    expect(list.body.code).toBe('BOT_NOT_FOUND');
    const exported = await mine.agent.get('/api/leads/export').query({ botId: theirs.bot.id });
    expect(exported.status).toBe(404);
    const deleted = await mine.agent.delete(`/api/leads/${theirLead.id}`).set('Origin', t.origin);
    expect(deleted.status).toBe(404);
    expect(deleted.body).toEqual({ error: 'This lead does not exist.', code: 'LEAD_NOT_FOUND' });
    expect((await theirs.agent.get('/api/leads')).body.leads).toHaveLength(1);

    expect((await t.http().get('/api/leads')).status).toBe(401);
    expect((await t.http().get('/api/leads/export')).status).toBe(401);
    expect((await t.http().delete(`/api/leads/${theirLead.id}`).set('Origin', t.origin)).status).toBe(401);
    expect((await mine.agent.get('/api/leads').query({ botId: 'x' })).status).toBe(400);
  });

  it('deletes a lead (204, then 404); its conversation stays', async () => {
    const { agent } = await ownerWithLead();
    const [one] = (await agent.get('/api/leads')).body.leads as Array<{ id: number; conversationId: number }>;
    expect((await agent.delete(`/api/leads/${one.id}`).set('Origin', t.origin)).status).toBe(204);
    expect((await agent.delete(`/api/leads/${one.id}`).set('Origin', t.origin)).status).toBe(404);
    expect((await agent.get('/api/leads')).body.leads).toEqual([]);
    expect((await agent.get(`/api/conversations/${one.conversationId}`)).status).toBe(200);
  });

  it('exports them as an .xlsx that opens with the row', async () => {
    const { agent, bot } = await ownerWithLead({ name: 'Export & <Co>' });
    const response = await agent.get('/api/leads/export').query({ botId: bot.id }).buffer(true).parse(binary);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="leads_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.xlsx"$/,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.body);
    const sheet = workbook.getWorksheet(LEADS_SHEET)!;
    const rows: unknown[][] = [];
    sheet.eachRow((row, index) => {
      const values = (row.values as unknown[]).slice(1);
      while (values.length < LEADS_COLUMNS.length) values.push(undefined);
      if (index === 1) expect(values).toEqual([...LEADS_COLUMNS]);
      else rows.push(Array.from(values, plain));
    });
    expect(rows).toHaveLength(1);
    expect(rows[0].slice(1, 6)).toEqual(['Export & <Co>', 'Ann', 'ann@example.org', null, 'Call me']);
    expect(rows[0][0]).toBeInstanceOf(Date);
  });

  it("go with their conversation, and by age with the owner's retention", async () => {
    const { agent, user, bot } = await ownerWithLead();
    const [first] = (await agent.get('/api/leads')).body.leads as Array<{ conversationId: number }>;
    expect((await agent.delete(`/api/conversations/${first.conversationId}`).set('Origin', t.origin)).status).toBe(204);
    expect(await leadRows(bot.id)).toEqual([]);

    expect((await lead({ botId: bot.id, email: 'old@example.org' })).status).toBe(201);
    expect((await lead({ botId: bot.id, email: 'new@example.org' })).status).toBe(201);
    await t.dataSource.query(`UPDATE users SET conversation_retention_days = 30 WHERE id = $1`, [user.id]);
    await t.dataSource.query(
      `UPDATE leads SET created_at = now() - interval '31 days' WHERE bot_id = $1 AND email = 'old@example.org'`,
      [bot.id],
    );
    await t.app.get(ConversationRetentionService).run(new Date());
    expect((await leadRows(bot.id)).map((r) => r.email)).toEqual(['new@example.org']);
  });
});

describe('the leadCapture setting', () => {
  it('is on by default for a new bot and for a bot that existed before the setting', async () => {
    const { agent, user } = await signedInAgent(t);
    const created = await agent.post('/api/bots').set('Origin', t.origin).send({ botName: 'Fresh' });
    expect(created.status).toBe(201);
    const fresh = await agent.get(`/api/bots/${created.body.bot.id as number}`);
    expect(fresh.body.bot.leadCapture).toEqual(LEAD_CAPTURE_DEFAULTS);

    // A row written without the column, as every bot was when the migration added it.
    const [old]: Array<{ id: number }> = await t.dataSource.query(
      `INSERT INTO bots (owner_id, name, api_key, prompt, custom_greeting, model, allowed_domain, bubble_icon,
         bubble_color, bubble_text_color, bubble_border_radius, chat_window_border_radius, banner_color,
         banner_text_color, banner_disclaimer, placeholder_text, placeholder_text_color, send_button_color,
         send_arrow_color, widget_bubble_color, assistant_bubble_color, assistant_bubble_text_color,
         widget_background_color, animation, widget_position, max_tokens, temperature, usage_limit_dollars)
       SELECT owner_id, 'Old bot', 'old-key-' || id, prompt, custom_greeting, model, allowed_domain, bubble_icon,
         bubble_color, bubble_text_color, bubble_border_radius, chat_window_border_radius, banner_color,
         banner_text_color, banner_disclaimer, placeholder_text, placeholder_text_color, send_button_color,
         send_arrow_color, widget_bubble_color, assistant_bubble_color, assistant_bubble_text_color,
         widget_background_color, animation, widget_position, max_tokens, temperature, usage_limit_dollars
         FROM bots WHERE id = $1 RETURNING id`,
      [created.body.bot.id],
    );
    expect((await agent.get(`/api/bots/${old.id}`)).body.bot.leadCapture).toEqual(LEAD_CAPTURE_DEFAULTS);
    expect(user.id).toBeGreaterThan(0);
  });

  it('is off on the house demo bot, whose mail nobody reads', async () => {
    expect((await face(1)).body.bot.leadCapture).toBeNull();
  });

  it('saves a valid setting in its stored form and shows its public part on the face', async () => {
    const { agent } = await signedInAgent(t);
    const { body } = await agent.post('/api/bots').set('Origin', t.origin).send({ botName: 'Leads' });
    const saved = await agent
      .put(`/api/bots/${body.bot.id as number}`)
      .set('Origin', t.origin)
      .send({
        leadCapture: {
          enabled: true,
          fields: ['phone', 'name', 'phone'],
          offerWhen: ['start', 'unanswered'],
          notifyEmails: [' Sales@Example.net ', 'sales@example.net'],
          thankYouText: '  Merci!  ',
        },
      });
    expect(saved.status).toBe(200);
    expect(saved.body.bot.leadCapture).toEqual({
      enabled: true,
      fields: ['name', 'phone'],
      offerWhen: ['unanswered', 'start'],
      notifyEmails: ['sales@example.net'],
      thankYouText: 'Merci!',
    });
    const shown = await face(body.bot.id as number);
    expect(shown.body.bot.leadCapture).toEqual({
      fields: ['name', 'phone'],
      offerWhen: ['unanswered', 'start'],
      thankYouText: 'Merci!',
    });
    expect(shown.text).not.toContain('sales@example.net');
  });

  const valid = { enabled: true, fields: ['email'], offerWhen: ['cap'], notifyEmails: [], thankYouText: '' };
  const invalid: Array<[string, unknown, string]> = [
    ['not an object', 'on', 'Invalid leadCapture: must be an object'],
    ['a missing field', { enabled: true }, 'Invalid leadCapture.fields: required'],
    ['an unknown field', { ...valid, extra: 1 }, 'Invalid leadCapture: unknown field extra'],
    ['enabled not a boolean', { ...valid, enabled: 'yes' }, 'Invalid leadCapture.enabled'],
    ['neither email nor phone', { ...valid, fields: ['name', 'message'] }, 'must include email or phone'],
    ['an unknown field name', { ...valid, fields: ['email', 'fax'] }, 'Invalid leadCapture.fields'],
    ['an unknown moment', { ...valid, offerWhen: ['always'] }, 'Invalid leadCapture.offerWhen'],
    [
      'six addresses',
      { ...valid, notifyEmails: ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => `${x}@example.org`) },
      'at most 5',
    ],
    ['a bad address', { ...valid, notifyEmails: ['ok@example.org', 'nope'] }, 'nope is not a valid e-mail address'],
    ['a thank-you of 201 characters', { ...valid, thankYouText: 't'.repeat(201) }, 'at most 200 characters'],
  ];
  it.each(invalid)('refuses %s with 400 naming it, saving nothing', async (_case, value, message) => {
    const { agent } = await signedInAgent(t);
    const { body } = await agent.post('/api/bots').set('Origin', t.origin).send({ botName: 'Leads' });
    const response = await agent
      .put(`/api/bots/${body.bot.id as number}`)
      .set('Origin', t.origin)
      .send({ name: 'Renamed', leadCapture: value });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(response.body.error).toContain(message);
    const after = await agent.get(`/api/bots/${body.bot.id as number}`);
    expect(after.body.bot).toMatchObject({ name: 'Leads', leadCapture: LEAD_CAPTURE_DEFAULTS });
  });
});
