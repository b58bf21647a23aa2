import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import ExcelJS from 'exceljs';
import type request from 'supertest';
import { LOGS_EXPORT_BATCH_ROWS } from '../../src/common/constants.js';
import { LOG_COLUMNS, SUMMARY_COLUMNS } from '../../src/modules/usage/logs-export.service.js';
import { UsageClock } from '../../src/modules/usage/usage-clock.js';
import { createUser, signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  insertBot,
  insertConversation,
  insertMessage,
  insertUsageEvent,
  type LoggedMessage,
} from '../support/usage-factories.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  jest.restoreAllMocks();
});

/** Pins the running app's usage clock. */
function setNow(iso: string): void {
  jest.spyOn(t.app.get(UsageClock), 'now').mockReturnValue(new Date(iso));
}

/** Reads a binary body (the .xlsx) into a Buffer. */
function binary(res: request.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
  res.on('error', (error: Error) => callback(error, Buffer.alloc(0)));
}

async function downloadWorkbook(agent: request.Agent) {
  const res = await agent.get('/api/user/logs/download').buffer(true).parse(binary);
  expect(res.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.body);
  return { res, workbook };
}

/** A sheet's rows below the header, as plain arrays of cell values. */
function sheetRows(workbook: ExcelJS.Workbook, name: string): unknown[][] {
  const sheet = workbook.getWorksheet(name);
  if (!sheet) throw new Error(`no sheet ${name}`);
  const rows: unknown[][] = [];
  sheet.eachRow((row, index) => {
    if (index === 1) return;
    rows.push((row.values as unknown[]).slice(1).map(plain));
  });
  return rows;
}

/** Text cells are inline rich text (see inlineText): compare them as the text a person sees. */
function plain(value: unknown): unknown {
  if (value && typeof value === 'object' && 'richText' in value) {
    return (value as ExcelJS.CellRichTextValue).richText.map((run) => run.text).join('');
  }
  return value;
}

function header(workbook: ExcelJS.Workbook, name: string): unknown[] {
  return (workbook.getWorksheet(name)!.getRow(1).values as unknown[]).slice(1);
}

/**
 * A ledger over two billing periods and more than 10 days, seen at 2026-11-05 15:00 UTC: the
 * 10-day history (2026-10-27 .. 2026-11-05) crosses the reset of 2026-11-03 00:00 UTC.
 */
