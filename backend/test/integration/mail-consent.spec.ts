import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEAD_CAPTURE_DEFAULTS } from '@botsmith/contract';
import { OwnerRepliesService } from '../../src/modules/conversations/owner-replies.service.js';
import { LeadNoticesService } from '../../src/modules/mail-consent/lead-notices.service.js';
import { mailsTo, outboxMails, type ReadMail } from '../support/account-helpers.js';
import { createChatBot } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Mail only to people who asked for it (docs/product.md#mail-consent), through the real app on a
 * real database, reading the outbox: lead addresses confirm before any lead reaches them, a
 * visitor's address confirms before an owner's reply does, the account's daily mail limit holds
 * (leads and replies stay in the inbox), and lead notices past five in ten minutes become a digest.
 */
const DAILY_LIMIT = 10;
const SITE = 'https://shop.example';
const CONFIRM_LINK = /http:\/\/localhost:3000\/api\/mail\/confirm\/[A-Za-z0-9_-]{43}/;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    OFFLINE_MODEL_WORD_DELAY_MS: '0',
    MAIL_DAILY_LIMIT_PER_ACCOUNT: String(DAILY_LIMIT),
    LEAD_DIGEST_POLL_MS: '0',
    WEBHOOK_POLL_MS: '0',
  });
});
afterAll(() => t.close());

