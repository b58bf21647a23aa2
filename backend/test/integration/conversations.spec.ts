import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import type request from 'supertest';
import type { ConversationSummary, ConversationsPage } from '@botsmith/contract';
import {
  CONVERSATIONS_COLUMNS,
  CONVERSATIONS_SHEET,
} from '../../src/modules/conversations/conversations-export.service.js';
import { createChatBot, usageOfOwner, visitor } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The owner's conversations inbox (docs/product.md#conversations) on a real database: seeded
 * through POST /api/chat (the offline model) where the chat path matters, and by rows with chosen
 * times, ratings and flags where pagination and filters do.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
});
afterAll(() => t.close());

interface SeedMessage {
  role: 'user' | 'assistant' | 'error';
  content: string;
  rating?: 'up' | 'down';
  unanswered?: boolean;
  citations?: unknown[];
}

/** One conversation as the chat log would hold it (running totals included), last message at `at`. */
async function seed(
  ownerId: number,
  bot: { id: number | null; name: string },
  at: Date,
  messages: SeedMessage[] = [
    { role: 'user', content: 'When do you open?' },
    { role: 'assistant', content: 'We open at nine.' },
  ],
  pageUrl: string | null = 'https://shop.example/help',
): Promise<number> {
  const preview = messages.find((m) => m.role === 'user')?.content.slice(0, 200) ?? null;
  const rows: Array<{ id: number }> = await t.dataSource.query(
    `INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id, page_url, created_at, last_message_at,
                                message_count, preview, unanswered_count, up_count, down_count)
     VALUES ($1, $2, $3, $4, $5, $6::timestamptz - interval '1 minute', $6, $7, $8, $9, $10, $11) RETURNING id`,
    [
      ownerId,
      bot.id,
      bot.name,
      visitor(),
      pageUrl,
      at,
      messages.length,
      preview,
      messages.filter((m) => m.unanswered).length,
      messages.filter((m) => m.rating === 'up').length,
      messages.filter((m) => m.rating === 'down').length,
    ],
  );
  const id = Number(rows[0].id);
  for (const [i, m] of messages.entries()) {
    await t.dataSource.query(
      `INSERT INTO messages (conversation_id, owner_id, role, content, created_at, rating, unanswered, citations)
       VALUES ($1, $2, $3, $4, $5::timestamptz - ($6 || ' seconds')::interval, $7, $8, $9::jsonb)`,
      [
        id,
        ownerId,
        m.role,
        m.content,
        at,
        String(messages.length - 1 - i),
        m.rating ?? null,
        m.unanswered ?? false,
        m.citations ? JSON.stringify(m.citations) : null,
      ],
    );
  }
  return id;
}

async function owner() {
  const { agent, user } = await signedInAgent(t);
  const bot = await createChatBot(t, user.id, { name: 'Front desk' });
  return { agent, user, bot };
}

async function page(agent: request.Agent, query: Record<string, string | number> = {}) {
  const response = await agent.get('/api/conversations').query(query);
  expect(response.status).toBe(200);
  return response.body as ConversationsPage;
}

async function allPages(agent: request.Agent, query: Record<string, string | number>): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | null = null;
  do {
    const body: ConversationsPage = await page(agent, { ...query, ...(cursor ? { cursor } : {}) });
    ids.push(...body.conversations.map((c) => c.id));
    cursor = body.nextCursor;
  } while (cursor);
  return ids;
}

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