describe('usage figures on a seeded ledger', () => {
  const NOW = '2026-11-05T15:00:00.000Z';
  let agent: request.Agent;
  let ownerId: number;
  let creditsCents: number;
  let botA1: number;
  let botA2: number;
  let otherBot: number;

  beforeAll(async () => {
    const signedIn = await signedInAgent(t, { creditsCents: 137 });
    agent = signedIn.agent;
    ownerId = signedIn.user.id;
    creditsCents = signedIn.user.creditsCents;
    botA1 = await insertBot(t, ownerId, { name: 'Support', usageLimitDollars: 7 });
    botA2 = await insertBot(t, ownerId, { name: 'Sales' });
    const doomed = await insertBot(t, ownerId, { name: 'Old bot' });
    const other = await createUser(t);
    otherBot = await insertBot(t, other.id, { name: 'Not yours' });

    const rows: Array<[number | null, number, number, string]> = [
      // bot, price cents, tokens, time
      [botA1, 5, 100, '2026-10-20T12:00:00Z'], // previous period, before the history
      [botA1, 4, 20, '2026-10-26T23:59:59.999999Z'], // last instant before the history's first day
      [botA1, 3, 10, '2026-10-27T00:00:00Z'], // first instant of the history
      [botA2, 4, 25, '2026-10-31T10:00:00Z'],
      [botA1, 5, 30, '2026-11-02T23:59:59.999999Z'], // last instant of the previous period
      [botA1, 3, 40, '2026-11-03T00:00:00Z'], // the reset: first instant of the current period
      [botA2, 5, 15, '2026-11-03T05:00:00Z'],
      [doomed, 5, 35, '2026-11-04T08:00:00Z'], // its bot is deleted below
      [botA1, 4, 50, '2026-11-04T23:59:59.999999Z'], // day boundary
      [botA1, 5, 60, '2026-11-05T00:00:00Z'],
      [botA1, 3, 70, '2026-11-05T14:59:00Z'],
    ];
    for (const [botId, priceCents, totalTokens, at] of rows) {
      await insertUsageEvent(t, { ownerId, botId, priceCents, totalTokens, at });
    }
    // Another owner's busy bot on the same days: must never show up in this owner's figures.
    for (const at of ['2026-10-27T00:00:00Z', '2026-11-03T00:00:00Z', '2026-11-04T12:00:00Z', '2026-11-05T01:00:00Z']) {
      await insertUsageEvent(t, { ownerId: other.id, botId: otherBot, priceCents: 400, totalTokens: 9000, at });
    }
    // Deleting a bot keeps its ledger rows (bot_id becomes null): they still count for the owner.
    await t.dataSource.query(`DELETE FROM bots WHERE id = $1`, [doomed]);
  });

  it('sums the current period (from the 3rd, 00:00 UTC) over all bots, deleted ones included', async () => {
    setNow(NOW);
    const res = await agent.get('/api/user/usage');
    expect(res.status).toBe(200);
    // 3 + 5 + 5 + 4 + 5 + 3 from 2026-11-03 00:00 on.
    expect(res.body).toEqual({
      usageCents: 25,
      monthlyUsageCents: 25,
      creditsCents,
      logsAvailable: false,
      notChargedAnswers: 0,
    });
    expect(creditsCents).toBe(137);
  });

  it('resets on the 3rd at 00:00 UTC: the instant before belongs to the previous period', async () => {
    setNow('2026-11-02T23:59:59.999Z');
    const before = await agent.get('/api/user/usage');
    // 5 + 4 + 3 + 4 + 5 from 2026-10-03 to the reset.
    expect(before.body).toMatchObject({ usageCents: 21, monthlyUsageCents: 21 });
    setNow('2026-11-03T00:00:00.000Z');
    const after = await agent.get('/api/user/usage');
    expect(after.body).toMatchObject({ usageCents: 25, monthlyUsageCents: 25 });
  });

  it('answers the last 10 UTC days, oldest first, with zeros for days without messages', async () => {
    setNow(NOW);
    const res = await agent.get('/api/user/usage-history');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      labels: [
        '2026-10-27',
        '2026-10-28',
        '2026-10-29',
        '2026-10-30',
        '2026-10-31',
        '2026-11-01',
        '2026-11-02',
        '2026-11-03',
        '2026-11-04',
        '2026-11-05',
      ],
      messageCounts: [1, 0, 0, 0, 1, 0, 1, 2, 2, 2],
      // No conversation is logged in this ledger-only seed.
      visitorMessages: Array(10).fill(0),
      tokensUsed: [10, 0, 0, 0, 25, 0, 30, 55, 85, 130],
      costs: [3, 0, 0, 0, 4, 0, 5, 8, 9, 8],
    });
  });

  it('keeps the history and the period sum in agreement to the cent', async () => {
    setNow(NOW);
    const [usage, history] = await Promise.all([agent.get('/api/user/usage'), agent.get('/api/user/usage-history')]);
    const body = history.body as { labels: string[]; costs: number[] };
    const inPeriod = body.labels.reduce((sum, day, i) => (day >= '2026-11-03' ? sum + body.costs[i] : sum), 0);
    // Every current-period message is within the last 10 days here, so the two must be equal.
    expect(inPeriod).toBe((usage.body as { usageCents: number }).usageCents);
  });

  it("answers a bot's own figures only, and they add up to the owner's", async () => {
    setNow(NOW);
    const a1 = await agent.get(`/api/bots/${botA1}/usage`);
    expect(a1.status).toBe(200);
    expect(a1.body).toEqual({ usageCents: 15, usageLimitDollars: 7, logsAvailable: false, notChargedAnswers: 0 });
    const a2 = await agent.get(`/api/bots/${botA2}/usage`);
    expect(a2.body).toEqual({ usageCents: 5, usageLimitDollars: 0, logsAvailable: false, notChargedAnswers: 0 });

    const h1 = await agent.get(`/api/bots/${botA1}/usage-history`);
    expect(h1.status).toBe(200);
    expect(h1.body).toMatchObject({
      messageCounts: [1, 0, 0, 0, 0, 0, 1, 1, 1, 2],
      tokensUsed: [10, 0, 0, 0, 0, 0, 30, 40, 50, 130],
      costs: [3, 0, 0, 0, 0, 0, 5, 3, 4, 8],
    });
    const h2 = await agent.get(`/api/bots/${botA2}/usage-history`);
    expect(h2.body).toMatchObject({
      costs: [0, 0, 0, 0, 4, 0, 0, 5, 0, 0],
      messageCounts: [0, 0, 0, 0, 1, 0, 0, 1, 0, 0],
    });

    // Owner = bot A1 + bot A2 + the deleted bot (5 cents, 35 tokens on 2026-11-04).
    const owner = await agent.get('/api/user/usage-history');
    const o = owner.body as { costs: number[]; tokensUsed: number[] };
    const c1 = (h1.body as { costs: number[] }).costs;
    const c2 = (h2.body as { costs: number[] }).costs;
    const deleted = [0, 0, 0, 0, 0, 0, 0, 0, 5, 0];
    expect(o.costs).toEqual(c1.map((c, i) => c + c2[i] + deleted[i]));
  });

  it("answers 404 for another owner's bot and for a bot that does not exist, and 400 for a bad id", async () => {
    setNow(NOW);
    for (const path of [
      `/api/bots/${otherBot}/usage`,
      `/api/bots/${otherBot}/usage-history`,
      '/api/bots/999999/usage',
    ]) {
      const res = await agent.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Bot not found.', code: 'BOT_NOT_FOUND' });
    }
    for (const bad of ['abc', '1.5', '-3', '99999999999', '1e3', '01']) {
      const res = await agent.get(`/api/bots/${bad}/usage`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_ID' });
    }
  });
});

