import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { MailService } from '../../src/modules/mail/mail.service.js';
import { MonthlyReportService } from '../../src/modules/monthly-report/monthly-report.service.js';
import { UsersRepository } from '../../src/modules/users/users.repository.js';
import { mailsTo, type ReadMail } from '../support/account-helpers.js';
import { createChatBot } from '../support/chat-factories.js';
import { createUser, signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { itOnServer } from '../support/test-database.js';

/**
 * The monthly report mail (docs/product.md#monthly-report) and the Settings fields it reads: the
 * owner's time zone and the opt-out. The job runs with a chosen clock: 00:00:10 UTC on 3 November
 * 2026 reports the billing period 3 October .. 2 November. Rows are written directly; figures are
 * computed by hand below.
 */
let t: TestApp;
const SESSION_SECRET = 'monthly-report-spec-secret-0123456789abcdef';
const ON_THE_3RD = new Date('2026-11-03T00:00:10Z');

interface Seeded {
  at: string;
  outcome: string | null;
  question: string;
  /** The answer was flagged unanswered. */
  unanswered?: boolean;
  cents?: number;
}

let charge = 0;

/** One conversation of `botId`: the visitor's question, the bot's answer, its charge. */
async function seedConversation(ownerId: number, botId: number, c: Seeded): Promise<void> {
  const [row]: Array<{ id: number }> = await t.dataSource.query(
    `INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id, created_at, last_message_at, message_count, outcome, outcome_at)
     VALUES ($1, $2, 'Bot', $3, $4, $4::timestamptz + interval '1 minute', 2, $5::varchar,
             CASE WHEN $5::varchar IS NULL THEN NULL ELSE $4::timestamptz + interval '40 minutes' END)
     RETURNING id`,
    [ownerId, botId, `v-${Math.random()}`, c.at, c.outcome],
  );
  await t.dataSource.query(
    `INSERT INTO messages (conversation_id, owner_id, role, content, created_at, unanswered)
     VALUES ($1, $2, 'user', $3, $4, false),
            ($1, $2, 'assistant', 'An answer.', $4::timestamptz + interval '1 minute', $5)`,
    [row.id, ownerId, c.question, c.at, c.unanswered === true],
  );
  if (c.cents) {
    charge += 1;
    await t.dataSource.query(
      `INSERT INTO usage_events (owner_id, bot_id, model_tier, upstream_model, price_cents, credits_cents,
                                 billable_cents, period_start, report_identifier, created_at)
       VALUES ($1, $2, 'gpt-3.5-turbo', 'offline-demo', $3, $3, 0, '2026-10-03', $4, $5::timestamptz + interval '1 minute')`,
      [ownerId, botId, c.cents, `monthly-report-spec-${charge}`, c.at],
    );
  }
}

const RETURNS = 'How do I return an order?';
const NORWAY = 'Do you ship to Norway?';

/** Five conversations of the period (3 resolved, 2 unanswered), one before and one after it. */
const PERIOD: Seeded[] = [
  { at: '2026-10-02T23:30:00Z', outcome: 'resolved', question: 'Before the period', cents: 50 },
  { at: '2026-10-03T00:30:00Z', outcome: 'resolved', question: RETURNS, cents: 3 },
  { at: '2026-10-10T10:00:00Z', outcome: 'resolved', question: RETURNS, cents: 3 },
  { at: '2026-10-20T10:00:00Z', outcome: 'resolved', question: RETURNS, cents: 3 },
  { at: '2026-10-25T10:00:00Z', outcome: 'unanswered', question: NORWAY, unanswered: true, cents: 0 },
  { at: '2026-11-02T23:00:00Z', outcome: 'unanswered', question: NORWAY, unanswered: true, cents: 0 },
  { at: '2026-11-03T00:00:05Z', outcome: null, question: 'After the period', cents: 50 },
];

async function ownerWithPeriod(options: { name?: string } = {}) {
  const owner = await createUser(t);
  const bot = await createChatBot(t, owner.id, { name: options.name ?? 'Shop helper' });
  for (const c of PERIOD) await seedConversation(owner.id, bot.id, c);
  return { owner, bot };
}

async function reportsTo(app: TestApp, email: string): Promise<ReadMail[]> {
  return (await mailsTo(app, email)).filter((m) => m.subject.startsWith('Your Botsmith report'));
}

async function claims(ownerId: number): Promise<Array<{ period_start: string; status: string }>> {
  return t.dataSource.query(
    `SELECT to_char(period_start, 'YYYY-MM-DD') AS period_start, status FROM monthly_reports WHERE user_id = $1`,
    [ownerId],
  );
}

beforeAll(async () => {
  t = await startTestApp({ SESSION_SECRET });
});
afterAll(() => t.close());

describe('time zone and monthly report settings', () => {
  it('round-trip through GET and PUT /api/user/settings, the zone spelled as Intl spells it', async () => {
    const { agent } = await signedInAgent(t);
    const fresh = await agent.get('/api/user/settings');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ timeZone: null, monthlyReport: true });

    const saved = await agent
      .put('/api/user/settings')
      .set('Origin', t.origin)
      .send({ timeZone: 'europe/paris', monthlyReport: false });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ timeZone: 'Europe/Paris', monthlyReport: false, spendAlertDollars: 20 });
    expect((await agent.get('/api/user/settings')).body).toMatchObject({
      timeZone: 'Europe/Paris',
      monthlyReport: false,
    });

    // Only the fields sent change; null goes back to the browser's zone.
    const back = await agent.put('/api/user/settings').set('Origin', t.origin).send({ timeZone: null });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ timeZone: null, monthlyReport: false });
  });

  it.each([
    ['Mars/Olympus_Mons'],
    ['+01:00'],
    ['Europe/Paris; DROP TABLE users'],
    ['a'.repeat(65)],
    [42],
    [['Europe/Paris']],
    [''],
  ])('refuses the time zone %j with 400 and the same message', async (timeZone) => {
    const { agent } = await signedInAgent(t);
    const response = await agent.put('/api/user/settings').set('Origin', t.origin).send({ timeZone });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 'VALIDATION_FAILED',
      error: "Invalid timeZone: must be an IANA time zone such as Europe/Berlin, or null for the browser's.",
    });
    expect((await agent.get('/api/user/settings')).body.timeZone).toBeNull();
  });

  it("refuses with 400 a zone Intl knows but the database's zone list does not", async () => {
    const { agent } = await signedInAgent(t);
    const check = jest
      .spyOn(t.app.get(UsersRepository), 'checkTimeZone')
      .mockRejectedValueOnce(
        Object.assign(new Error('time zone "America/Ciudad_Juarez" not recognized'), { code: '22023' }),
      );
    try {
      const response = await agent
        .put('/api/user/settings')
        .set('Origin', t.origin)
        .send({ timeZone: 'America/Ciudad_Juarez' });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe(
        "Invalid timeZone: must be an IANA time zone such as Europe/Berlin, or null for the browser's.",
      );
    } finally {
      check.mockRestore();
    }
    expect((await agent.get('/api/user/settings')).body.timeZone).toBeNull();
  });

  it('refuses a monthlyReport that is not true or false', async () => {
    const { agent } = await signedInAgent(t);
    const response = await agent.put('/api/user/settings').set('Origin', t.origin).send({ monthlyReport: 'yes' });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Invalid monthlyReport: must be true or false.');
  });
});