describe('GET /api/conversations', () => {
  it('lists the owner’s conversations newest first with their totals, through the real chat API', async () => {
    const { agent, user, bot } = await owner();
    // One visitor asks twice (the server's visitor token keeps the conversation), another once.
    let token: string | undefined;
    for (const prompt of ['Do you ship to Norway?', 'What about returns?']) {
      const request = t
        .http()
        .post('/api/chat')
        .set('Origin', 'https://shop.example')
        .set('X-Page-Url', 'https://shop.example/shipping');
      if (token) request.set('X-Visitor-Token', token);
      const answer = await request.send({ botId: bot.id, prompt });
      expect(answer.status).toBe(200);
      token = answer.headers['x-visitor-token'];
    }
    await t
      .http()
      .post('/api/chat')
      .set('Origin', 'https://shop.example')
      .set('X-Visitor-Id', visitor())
      .send({ botId: bot.id, prompt: 'Is the café open on Sunday?' })
      .expect(200);

    const body = await page(agent);
    expect(body.nextCursor).toBeNull();
    expect(body.conversations).toHaveLength(2);
    const [second, first] = body.conversations;
    expect(second).toMatchObject({
      botId: bot.id,
      botName: 'Front desk',
      messageCount: 2,
      preview: 'Is the café open on Sunday?',
      // The bot has no knowledge: the offline model answers with the cannot-answer sentence.
      unanswered: true,
      rating: null,
    });
    expect(first).toMatchObject({
      botId: bot.id,
      messageCount: 4,
      preview: 'Do you ship to Norway?',
      pageUrl: 'https://shop.example/shipping',
    });
    expect(Object.keys(first).sort()).toEqual(
      [
        'id',
        'botId',
        'botName',
        'startedAt',
        'lastMessageAt',
        'messageCount',
        'preview',
        'pageUrl',
        'unanswered',
        'rating',
        'handoff',
        'visitorName',
        'visitorEmail',
        // issue 27: the lead's name and e-mail, and whether it waits for the owner.
        'leadName',
        'leadEmail',
        'waiting',
        // issue 28: whether the host page's server signed who the visitor is.
        'visitorVerified',
      ].sort(),
    );
    expect(Date.parse(first.lastMessageAt)).toBeGreaterThanOrEqual(Date.parse(first.startedAt));
    // The list of another owner does not show them.
    const other = await owner();
    expect((await page(other.agent)).conversations).toEqual([]);
    expect(user.id).not.toBe(other.user.id);
  });

  it('shows a visitor’s thumbs down under "negative" and "unanswered", through the real chat and feedback', async () => {
    const { agent, bot } = await owner();
    const ask = (prompt: string, token?: string) => {
      const call = t.http().post('/api/chat').set('Origin', 'https://shop.example');
      if (token) call.set('X-Visitor-Token', token);
      return call.send({ botId: bot.id, prompt });
    };
    const liked = await ask('When do you open?');
    expect(liked.status).toBe(200);
    const disliked = await ask('Do you sell bicycles?');
    expect(disliked.status).toBe(200);
    const token = disliked.headers['x-visitor-token'];
    const rate = (messageId: number, rating: string, as: string) =>
      t
        .http()
        .post('/api/chat/feedback')
        .set('Origin', 'https://shop.example')
        .set('X-Visitor-Token', as)
        .send({ botId: bot.id, messageId, rating });
    expect((await rate(liked.body.messageId, 'up', liked.headers['x-visitor-token'])).status).toBe(204);
    expect((await rate(disliked.body.messageId, 'down', token)).status).toBe(204);

    const negative = (await page(agent, { filter: 'negative' })).conversations;
    expect(negative.map((c) => c.preview)).toEqual(['Do you sell bicycles?']);
    expect(negative[0]).toMatchObject({ rating: 'down', unanswered: true });
    // A bot without knowledge may leave the other question unanswered too; the rated-down one always is.
    expect((await page(agent, { filter: 'unanswered' })).conversations.map((c) => c.id)).toContain(negative[0].id);
    const all = (await page(agent)).conversations;
    expect(all.map((c) => c.rating)).toEqual(['down', 'up']);
    const transcript = await agent.get(`/api/conversations/${negative[0].id}`);
    expect(transcript.body.messages[1]).toMatchObject({
      id: disliked.body.messageId,
      role: 'assistant',
      rating: 'down',
      unanswered: true,
    });
  });

  it('pages by cursor without duplicates or gaps, also when new conversations arrive between pages', async () => {
    const { agent, user, bot } = await owner();
    const seeded: number[] = [];
    const same = minutesAgo(30); // several conversations with the very same instant: ties broken by id
    for (let i = 0; i < 12; i++) seeded.push(await seed(user.id, bot, i < 4 ? same : minutesAgo(60 + i)));
    const expected = [...seeded.slice(0, 4)].reverse().concat(seeded.slice(4));

    const first = await page(agent, { limit: 5 });
    expect(first.conversations.map((c) => c.id)).toEqual(expected.slice(0, 5));
    expect(first.nextCursor).toEqual(expect.any(String));
    // Visitors keep chatting: two new conversations come in before the next page is fetched.
    await seed(user.id, bot, new Date());
    await seed(user.id, bot, new Date());
    const second = await page(agent, { limit: 5, cursor: first.nextCursor! });
    expect(second.conversations.map((c) => c.id)).toEqual(expected.slice(5, 10));
    const third = await page(agent, { limit: 5, cursor: second.nextCursor! });
    expect(third.conversations.map((c) => c.id)).toEqual(expected.slice(10));
    expect(third.nextCursor).toBeNull();

    expect((await page(agent)).conversations).toHaveLength(14); // default limit 25
    const hundred = await allPages(agent, { limit: 100 });
    expect(new Set(hundred).size).toBe(14);
  });

  it('filters by bot, unanswered, thumbs down and date range', async () => {
    const { agent, user, bot } = await owner();
    const second = await createChatBot(t, user.id, { name: 'Sales' });
    const plain = await seed(user.id, bot, new Date('2026-03-10T12:00:00Z'));
    const missed = await seed(user.id, bot, new Date('2026-03-11T12:00:00Z'), [
      { role: 'user', content: 'Do you sell gift cards?' },
      { role: 'assistant', content: "I'm sorry, I couldn't find that in what I know.", unanswered: true },
    ]);
    const down = await seed(user.id, second, new Date('2026-03-12T12:00:00Z'), [
      { role: 'user', content: 'Price of the blue kettle?' },
      { role: 'assistant', content: 'It is free.', rating: 'down' },
    ]);
    const up = await seed(user.id, second, new Date('2026-03-13T12:00:00Z'), [
      { role: 'user', content: 'Opening hours?' },
      { role: 'assistant', content: 'Nine to five.', rating: 'up' },
    ]);
    const ids = async (query: Record<string, string | number>) =>
      (await page(agent, query)).conversations.map((c) => c.id);

    expect(await ids({})).toEqual([up, down, missed, plain]);
    expect(await ids({ filter: 'all' })).toEqual([up, down, missed, plain]);
    expect(await ids({ botId: second.id })).toEqual([up, down]);
    expect(await ids({ filter: 'unanswered' })).toEqual([missed]);
    expect(await ids({ filter: 'negative' })).toEqual([down]);
    expect(await ids({ filter: 'negative', botId: bot.id })).toEqual([]);
    expect(await ids({ from: '2026-03-11', to: '2026-03-12' })).toEqual([down, missed]); // whole days
    expect(await ids({ from: '2026-03-11T12:00:00Z', to: '2026-03-12T12:00:00Z' })).toEqual([missed]); // to excluded
    expect(await ids({ from: '2026-03-13T13:00:00+01:00' })).toEqual([up]);
    expect(await ids({ botId: '', q: '', from: '', to: '', filter: '', cursor: '' })).toHaveLength(4);

    const summaries = (await page(agent)).conversations;
    const byId = new Map(summaries.map((c: ConversationSummary) => [c.id, c]));
    expect(byId.get(missed)).toMatchObject({ unanswered: true, rating: null });
    expect(byId.get(down)).toMatchObject({ unanswered: false, rating: 'down', botName: 'Sales' });
    expect(byId.get(up)).toMatchObject({ rating: 'up' });
  });

  it('searches the words of every message of a conversation (full text, English stemming)', async () => {
    const { agent, user, bot } = await owner();
    const kettle = await seed(user.id, bot, minutesAgo(5), [
      { role: 'user', content: 'Is the blue kettle in stock?' },
      { role: 'assistant', content: 'Yes, we have three kettles left.' },
    ]);
    const refund = await seed(user.id, bot, minutesAgo(4), [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi! How can I help?' },
      { role: 'user', content: 'I want a refund for my order' },
      { role: 'assistant', content: 'Refunds take 30 days.' },
    ]);
    const ids = async (q: string) => (await page(agent, { q })).conversations.map((c) => c.id);

    expect(await ids('kettles')).toEqual([kettle]); // stemmed: kettle ~ kettles
    expect(await ids('refunded')).toEqual([refund]); // matches a later message, not only the preview
    expect(await ids('refund OR kettle')).toEqual([refund, kettle]);
    expect(await ids('"blue kettle"')).toEqual([kettle]);
    // A message matches as a whole: the answer about refunds has no "order" in it.
    expect(await ids('refund -order')).toEqual([refund]);
    expect(await ids('kettle -kettles')).toEqual([]);
    expect(await ids('giraffe')).toEqual([]);
    expect(await ids('the')).toEqual([]); // only a stop word: nothing to match
    expect(await ids("'; DROP TABLE messages;-- &|!():*")).toEqual([]);
    // Another owner's words are never found.
    const other = await owner();
    await seed(other.user.id, other.bot, minutesAgo(1), [{ role: 'user', content: 'secret kettle plans' }]);
    expect(await ids('plans')).toEqual([]);
  });

  it('pages a common word’s matches exactly (more matching messages than are listed by id)', async () => {
    const { agent, user, bot } = await owner();
    // 400 conversations of 20 messages; three in four mention a kettle in every message (6,000
    // matching messages, past SEARCH_HITS_MAX), one in five holds an unanswered answer.
    await t.dataSource.query(
      `INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id, created_at, last_message_at, message_count,
                                  preview, unanswered_count)
       SELECT $1, $2, 'Front desk', 'v' || g, $3::timestamptz + g * interval '1 minute',
              $3::timestamptz + g * interval '1 minute', 20, 'question ' || g, CASE WHEN g % 5 = 0 THEN 1 ELSE 0 END
         FROM generate_series(1, 400) g`,
      [user.id, bot.id, new Date('2026-06-01T00:00:00Z')],
    );
    await t.dataSource.query(
      `INSERT INTO messages (conversation_id, owner_id, role, content, created_at)
       SELECT c.id, c.owner_id, 'user',
              CASE WHEN substr(c.visitor_id, 2)::int % 4 = 0 THEN 'A question about toasters' ELSE 'Where is my kettle?' END,
              c.created_at
         FROM conversations c, generate_series(1, 20) n WHERE c.owner_id = $1`,
      [user.id],
    );
    const expected = async (where: string) => {
      const rows: Array<{ id: number }> = await t.dataSource.query(
        `SELECT id FROM conversations WHERE owner_id = $1 AND ${where} ORDER BY last_message_at DESC, id DESC`,
        [user.id],
      );
      return rows.map((r) => Number(r.id));
    };
    const kettles = await expected(`substr(visitor_id, 2)::int % 4 <> 0`);
    expect(kettles).toHaveLength(300);
    expect(await allPages(agent, { q: 'kettles', limit: 7 })).toEqual(kettles);
    expect(await allPages(agent, { q: 'kettle', filter: 'unanswered', limit: 100 })).toEqual(
      await expected(`substr(visitor_id, 2)::int % 4 <> 0 AND unanswered_count > 0`),
    );
    expect(await allPages(agent, { q: 'kettle', botId: bot.id, limit: 100 })).toEqual(kettles);
    expect(await allPages(agent, { q: 'toasters', limit: 100 })).toEqual(
      await expected(`substr(visitor_id, 2)::int % 4 = 0`),
    );
  });

  it('refuses another owner’s bot with 404, and hostile values with 400', async () => {
    const { agent } = await owner();
    const other = await owner();
    const foreign = await agent.get('/api/conversations').query({ botId: other.bot.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'This chatbot does not exist.', code: 'BOT_NOT_FOUND' });
    expect((await agent.get('/api/conversations').query({ botId: 2147483648 })).body.code).toBe('BOT_NOT_FOUND');

    const first = await page(other.agent, { limit: 1 });
    const tampered = Buffer.from('2026-11-25T10:00:00.000000Z~abc').toString('base64url');
    const cases: Array<[string, string]> = [
      ['limit=0', 'VALIDATION_FAILED'],
      ['limit=1000', 'VALIDATION_FAILED'],
      ['limit=101', 'VALIDATION_FAILED'],
      ['limit=-1', 'VALIDATION_FAILED'],
      ['limit=1e2', 'VALIDATION_FAILED'],
      ['limit=abc', 'VALIDATION_FAILED'],
      ['filter=deleted', 'VALIDATION_FAILED'],
      ['botId=abc', 'VALIDATION_FAILED'],
      ['botId=1&botId=2', 'VALIDATION_FAILED'],
      [`q=${'a'.repeat(201)}`, 'VALIDATION_FAILED'],
      ['q=%00', 'INVALID_CHARACTERS'],
      ['q=a%00b', 'INVALID_CHARACTERS'],
      ['from=yesterday', 'VALIDATION_FAILED'],
      ['from=2026-02-30', 'VALIDATION_FAILED'],
      ['to=2026-13-01', 'VALIDATION_FAILED'],
      ['to=2026-11-25T25:00:00Z', 'VALIDATION_FAILED'],
      ['from=2026-11-26&to=2026-11-25', 'VALIDATION_FAILED'],
      ['cursor=not-a-cursor', 'INVALID_CURSOR'],
      [`cursor=${tampered}`, 'INVALID_CURSOR'],
      [`cursor=${'A'.repeat(201)}`, 'VALIDATION_FAILED'],
      ['cursor=%00', 'INVALID_CHARACTERS'],
      ['sort=id', 'VALIDATION_FAILED'],
    ];
    for (const [query, code] of cases) {
      const response = await agent.get(`/api/conversations?${query}`);
      expect({ query, status: response.status, code: response.body.code }).toEqual({ query, status: 400, code });
      expect(response.body.error).toEqual(expect.any(String));
    }
    // A cursor another owner was given is a position, not a key: it shows only one's own rows.
    expect((await agent.get('/api/conversations').query({ cursor: first.nextCursor ?? '' })).status).toBe(200);
    expect((await agent.get(`/api/conversations?q=${encodeURIComponent('é'.repeat(200))}`)).status).toBe(200);
  });

  it('needs a signed-in owner with billing set up', async () => {
    const anonymous = await t.http().get('/api/conversations');
    expect(anonymous.status).toBe(401);
    const { agent } = await signedInAgent(t, { billing: 'none' });
    expect((await agent.get('/api/conversations')).body.code).toBe('SETUP_REQUIRED');
    expect((await t.http().get('/api/conversations/1')).status).toBe(401);
    expect((await t.http().delete('/api/conversations/1').set('Origin', t.origin)).status).toBe(401);
    expect((await t.http().get('/api/conversations/export')).status).toBe(401);
  });
});