describe('who may see usage', () => {
  it('refuses a visitor without a session (401) and an owner whose billing is not set up (403)', async () => {
    for (const path of ['/api/user/usage', '/api/user/usage-history', '/api/user/logs/download', '/api/bots/1/usage']) {
      const anonymous = await t.http().get(path);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    const { agent } = await signedInAgent(t, { billing: 'none' });
    const res = await agent.get('/api/user/usage');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'SETUP_REQUIRED' });
    const failed = await signedInAgent(t, { billing: 'failed' });
    const download = await failed.agent.get('/api/user/logs/download');
    expect(download.status).toBe(403);
    expect(download.body).toMatchObject({ code: 'PAYMENT_FAILED' });
    expect(download.headers['content-disposition']).toBeUndefined();
  });

  it('gives a new owner zeros for every figure and ten empty days', async () => {
    setNowForNewOwner();
    const { agent } = await signedInAgent(t);
    const usage = await agent.get('/api/user/usage');
    expect(usage.body).toEqual({
      usageCents: 0,
      monthlyUsageCents: 0,
      creditsCents: 500,
      logsAvailable: false,
      notChargedAnswers: 0,
    });
    const history = await agent.get('/api/user/usage-history');
    expect(history.body).toEqual({
      labels: [
        '2026-02-20',
        '2026-02-21',
        '2026-02-22',
        '2026-02-23',
        '2026-02-24',
        '2026-02-25',
        '2026-02-26',
        '2026-02-27',
        '2026-02-28',
        '2026-03-01',
      ],
      messageCounts: Array(10).fill(0),
      visitorMessages: Array(10).fill(0),
      tokensUsed: Array(10).fill(0),
      costs: Array(10).fill(0),
    });
  });
});

function setNowForNewOwner(): void {
  // A non-leap February: the 10 days cross the month end.
  setNow('2026-03-01T08:00:00.000Z');
}