describe('the monthly report', () => {
  it("mails last period's figures, top topics and unanswered questions once, on the 3rd", async () => {
    const { owner, bot } = await ownerWithPeriod();
    const reports = t.app.get(MonthlyReportService);
    const first = await reports.run(ON_THE_3RD);
    expect(first).toMatchObject({ periodStart: '2026-10-03', failed: 0 });
    expect(first.sent).toBeGreaterThanOrEqual(1);

    const mails = await reportsTo(t, owner.email);
    expect(mails.map((m) => m.subject)).toEqual(['Your Botsmith report: 5 conversations from October 3 to November 2']);
    const lines = mails[0].text.split('\n');
    // 5 conversations in the period, 3 of the 5 decided resolved (60 %); 9 cents / 3 resolved = 3 cents.
    expect(lines).toEqual(
      expect.arrayContaining([
        'Conversations: 5',
        'Resolution rate: 60%',
        'Cost per resolved conversation: $0.03',
        '1. How do I return an order? (3 conversations)',
        '2. Do you ship to Norway? (2 conversations)',
        '1. "Do you ship to Norway?", asked 2 times (Shop helper)',
        `   Answer it: ${t.origin}/dashboard/conversations?view=questions&botId=${bot.id}`,
        `${t.origin}/dashboard/insights`,
      ]),
    );
    expect(mails[0].text).toContain('days in UTC time');
    expect(mails[0].text).toContain(`turn off the monthly report in Settings: ${t.origin}/dashboard?settings=account`);
    expect(await claims(owner.id)).toEqual([{ period_start: '2026-10-03', status: 'sent' }]);

    // Later runs of the period (every hour, any instance) send nothing more.
    await reports.run(ON_THE_3RD);
    await reports.run(new Date('2026-11-20T12:00:10Z'));
    expect(await reportsTo(t, owner.email)).toHaveLength(1);
  });

  it('sends nothing to an owner who opted out, one with no conversation last period, or an unverified address', async () => {
    const { agent, user: optedOut } = await signedInAgent(t);
    const optedOutBot = await createChatBot(t, optedOut.id);
    for (const c of PERIOD) await seedConversation(optedOut.id, optedOutBot.id, c);
    const off = await agent.put('/api/user/settings').set('Origin', t.origin).send({ monthlyReport: false });
    expect(off.status).toBe(200);

    const quiet = await createUser(t);
    const quietBot = await createChatBot(t, quiet.id);
    await seedConversation(quiet.id, quietBot.id, PERIOD[0]);
    await seedConversation(quiet.id, quietBot.id, PERIOD[6]);

    const unverified = await createUser(t, { verified: false });
    const unverifiedBot = await createChatBot(t, unverified.id);
    await seedConversation(unverified.id, unverifiedBot.id, PERIOD[2]);

    await t.app.get(MonthlyReportService).run(ON_THE_3RD);
    expect(await reportsTo(t, optedOut.email)).toEqual([]);
    expect(await reportsTo(t, quiet.email)).toEqual([]);
    expect(await reportsTo(t, unverified.email)).toEqual([]);
    expect(await claims(optedOut.id)).toEqual([]);
    expect(await claims(unverified.id)).toEqual([]);
    // The quiet owner's window is widened by the time zones: found, looked at once, marked empty.
    expect(await claims(quiet.id)).toEqual([{ period_start: '2026-10-03', status: 'skipped' }]);
  });

  it("waits for the period to end in the owner's time zone and reports its days there", async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id);
    await t.dataSource.query(`UPDATE users SET time_zone = 'America/New_York' WHERE id = $1`, [owner.id]);
    // 2 November 21:00 in New York: inside its period, though 3 November in UTC.
    await seedConversation(owner.id, bot.id, { at: '2026-11-03T02:00:00Z', outcome: 'resolved', question: RETURNS });
    // 2 October 22:00 in New York: before its period, though 3 October in UTC.
    await seedConversation(owner.id, bot.id, { at: '2026-10-03T02:00:00Z', outcome: 'resolved', question: RETURNS });

    const reports = t.app.get(MonthlyReportService);
    // 19:00 on 2 November in New York: the period is not over there.
    expect((await reports.run(ON_THE_3RD)).waiting).toBeGreaterThanOrEqual(1);
    expect(await reportsTo(t, owner.email)).toEqual([]);
    expect(await claims(owner.id)).toEqual([]);

    await reports.run(new Date('2026-11-03T05:00:10Z'));
    const mails = await reportsTo(t, owner.email);
    expect(mails.map((m) => m.subject)).toEqual(['Your Botsmith report: 1 conversation from October 3 to November 2']);
    expect(mails[0].text).toContain('days in America/New_York time');
  });

  it('releases the claim when the mail fails, so the next run sends it', async () => {
    const { owner } = await ownerWithPeriod();
    const mail = t.app.get(MailService);
    const send = jest.spyOn(mail, 'sendMonthlyReport').mockRejectedValueOnce(new Error('the mail server went away'));
    try {
      const run = await t.app.get(MonthlyReportService).run(ON_THE_3RD);
      expect(run.failed).toBe(1);
      expect(await claims(owner.id)).toEqual([]);
      expect(await reportsTo(t, owner.email)).toEqual([]);
    } finally {
      send.mockRestore();
    }
    await t.app.get(MonthlyReportService).run(ON_THE_3RD);
    expect(await reportsTo(t, owner.email)).toHaveLength(1);
    expect(await claims(owner.id)).toEqual([{ period_start: '2026-10-03', status: 'sent' }]);
  });

  it('takes over a claim left unsent by an instance that stopped mid-send, after an hour', async () => {
    const { owner } = await ownerWithPeriod();
    await t.dataSource.query(
      `INSERT INTO monthly_reports (user_id, period_start, claimed_at) VALUES ($1, '2026-10-03', now() - interval '10 minutes')`,
      [owner.id],
    );
    await t.app.get(MonthlyReportService).run(ON_THE_3RD);
    expect(await reportsTo(t, owner.email)).toEqual([]);
    await t.dataSource.query(
      `UPDATE monthly_reports SET claimed_at = now() - interval '61 minutes' WHERE user_id = $1`,
      [owner.id],
    );
    await t.app.get(MonthlyReportService).run(ON_THE_3RD);
    expect(await reportsTo(t, owner.email)).toHaveLength(1);
  });

  it('sends one report when runs of the period overlap', async () => {
    const { owner } = await ownerWithPeriod();
    const reports = t.app.get(MonthlyReportService);
    await Promise.all(Array.from({ length: 4 }, () => reports.run(ON_THE_3RD)));
    expect(await reportsTo(t, owner.email)).toHaveLength(1);
  });
});

// Last: a second app on the same database registers its own passport strategies (a process-wide
// singleton), so logins in this file must happen before it starts and closes.
describe('across instances', () => {
  itOnServer('sends one report per account with two instances running the job', async () => {
    const second = await startTestApp({ DATABASE_URL: t.database.url, SESSION_SECRET });
    try {
      const owners = [await ownerWithPeriod(), await ownerWithPeriod(), await ownerWithPeriod()];
      await Promise.all([
        t.app.get(MonthlyReportService).run(ON_THE_3RD),
        second.app.get(MonthlyReportService).run(ON_THE_3RD),
        t.app.get(MonthlyReportService).run(ON_THE_3RD),
        second.app.get(MonthlyReportService).run(ON_THE_3RD),
      ]);
      for (const { owner } of owners) {
        const mails = [...(await reportsTo(t, owner.email)), ...(await reportsTo(second, owner.email))];
        expect(mails.map((m) => m.subject)).toEqual([
          'Your Botsmith report: 5 conversations from October 3 to November 2',
        ]);
        expect(await claims(owner.id)).toEqual([{ period_start: '2026-10-03', status: 'sent' }]);
      }
    } finally {
      await second.close();
    }
  });
});