describe('GET and DELETE /api/conversations/{id}', () => {
  it('gives the transcript in order with citations, ratings and flags', async () => {
    const { agent, user, bot } = await owner();
    const id = await seed(user.id, bot, minutesAgo(1), [
      { role: 'user', content: 'Where is the ferry?' },
      {
        role: 'assistant',
        content: 'At the harbour.',
        rating: 'up',
        citations: [
          { sourceId: 7, name: 'Ferry.pdf', page: 2 },
          { sourceId: 8, name: 'Harbour', url: 'https://shop.example/harbour' },
        ],
      },
      { role: 'user', content: 'And the price?' },
      { role: 'assistant', content: "I'm sorry, I couldn't find that in what I know.", unanswered: true },
      { role: 'error', content: 'The model did not answer.' },
    ]);
    const response = await agent.get(`/api/conversations/${id}`);
    expect(response.status).toBe(200);
    expect(response.body.conversation).toMatchObject({ id, botId: bot.id, messageCount: 5, rating: 'up' });
    expect(response.body.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'Where is the ferry?'],
      ['assistant', 'At the harbour.'],
      ['user', 'And the price?'],
      ['assistant', "I'm sorry, I couldn't find that in what I know."],
      ['error', 'The model did not answer.'],
    ]);
    expect(response.body.messages[1]).toMatchObject({
      rating: 'up',
      unanswered: false,
      citations: [
        { sourceId: 7, name: 'Ferry.pdf', page: 2, url: null },
        { sourceId: 8, name: 'Harbour', page: null, url: 'https://shop.example/harbour' },
      ],
    });
    expect(response.body.messages[0]).toMatchObject({ citations: [], rating: null, unanswered: false });
    expect(response.body.messages[3]).toMatchObject({ unanswered: true });
    expect(Object.keys(response.body.messages[0]).sort()).toEqual(
      ['id', 'role', 'content', 'createdAt', 'citations', 'rating', 'unanswered'].sort(),
    );
  });

  it('keeps another owner’s conversation out of reach: 404 to read and to delete', async () => {
    const mine = await owner();
    const theirs = await owner();
    const id = await seed(theirs.user.id, theirs.bot, minutesAgo(1));
    const read = await mine.agent.get(`/api/conversations/${id}`);
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ error: 'This conversation does not exist.', code: 'CONVERSATION_NOT_FOUND' });
    const deleted = await mine.agent.delete(`/api/conversations/${id}`).set('Origin', t.origin);
    expect(deleted.status).toBe(404);
    expect(deleted.body.code).toBe('CONVERSATION_NOT_FOUND');
    expect((await theirs.agent.get(`/api/conversations/${id}`)).status).toBe(200);
    for (const bad of ['abc', '0', '-1', '1e3', '2147483648', '%00']) {
      const response = await mine.agent.get(`/api/conversations/${bad}`);
      expect({ bad, status: response.status, code: response.body.code }).toEqual({
        bad,
        status: 400,
        code: 'INVALID_ID',
      });
    }
    expect((await mine.agent.get('/api/conversations/987654321')).body.code).toBe('CONVERSATION_NOT_FOUND');
  });

  it('deletes a conversation and its messages; the usage ledger keeps its rows', async () => {
    const { agent, user, bot } = await owner();
    const answer = await t
      .http()
      .post('/api/chat')
      .set('Origin', 'https://shop.example')
      .set('X-Visitor-Id', visitor())
      .send({ botId: bot.id, prompt: 'Please forget me' });
    expect(answer.status).toBe(200);
    const [conversation] = (await page(agent)).conversations;
    const before = await usageOfOwner(t, user.id);
    expect(before.rows).toBe(1);

    const refused = await agent.delete(`/api/conversations/${conversation.id}`).set('Origin', 'https://evil.example');
    expect(refused.status).toBe(403);
    const response = await agent.delete(`/api/conversations/${conversation.id}`).set('Origin', t.origin);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');

    expect((await agent.get(`/api/conversations/${conversation.id}`)).status).toBe(404);
    expect((await page(agent)).conversations).toEqual([]);
    const left: Array<{ n: string }> = await t.dataSource.query(
      `SELECT COUNT(*) AS n FROM messages WHERE conversation_id = $1`,
      [conversation.id],
    );
    expect(Number(left[0].n)).toBe(0);
    expect(await usageOfOwner(t, user.id)).toEqual(before);
    const ledger: Array<{ message_id: number | null }> = await t.dataSource.query(
      `SELECT message_id FROM usage_events WHERE owner_id = $1`,
      [user.id],
    );
    expect(ledger).toEqual([{ message_id: null }]);
    expect((await agent.delete(`/api/conversations/${conversation.id}`).set('Origin', t.origin)).status).toBe(404);
  });
});