describe('logs download', () => {
  const NOW = '2026-11-05T15:04:09.000Z';
  let agent: request.Agent;
  let ownerId: number;
  let otherAgent: request.Agent;
  let supportBot: number;
  let salesBot: number;
  const mine: Array<LoggedMessage & { botName: string }> = [];
  const SECRET = 'other-owner-secret-4fa1';

  beforeAll(async () => {
    const a = await signedInAgent(t);
    agent = a.agent;
    ownerId = a.user.id;
    const b = await signedInAgent(t);
    otherAgent = b.agent;
    supportBot = await insertBot(t, ownerId, { name: 'Support' });
    salesBot = await insertBot(t, ownerId, { name: 'Sales' });
    const goneBot = await insertBot(t, ownerId, { name: 'Retired' });
    const otherBot = await insertBot(t, b.user.id, { name: 'Theirs' });

    const c1 = await insertConversation(t, { ownerId, botId: supportBot, botName: 'Support' });
    const c2 = await insertConversation(t, { ownerId, botId: salesBot, botName: 'Sales' });
    const c3 = await insertConversation(t, { ownerId, botId: goneBot, botName: 'Retired' });
    const cOther = await insertConversation(t, { ownerId: b.user.id, botId: otherBot, botName: 'Theirs' });

    const botNames = new Map([
      [c1, 'Support'],
      [c2, 'Sales'],
      [c3, 'Retired'],
    ]);
    const add = async (m: LoggedMessage) => {
      await insertMessage(t, m);
      mine.push({ ...m, botName: botNames.get(m.conversationId)! });
    };
    await add({ conversationId: c1, ownerId, role: 'user', content: 'Hello', at: '2026-11-04T09:00:00Z' });
    await add({
      conversationId: c1,
      ownerId,
      role: 'assistant',
      content: 'Hi! <b>&amp;</b> "quoted" =1+1 ünïcødé 🤖',
      model: 'gpt-4o',
      tokens: 120,
      costCents: 5,
      at: '2026-11-04T09:00:02Z',
    });
    await add({
      conversationId: c2,
      ownerId,
      role: 'user',
      content: 'Price?\u0007\u001B bell\u000B',
      at: '2026-11-04T10:00:00Z',
    });
    await add({
      conversationId: c2,
      ownerId,
      role: 'assistant',
      content: 'Line one\nLine two',
      model: 'gpt-3.5-turbo',
      tokens: 80,
      costCents: 3,
      at: '2026-11-04T10:00:01Z',
    });
    await add({ conversationId: c2, ownerId, role: 'error', content: 'The model failed.', at: '2026-11-04T10:00:05Z' });
    await add({
      conversationId: c3,
      ownerId,
      role: 'assistant',
      content: 'From a bot that is gone now',
      model: 'gpt-4o-mini',
      tokens: 40,
      costCents: 4,
      at: '2026-11-03T00:00:00Z',
    });
    await insertMessage(t, {
      conversationId: cOther,
      ownerId: b.user.id,
      role: 'assistant',
      content: SECRET,
      model: 'gpt-4o',
      tokens: 999,
      costCents: 5,
      at: '2026-11-04T09:30:00Z',
    });
    await t.dataSource.query(`DELETE FROM bots WHERE id = $1`, [goneBot]);
  });

  it("streams an .xlsx named user_logs_{date}_{time}.xlsx holding exactly the owner's messages", async () => {
    setNow(NOW);
    const { res, workbook } = await downloadWorkbook(agent);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe('attachment; filename="user_logs_2026-11-05_15-04-09.xlsx"');
    expect(res.headers['cache-control']).toBe('no-store');
    // Streamed: no length known in advance.
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');

    expect(header(workbook, 'Logs')).toEqual([...LOG_COLUMNS]);
    const rows = sheetRows(workbook, 'Logs');
    const expected = [...mine].sort((x, y) => x.at.localeCompare(y.at));
    expect(rows).toHaveLength(expected.length);
    expected.forEach((m, i) => {
      expect(rows[i]).toEqual([
        new Date(m.at),
        m.botName,
        m.conversationId,
        m.role,
        // Characters XML cannot carry are replaced; everything else is kept as typed.
        // eslint-disable-next-line no-control-regex
        m.content.replace(/[\u0007\u000B\u001B]/g, '\uFFFD'),
        m.model ?? undefined,
        m.tokens ?? 0,
        (m.costCents ?? 0) / 100,
      ]);
    });
    expect(JSON.stringify(rows)).not.toContain(SECRET);
  });

  it('adds a summary per bot (messages, tokens, cost) that agrees with the rows', async () => {
    setNow(NOW);
    const { workbook } = await downloadWorkbook(agent);
    expect(header(workbook, 'Summary')).toEqual([...SUMMARY_COLUMNS]);
    expect(sheetRows(workbook, 'Summary')).toEqual([
      ['Retired', 1, 40, 0.04],
      ['Sales', 3, 80, 0.03],
      ['Support', 2, 120, 0.05],
      ['Total', 6, 240, 0.12],
    ]);
  });

  it("never gives an owner another owner's logs", async () => {
    setNow(NOW);
    const { workbook } = await downloadWorkbook(otherAgent);
    const rows = sheetRows(workbook, 'Logs');
    expect(rows).toHaveLength(1);
    expect(rows[0][4]).toBe(SECRET);
    const everything = JSON.stringify([rows, sheetRows(workbook, 'Summary')]);
    for (const m of mine) expect(everything).not.toContain(m.content.slice(0, 8));
    expect(sheetRows(workbook, 'Summary')).toEqual([
      ['Theirs', 1, 999, 0.05],
      ['Total', 1, 999, 0.05],
    ]);
  });

  it('reports logsAvailable for the owner and per bot from the message log', async () => {
    setNow(NOW);
    const user = await agent.get('/api/user/usage');
    expect(user.body).toMatchObject({ logsAvailable: true });
    const support = await agent.get(`/api/bots/${supportBot}/usage`);
    expect(support.body).toMatchObject({ logsAvailable: true });
    const silent = await insertBot(t, ownerId, { name: 'Silent' });
    const none = await agent.get(`/api/bots/${silent}/usage`);
    expect(none.body).toMatchObject({ logsAvailable: false });
  });

  it('gives an owner without messages a valid workbook with headers and a zero total', async () => {
    setNow(NOW);
    const fresh = await signedInAgent(t);
    const { workbook } = await downloadWorkbook(fresh.agent);
    expect(header(workbook, 'Logs')).toEqual([...LOG_COLUMNS]);
    expect(sheetRows(workbook, 'Logs')).toEqual([]);
    expect(sheetRows(workbook, 'Summary')).toEqual([['Total', 0, 0, 0]]);
  });
});