let addresses = 0;
function nextAddress(): string {
  addresses += 1;
  return `198.51.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
}

/** A lead from a new widget visitor on the bot's site. */
function lead(botId: number, body: Record<string, unknown>) {
  return t
    .http()
    .post('/api/chat/lead')
    .set('Origin', SITE)
    .set('X-Page-Url', `${SITE}/contact`)
    .set('X-Forwarded-For', nextAddress())
    .send({ botId, ...body });
}

function linkOf(mail: ReadMail): string {
  const link = mail.text.match(CONFIRM_LINK)?.[0];
  if (!link) throw new Error(`No confirmation link in "${mail.subject}"`);
  return link;
}

/** The path of a confirmation link (the test app is not served at PUBLIC_URL). */
function pathOf(link: string): string {
  return new URL(link).pathname;
}

function openLink(link: string, accept = 'text/html') {
  return t.http().get(pathOf(link)).set('Accept', accept);
}

function confirmLink(link: string) {
  return t.http().post(pathOf(link)).set('Origin', t.origin).set('Accept', 'text/html').type('form').send('');
}

async function leadCount(botId: number): Promise<number> {
  const [{ n }]: Array<{ n: number }> = await t.dataSource.query(
    `SELECT count(*)::int AS n FROM leads WHERE bot_id = $1`,
    [botId],
  );
  return n;
}

describe("a bot's lead addresses", () => {
  const strangers = [
    'ann@victim.example',
    'bob@victim.example',
    'cy@victim.example',
    'di@victim.example',
    'ed@victim.example',
  ];

  it('get only a fixed-text confirmation until they confirm; the lead goes to the owner meanwhile', async () => {
    const { agent: owner, user } = await signedInAgent(t);
    const other = (await signedInAgent(t)).agent;
    const created = await owner.post('/api/bots').set('Origin', t.origin).send({ botName: 'Phish Helper' });
    expect(created.status).toBe(201);
    const botId = created.body.bot.id as number;
    const saved = await owner
      .put(`/api/bots/${botId}`)
      .set('Origin', t.origin)
      .send({ leadCapture: { ...LEAD_CAPTURE_DEFAULTS, fields: ['email', 'message'], notifyEmails: strangers } });
    expect(saved.status).toBe(200);

    // Each stranger: one confirmation request, with nothing the owner typed in it.
    for (const address of strangers) {
      const mails = await mailsTo(t, address);
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe('Confirm that you want to receive leads from Botsmith');
      expect(mails[0].text).not.toContain('Phish Helper');
      expect(mails[0].text).toMatch(CONFIRM_LINK);
    }
    expect(await mailsTo(t, user.email)).toHaveLength(0);
    const statuses = await owner.get(`/api/bots/${botId}/notify-emails`);
    expect(statuses.status).toBe(200);
    expect(statuses.body.addresses).toEqual([
      ...strangers.map((email) => ({ email, state: 'pending', confirmationSentAt: expect.any(String) })),
    ]);
    expect((await other.get(`/api/bots/${botId}/notify-emails`)).status).toBe(404);

    // The attack: an anonymous lead carrying a phishing text.
    const phishing = 'Your account is locked, log in at https://phish.example';
    expect((await lead(botId, { email: 'anon@x.example', message: phishing })).status).toBe(201);
    expect(await leadCount(botId)).toBe(1);
    for (const address of strangers) {
      const mails = await mailsTo(t, address);
      expect(mails).toHaveLength(1);
      expect(mails.some((m) => m.text.includes(phishing))).toBe(false);
    }
    // While no listed address is confirmed, the lead goes to the owner's account address.
    const ownerMails = await mailsTo(t, user.email);
    expect(ownerMails.map((m) => m.subject)).toEqual(['New lead from Phish Helper: anon@x.example']);
  });

  it('confirm through the link (opening it alone confirms nothing), then get the leads; resend is bounded', async () => {
    const { agent: owner, user } = await signedInAgent(t);
    const bot = await createChatBot(t, user.id, { allowedDomain: 'shop.example', name: 'Desk Helper' });
    const addressesOfBot = ['sales@partner.example', 'boss@partner.example', user.email];
    const saved = await owner
      .put(`/api/bots/${bot.id}`)
      .set('Origin', t.origin)
      .send({ leadCapture: { ...LEAD_CAPTURE_DEFAULTS, notifyEmails: addressesOfBot } });
    expect(saved.status).toBe(200);
    const [request] = await mailsTo(t, 'sales@partner.example');
    const link = linkOf(request);

    // A mail scanner opening the link: a page that asks, no confirmation.
    const opened = await openLink(link);
    expect(opened.status).toBe(200);
    expect(opened.headers['content-type']).toMatch(/^text\/html/);
    expect(opened.text).toContain('<form method="post">');
    const pending = await owner.get(`/api/bots/${bot.id}/notify-emails`);
    expect(pending.body.addresses.map((a: { state: string }) => a.state)).toEqual(['pending', 'pending', 'account']);
    // The account's own address needs no confirmation.
    expect(await mailsTo(t, user.email)).toHaveLength(0);

    const confirmed = await confirmLink(link);
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('Confirmed: sales@partner.example now receives the leads of this chatbot.');
    expect((await confirmLink(link)).status).toBe(200);
    const after = await owner.get(`/api/bots/${bot.id}/notify-emails`);
    expect(after.body.addresses.map((a: { state: string }) => a.state)).toEqual(['confirmed', 'pending', 'account']);

    expect((await lead(bot.id, { email: 'carla@client.example' })).status).toBe(201);
    expect((await mailsTo(t, 'sales@partner.example')).map((m) => m.subject)).toEqual([
      'Confirm that you want to receive leads from Botsmith',
      'New lead from Desk Helper: carla@client.example',
    ]);
    expect(await mailsTo(t, 'boss@partner.example')).toHaveLength(1);
    expect((await mailsTo(t, user.email)).map((m) => m.subject)).toEqual([
      'New lead from Desk Helper: carla@client.example',
    ]);

    const resend = (email: string) =>
      owner.post(`/api/bots/${bot.id}/notify-emails/resend`).set('Origin', t.origin).send({ email });
    const tooSoon = await resend('boss@partner.example');
    expect([tooSoon.status, tooSoon.body.code]).toEqual([429, 'CONFIRMATION_RECENTLY_SENT']);
    expect(tooSoon.body.error).toBe(
      'A confirmation was sent to this address less than 10 minutes ago. Please wait before sending another.',
    );
    const notPending = await resend('sales@partner.example');
    expect([notPending.status, notPending.body.code]).toEqual([409, 'NOTIFY_EMAIL_NOT_PENDING']);
    expect((await resend(user.email)).body.code).toBe('NOTIFY_EMAIL_NOT_PENDING');
    const notListed = await resend('someone@else.example');
    expect([notListed.status, notListed.body.code]).toEqual([409, 'NOTIFY_EMAIL_NOT_PENDING']);
    expect(await mailsTo(t, 'someone@else.example')).toHaveLength(0);

    const [firstRequest] = await mailsTo(t, 'boss@partner.example');
    await t.dataSource.query(
      `UPDATE mail_consents SET requested_at = now() - interval '11 minutes' WHERE email = 'boss@partner.example'`,
    );
    const again = await resend('Boss@Partner.example');
    expect(again.status).toBe(200);
    expect(again.body.addresses[1]).toMatchObject({ email: 'boss@partner.example', state: 'pending' });
    const bossMails = await mailsTo(t, 'boss@partner.example');
    expect(bossMails).toHaveLength(2);
    // The new link replaces the old one.
    const stale = await openLink(linkOf(firstRequest), 'application/json');
    expect([stale.status, stale.body]).toEqual([
      404,
      {
        error: 'This link is not valid anymore. Confirmation links work for 30 days.',
        code: 'CONFIRMATION_LINK_INVALID',
      },
    ]);
    expect((await openLink(linkOf(bossMails[1]))).status).toBe(200);

    // A third request at most, ever: a stranger's address is not asked again and again.
    const later = `UPDATE mail_consents SET requested_at = now() - interval '11 minutes' WHERE email = 'boss@partner.example'`;
    await t.dataSource.query(later);
    expect((await resend('boss@partner.example')).status).toBe(200);
    await t.dataSource.query(later);
    const spent = await resend('boss@partner.example');
    expect([spent.status, spent.body.code]).toEqual([409, 'CONFIRMATION_REQUESTS_SPENT']);
    expect(spent.body.error).toBe(
      'This address was asked 3 times and has not confirmed, so it is not asked again. Remove it, or ask its owner to look for our e-mail.',
    );
    expect(await mailsTo(t, 'boss@partner.example')).toHaveLength(3);
  });

  it('refuses unknown and malformed links with a sentence, as HTML for a browser', async () => {
    const unknown = await t.http().get(`/api/mail/confirm/${'a'.repeat(43)}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'CONFIRMATION_LINK_INVALID']);
    const posted = await t.http().post('/api/mail/confirm/nope').set('Origin', t.origin).send({});
    expect([posted.status, posted.body.code]).toEqual([404, 'CONFIRMATION_LINK_INVALID']);
    const page = await t.http().get('/api/mail/confirm/%3Cscript%3E').set('Accept', 'text/html');
    expect(page.status).toBe(404);
    expect(page.text).toContain('This link is not valid anymore.');
    expect(page.text).not.toContain('<script>');
    const foreign = await t
      .http()
      .post(`/api/mail/confirm/${'a'.repeat(43)}`)
      .set('Origin', 'https://evil.example')
      .send({});
    expect([foreign.status, foreign.body.code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
  });
});