/** Reads a binary body (the .xlsx) into a Buffer. */
function binary(res: request.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
  res.on('error', (error: Error) => callback(error, Buffer.alloc(0)));
}

/** Text cells are inline rich text: compare them as the text a person sees. */
function plain(value: unknown): unknown {
  if (value && typeof value === 'object' && 'richText' in value) {
    return (value as ExcelJS.CellRichTextValue).richText.map((run) => run.text).join('');
  }
  return value ?? null;
}

async function exportRows(agent: request.Agent, query: Record<string, string | number> = {}) {
  const response = await agent.get('/api/conversations/export').query(query).buffer(true).parse(binary);
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  expect(response.headers['content-disposition']).toMatch(
    /^attachment; filename="conversations_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.xlsx"$/,
  );
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.body);
  const sheet = workbook.getWorksheet(CONVERSATIONS_SHEET)!;
  const rows: unknown[][] = [];
  sheet.eachRow((row, index) => {
    const values = (row.values as unknown[]).slice(1);
    while (values.length < CONVERSATIONS_COLUMNS.length) values.push(undefined);
    if (index === 1) expect(values).toEqual([...CONVERSATIONS_COLUMNS]);
    else rows.push(Array.from(values, plain));
  });
  return rows;
}

describe('GET /api/conversations/export', () => {
  it('writes one row per message of the matching conversations, newest conversation first', async () => {
    const { agent, user, bot } = await owner();
    const older = await seed(user.id, bot, new Date('2026-04-01T10:00:00Z'), [
      { role: 'user', content: 'Hello <b>&amp;</b> \u0007bell' },
      { role: 'assistant', content: 'Hi', rating: 'down' },
    ]);
    const newer = await seed(
      user.id,
      bot,
      new Date('2026-04-02T10:00:00Z'),
      [
        { role: 'user', content: 'Gift cards?' },
        { role: 'assistant', content: 'Not found.', unanswered: true },
      ],
      null,
    );
    const other = await owner();
    await seed(other.user.id, other.bot, new Date('2026-04-03T10:00:00Z'));
    // Who the host page said the visitor was: the last two columns of each of the conversation's rows.
    await t.dataSource.query(`UPDATE conversations SET visitor_name = $2, visitor_email = $3 WHERE id = $1`, [
      newer,
      '=HYPERLINK("x") Ana',
      'ana@example.com',
    ]);

    const rows = await exportRows(agent);
    expect(rows.map((r) => [r[0], r[4], r[5], r[6], r[7]])).toEqual([
      [newer, 'user', 'Gift cards?', null, null],
      [newer, 'assistant', 'Not found.', null, 'yes'],
      [older, 'user', 'Hello <b>&amp;</b> \uFFFDbell', null, null],
      [older, 'assistant', 'Hi', 'down', null],
    ]);
    expect(rows[0][1]).toBe('Front desk');
    expect(rows[0][3]).toBeNull();
    expect(rows[2][3]).toBe('https://shop.example/help');
    expect(rows[3][8]).toEqual(new Date('2026-04-01T10:00:00Z'));
    expect(rows[3][2]).toEqual(new Date('2026-04-01T09:59:00Z'));
    expect(rows.map((r) => [r[9], r[10]])).toEqual([
      ['=HYPERLINK("x") Ana', 'ana@example.com'],
      ['=HYPERLINK("x") Ana', 'ana@example.com'],
      [null, null],
      [null, null],
    ]);

    expect((await exportRows(agent, { filter: 'unanswered' })).map((r) => r[0])).toEqual([newer, newer]);
    expect((await exportRows(agent, { q: 'gift' })).map((r) => r[0])).toEqual([newer, newer]);
    expect(await exportRows(agent, { to: '2026-03-31' })).toEqual([]);

    const foreign = await agent.get('/api/conversations/export').query({ botId: other.bot.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('BOT_NOT_FOUND');
    for (const query of ['from=nope', 'q=%00', 'cursor=x', 'limit=5']) {
      const response = await agent.get(`/api/conversations/export?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect(response.headers['content-type']).toMatch(/application\/json/);
    }
  });

  it('goes through every batch of a long export', async () => {
    const { agent, user, bot } = await owner();
    const base = Date.parse('2026-05-01T00:00:00Z');
    await t.dataSource.query(
      `INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id, created_at, last_message_at, message_count, preview)
       SELECT $1, $2, 'Front desk', 'v' || g, $3::timestamptz + g * interval '1 second',
              $3::timestamptz + g * interval '1 second', 1, 'question ' || g
         FROM generate_series(1, 450) g`,
      [user.id, bot.id, new Date(base)],
    );
    await t.dataSource.query(
      `INSERT INTO messages (conversation_id, owner_id, role, content, created_at)
       SELECT id, owner_id, 'user', preview, last_message_at FROM conversations WHERE owner_id = $1`,
      [user.id],
    );
    const rows = await exportRows(agent);
    expect(rows).toHaveLength(450);
    expect(new Set(rows.map((r) => r[0])).size).toBe(450);
    expect(rows[0][5]).toBe('question 450');
    expect(rows[449][5]).toBe('question 1');
  });
});