describe('a log larger than one batch', () => {
  it('exports every message exactly once across batches, even when many share a timestamp', async () => {
    setNow('2026-11-05T15:00:00.000Z');
    const { agent, user } = await signedInAgent(t);
    const bot = await insertBot(t, user.id, { name: 'Busy' });
    const conversation = await insertConversation(t, { ownerId: user.id, botId: bot, botName: 'Busy' });
    const count = LOGS_EXPORT_BATCH_ROWS * 2 + 7;
    // Half the rows share one microsecond: the keyset must break ties by id.
    await t.dataSource.query(
      `INSERT INTO messages (conversation_id, owner_id, role, content, model, tokens, cost_cents, created_at)
       SELECT $1, $2, 'assistant', 'answer ' || g, 'gpt-4o', g % 50, 5,
              CASE WHEN g % 2 = 0 THEN TIMESTAMPTZ '2026-11-04 10:00:00.123456+00'
                   ELSE TIMESTAMPTZ '2026-11-04 09:00:00+00' + make_interval(secs => g * 0.000001) END
         FROM generate_series(1, $3::int) AS g`,
      [conversation, user.id, count],
    );
    const { workbook } = await downloadWorkbook(agent);
    const rows = sheetRows(workbook, 'Logs');
    expect(rows).toHaveLength(count);
    const contents = rows.map((r) => r[4] as string);
    expect(new Set(contents).size).toBe(count);
    const tokens = rows.reduce((sum, r) => sum + (r[6] as number), 0);
    const expectedTokens = Array.from({ length: count }, (_, i) => (i + 1) % 50).reduce((a, b) => a + b, 0);
    expect(sheetRows(workbook, 'Summary')).toEqual([
      ['Busy', count, expectedTokens, (count * 5) / 100],
      ['Total', count, expectedTokens, (count * 5) / 100],
    ]);
    expect(tokens).toBe(expectedTokens);
  });
});