describe("an owner's reply to a visitor's address", () => {
  it('sends only the fixed-text notice until the link confirms; the link shows the replies; later replies go out directly', async () => {
    const { agent: owner, user } = await signedInAgent(t);
    const bot = await createChatBot(t, user.id, { allowedDomain: 'shop.example', name: 'Acme Helper' });
    const target = 'ceo@target-company.example';
    // The attack: a lead sent with the bot's API key, naming someone else's address.
    const left = await t
      .http()
      .post('/api/chat/lead')
      .set('Authorization', `Bearer ${bot.apiKey}`)
      .set('X-Visitor-Id', 'crm-1')
      .send({ botId: bot.id, email: target });
    expect(left.status).toBe(201);
    const [{ conversation_id: conversationId }]: Array<{ conversation_id: number }> = await t.dataSource.query(
      `SELECT conversation_id FROM leads WHERE bot_id = $1`,
      [bot.id],
    );
    const reply = async (content: string) => {
      const sent = await owner
        .post(`/api/conversations/${conversationId}/reply`)
        .set('Origin', t.origin)
        .send({ content });
      expect(sent.status).toBe(201);
      await t.app.get(OwnerRepliesService).settled();
    };
    const ownerText = 'Wire the invoice to <b>IBAN XX00</b> today';
    await reply(ownerText);
    await reply('Second reply, still unconfirmed');

    const notices = await mailsTo(t, target);
    expect(notices).toHaveLength(1);
    expect(notices[0].subject).toBe('Acme Helper replied to your message on shop.example');
    expect(notices[0].text).toContain('Acme Helper replied to your message on shop.example \u2014 see the reply');
    for (const part of [notices[0].text, notices[0].html, notices[0].subject]) {
      expect(part).not.toContain('IBAN');
      expect(part).not.toContain('Second reply');
    }

    const link = linkOf(notices[0]);
    const opened = await openLink(link);
    expect(opened.status).toBe(200);
    expect(opened.text).not.toContain('IBAN');
    expect(opened.text).toContain('See the reply');

    const shown = await confirmLink(link);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Wire the invoice to &lt;b&gt;IBAN XX00&lt;/b&gt; today');
    expect(shown.text).not.toContain('<b>IBAN');
    expect(shown.text).toContain('Second reply, still unconfirmed');
    // Confirmed: the link shows the replies again.
    expect((await openLink(link)).text).toContain('Second reply, still unconfirmed');

    await reply('Third reply, after the confirmation');
    const mails = await mailsTo(t, target);
    expect(mails).toHaveLength(2);
    expect(mails[1].subject).toBe('Support replied to your message');
    expect(mails[1].text).toContain('Third reply, after the confirmation');

    // The confirmation holds for that conversation only: another one asks again.
    const second = await lead(bot.id, { email: target });
    expect(second.status).toBe(201);
    const [{ conversation_id: otherConversation }]: Array<{ conversation_id: number }> = await t.dataSource.query(
      `SELECT conversation_id FROM leads WHERE bot_id = $1 ORDER BY id DESC LIMIT 1`,
      [bot.id],
    );
    const sent = await owner
      .post(`/api/conversations/${otherConversation}/reply`)
      .set('Origin', t.origin)
      .send({ content: 'Private: the discount code is X1' });
    expect(sent.status).toBe(201);
    await t.app.get(OwnerRepliesService).settled();
    const latest = (await mailsTo(t, target)).at(-1)!;
    expect(latest.subject).toBe('Acme Helper replied to your message on shop.example');
    expect(latest.text).not.toContain('discount');
  });
});

describe('the daily mail limit of an account', () => {
  it('holds past MAIL_DAILY_LIMIT_PER_ACCOUNT; leads and replies stay in the inbox and the dashboard is told', async () => {
    const { agent: owner, user } = await signedInAgent(t);
    const usage = async () => (await owner.get('/api/mail/usage')).body as Record<string, unknown>;
    expect(await usage()).toEqual({ sentToday: 0, dailyLimit: DAILY_LIMIT, limitReached: false });
    const bot = await createChatBot(t, user.id, { allowedDomain: 'shop.example', name: 'Capped Helper' });
    for (let i = 0; i < DAILY_LIMIT + 2; i += 1) {
      expect((await lead(bot.id, { email: `visitor${i}@client.example` })).status).toBe(201);
      // Ten minutes later for the window, so each lead is a single notice (the digest is tested below).
      await t.dataSource.query(
        `UPDATE lead_notice_windows SET window_start = window_start - interval '11 minutes' WHERE owner_id = $1`,
        [user.id],
      );
    }
    const mails = (await mailsTo(t, user.email)).filter((m) => m.subject.startsWith('New lead'));
    expect(mails).toHaveLength(DAILY_LIMIT);
    expect(await usage()).toEqual({ sentToday: DAILY_LIMIT, dailyLimit: DAILY_LIMIT, limitReached: true });
    // Nothing lost: every lead is in the owner's list.
    const listed = await owner.get('/api/leads');
    expect(listed.status).toBe(200);
    expect(listed.body.leads).toHaveLength(DAILY_LIMIT + 2);

    // A reply past the limit: saved and shown in the inbox, no mail.
    const conversationId = listed.body.leads[0].conversationId as number;
    const before = (await outboxMails(t)).length;
    const replied = await owner
      .post(`/api/conversations/${conversationId}/reply`)
      .set('Origin', t.origin)
      .send({ content: 'We will call you.' });
    expect(replied.status).toBe(201);
    await t.app.get(OwnerRepliesService).settled();
    expect((await outboxMails(t)).length).toBe(before);
    const transcript = await owner.get(`/api/conversations/${conversationId}`);
    expect(JSON.stringify(transcript.body)).toContain('We will call you.');
    // The visitor's notice was not spent: a reply tomorrow asks for the confirmation then.
    const [{ n }]: Array<{ n: number }> = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM mail_consents WHERE conversation_id = $1 AND requested_at IS NOT NULL`,
      [conversationId],
    );
    expect(n).toBe(0);

    // A lead address added now is asked tomorrow: a resend says when, like every daily limit.
    const saved = await owner
      .put(`/api/bots/${bot.id}`)
      .set('Origin', t.origin)
      .send({ leadCapture: { ...LEAD_CAPTURE_DEFAULTS, notifyEmails: ['late@partner.example'] } });
    expect(saved.status).toBe(200);
    expect(await mailsTo(t, 'late@partner.example')).toHaveLength(0);
    const resent = await owner
      .post(`/api/bots/${bot.id}/notify-emails/resend`)
      .set('Origin', t.origin)
      .send({ email: 'late@partner.example' });
    expect([resent.status, resent.body.code]).toEqual([429, 'MAIL_DAILY_LIMIT']);
    expect(Number(resent.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(resent.headers['retry-after'])).toBeLessThanOrEqual(86_400);
  });
});

describe('lead notices to one address', () => {
  it('go one by one up to five in ten minutes, then as one digest at the end of the window, sent once', async () => {
    const { user } = await signedInAgent(t);
    const bot = await createChatBot(t, user.id, { allowedDomain: 'shop.example', name: 'Busy Helper' });
    for (let i = 1; i <= 7; i += 1) {
      expect((await lead(bot.id, { email: `lead${i}@client.example` })).status).toBe(201);
    }
    const singles = await mailsTo(t, user.email);
    expect(singles.map((m) => m.subject)).toEqual(
      [1, 2, 3, 4, 5].map((i) => `New lead from Busy Helper: lead${i}@client.example`),
    );

    const notices = t.app.get(LeadNoticesService);
    expect(await notices.sendDueDigests(new Date())).toBe(0);
    const windowEnd = new Date(Date.now() + 10 * 60_000 + 1000);
    // Two instances at once: the digest goes out once.
    const sent = await Promise.all([notices.sendDueDigests(windowEnd), notices.sendDueDigests(windowEnd)]);
    expect(sent[0] + sent[1]).toBe(1);
    expect(await notices.sendDueDigests(windowEnd)).toBe(0);

    const all = await mailsTo(t, user.email);
    expect(all).toHaveLength(6);
    const digest = all[5];
    expect(digest.subject).toBe('2 more leads in the last 10 minutes');
    expect(digest.text).toContain('lead6@client.example');
    expect(digest.text).toContain('lead7@client.example');
    expect(digest.text).not.toContain('lead5@client.example');
    expect(await leadCount(bot.id)).toBe(7);
  });
});

describe("the reply page's link back to the chat", () => {
  it("opens the conversation's page with the widget open on it, only once confirmed, carrying no token", async () => {
    const { agent: owner, user } = await signedInAgent(t);
    const bot = await createChatBot(t, user.id, { allowedDomain: 'shop.example', name: 'Link Helper' });
    const visitor = 'visitor@buyer.example';
    const left = await lead(bot.id, { email: visitor });
    expect(left.status).toBe(201);
    const visitorToken = left.headers['x-visitor-token'];
    expect(visitorToken).toBeTruthy();
    const [{ conversation_id: conversationId }]: Array<{ conversation_id: number }> = await t.dataSource.query(
      `SELECT conversation_id FROM leads WHERE bot_id = $1`,
      [bot.id],
    );
    const sent = await owner
      .post(`/api/conversations/${conversationId}/reply`)
      .set('Origin', t.origin)
      .send({ content: 'Yes, we ship to Norway.' });
    expect(sent.status).toBe(201);
    await t.app.get(OwnerRepliesService).settled();
    const link = linkOf((await mailsTo(t, visitor))[0]);
    const chatLink = `${SITE}/contact#botsmith-chat=${bot.id}`;

    // Before confirming, the page shows neither the reply nor the way to the chat.
    const asked = await openLink(link);
    expect(asked.status).toBe(200);
    expect(asked.text).not.toContain('botsmith-chat');
    expect(asked.text).not.toContain('Norway');

    const shown = await confirmLink(link);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Yes, we ship to Norway.');
    expect(shown.text).toContain(`href="${chatLink}"`);
    expect(shown.text).toContain('Continue the chat on shop.example');
    // The link names the bot only: the visitor's own browser (its token) decides what it shows.
    const hrefs = [...shown.text.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual([chatLink]);
    expect(shown.text).not.toContain(visitorToken);
    expect(shown.text).not.toContain(String(conversationId) + '"');
    expect(shown.text).not.toContain(new URL(link).pathname.split('/').pop()!);

    // Confirmed: the next reply is mailed directly, with the same way back to the chat.
    const later = await owner
      .post(`/api/conversations/${conversationId}/reply`)
      .set('Origin', t.origin)
      .send({ content: 'It left the warehouse today.' });
    expect(later.status).toBe(201);
    await t.app.get(OwnerRepliesService).settled();
    const direct = (await mailsTo(t, visitor)).at(-1)!;
    expect(direct.text).toContain('It left the warehouse today.');
    expect(direct.text).toContain(chatLink);
    expect(direct.html).toContain(`href="${chatLink}"`);
    expect(direct.text).not.toContain(visitorToken);
  });

  it('is left out when the conversation has no page (a lead sent with the API key)', async () => {
    const { agent: owner, user } = await signedInAgent(t);
    const bot = await createChatBot(t, user.id, { name: 'Api Helper' });
    const visitor = 'api-visitor@buyer.example';
    const left = await t
      .http()
      .post('/api/chat/lead')
      .set('Authorization', `Bearer ${bot.apiKey}`)
      .set('X-Visitor-Id', 'crm-9')
      .send({ botId: bot.id, email: visitor });
    expect(left.status).toBe(201);
    const [{ conversation_id: conversationId }]: Array<{ conversation_id: number }> = await t.dataSource.query(
      `SELECT conversation_id FROM leads WHERE bot_id = $1`,
      [bot.id],
    );
    const sent = await owner
      .post(`/api/conversations/${conversationId}/reply`)
      .set('Origin', t.origin)
      .send({ content: 'Thanks for asking.' });
    expect(sent.status).toBe(201);
    await t.app.get(OwnerRepliesService).settled();
    const shown = await confirmLink(linkOf((await mailsTo(t, visitor))[0]));
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Thanks for asking.');
    expect(shown.text).not.toContain('href=');
    expect(shown.text).toContain('To answer, go back to the chat on the website where you wrote.');
  });
});