describe('the usage limit, seen from the usage side (PUT /api/bots/:id {usageLimitDollars})', () => {
  it('saves whole dollars, saves empty as 0, and GET /api/bots/:id/usage answers the saved limit', async () => {
    const { agent, user } = await signedInAgent(t);
    const bot = await insertBot(t, user.id, { name: 'Limited' });
    const put = (usageLimitDollars: unknown) =>
      agent.put(`/api/bots/${bot}`).set('Origin', t.origin).send({ usageLimitDollars });

    const saved = await put(12);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ bot: { id: bot, usageLimitDollars: 12 } });
    expect((await agent.get(`/api/bots/${bot}/usage`)).body).toEqual({
      usageCents: 0,
      usageLimitDollars: 12,
      logsAvailable: false,
      notChargedAnswers: 0,
    });

    for (const bad of [-1, 2.5, 'ten']) {
      const refused = await put(bad);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect((await agent.get(`/api/bots/${bot}/usage`)).body).toMatchObject({ usageLimitDollars: 12 });
    }

    expect((await put('')).status).toBe(200);
    expect((await agent.get(`/api/bots/${bot}/usage`)).body).toMatchObject({ usageLimitDollars: 0 });
  });

  it("cannot change another owner's limit (404), which stays as it was", async () => {
    const { agent } = await signedInAgent(t);
    const other = await createUser(t);
    const theirs = await insertBot(t, other.id, { usageLimitDollars: 5 });
    const res = await agent.put(`/api/bots/${theirs}`).set('Origin', t.origin).send({ usageLimitDollars: 1 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Bot not found.', code: 'BOT_NOT_FOUND' });
    const rows: Array<{ usage_limit_dollars: number }> = await t.dataSource.query(
      `SELECT usage_limit_dollars FROM bots WHERE id = $1`,
      [theirs],
    );
    expect(rows[0].usage_limit_dollars).toBe(5);
  });
});

describe('usage history: answers beside visitor messages', () => {
  it("counts each day's visitor messages apart from the answers, per owner and per bot, never another owner's", async () => {
    setNow('2026-11-05T15:00:00.000Z');
    const { agent, user } = await signedInAgent(t);
    const support = await insertBot(t, user.id, { name: 'Support' });
    const sales = await insertBot(t, user.id, { name: 'Sales' });
    const stranger = await createUser(t);
    const strangerBot = await insertBot(t, stranger.id, { name: 'Not yours' });

    async function conversation(ownerId: number, botId: number, messages: Array<['user' | 'assistant', string]>) {
      const id = await insertConversation(t, { ownerId, botId, botName: 'x', at: messages[0][1] });
      for (const [role, at] of messages)
        await insertMessage(t, { conversationId: id, ownerId, role, content: role, at });
      await t.dataSource.query(`UPDATE conversations SET last_message_at = $2 WHERE id = $1`, [
        id,
        messages[messages.length - 1][1],
      ]);
    }
    // Support: 3 visitor messages on 11-04 (one handed off, so unanswered), 1 on 11-05.
    await conversation(user.id, support, [
      ['user', '2026-11-04T10:00:00Z'],
      ['assistant', '2026-11-04T10:00:01Z'],
      ['user', '2026-11-04T10:01:00Z'],
      ['user', '2026-11-04T10:02:00Z'],
      ['assistant', '2026-11-04T10:02:01Z'],
      ['user', '2026-11-05T09:00:00Z'],
    ]);
    // Sales: one on 10-27 (the first day), one before the window.
    await conversation(user.id, sales, [
      ['user', '2026-10-26T23:59:59Z'],
      ['user', '2026-10-27T00:00:00Z'],
    ]);
    await conversation(stranger.id, strangerBot, [
      ['user', '2026-11-04T10:00:00Z'],
      ['user', '2026-11-05T10:00:00Z'],
    ]);
    await insertUsageEvent(t, {
      ownerId: user.id,
      botId: support,
      priceCents: 2,
      totalTokens: 10,
      at: '2026-11-04T10:00:01Z',
    });
    await insertUsageEvent(t, {
      ownerId: user.id,
      botId: support,
      priceCents: 2,
      totalTokens: 10,
      at: '2026-11-04T10:02:01Z',
    });

    const owner = await agent.get('/api/user/usage-history');
    expect(owner.status).toBe(200);
    expect(owner.body.visitorMessages).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 3, 1]);
    expect(owner.body.messageCounts).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 2, 0]);
    const ofSupport = await agent.get(`/api/bots/${support}/usage-history`);
    expect(ofSupport.body.visitorMessages).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 3, 1]);
    const ofSales = await agent.get(`/api/bots/${sales}/usage-history`);
    expect(ofSales.body.visitorMessages).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const theirs = await agent.get(`/api/bots/${strangerBot}/usage-history`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).not.toHaveProperty('visitorMessages');
  });
});
