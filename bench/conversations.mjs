#!/usr/bin/env node
/**
 * Conversations inbox benchmark: one owner with a million logged messages.
 *
 *   npm run build -w backend && node bench/conversations.mjs
 *   (DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/postgres)
 *   BENCH_MESSAGES=200000 node bench/conversations.mjs   (a smaller log)
 *
 * Creates a throw-away database with `conversations` and `messages` as the migrations define them
 * (up to 1797600000000-conversations-inbox: running totals, keyset and partial indexes, the
 * generated search vector and its GIN index; foreign keys left out), seeds one owner with
 * BENCH_MESSAGES messages in about BENCH_MESSAGES / 10 conversations over five bots (half on one
 * bot) spread over a year, plus other owners' conversations around them, then calls the app's own
 * ConversationsRepository (backend/dist: findPage, findOne, findMessages) on that database and
 * prints the EXPLAIN (ANALYZE, BUFFERS) plans of the queries it sent and median/p95 timings of
 * each call. The database is dropped at the end, also after a failure. Target: p95 < 100 ms.
 */
import pg from 'pg';
import { loadBuilt, requireBuiltBackend } from './support/app.mjs';
import {
  createThrowawayDatabase,
  explainRecorded,
  LOCAL_SERVER_URL,
  recordingDataSource,
} from './support/database.mjs';
import { printTable, timeRuns, TIMING_COLUMNS } from './support/timing.mjs';

requireBuiltBackend();
const { ConversationsRepository, SEARCH_HITS_MAX } = await loadBuilt(
  'modules/conversations/conversations.repository.js',
);

const BASE_URL = process.env.DATABASE_URL || LOCAL_SERVER_URL;
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const CONVERSATIONS = Math.round(MESSAGES / 10);
const OTHER_OWNERS = 20;
const OTHER_CONVERSATIONS = Math.round(CONVERSATIONS / 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const LIMIT = 25;
const OWNER = 1;

// ---- schema: what the migrations create for these two tables and the bots' names ---------------
const SCHEMA = `
  SET TIME ZONE 'UTC';
  CREATE TABLE bots (id SERIAL PRIMARY KEY, owner_id integer NOT NULL, name varchar(100) NOT NULL);
  CREATE TABLE conversations (
    id SERIAL PRIMARY KEY,
    owner_id integer NOT NULL,
    bot_id integer,
    bot_name varchar(100) NOT NULL,
    visitor_id varchar(64) NOT NULL,
    page_url varchar(2048),
    created_at timestamptz NOT NULL DEFAULT now(),
    last_message_at timestamptz NOT NULL DEFAULT now(),
    message_count integer NOT NULL DEFAULT 0,
    preview varchar(200),
    unanswered_count integer NOT NULL DEFAULT 0,
    up_count integer NOT NULL DEFAULT 0,
    down_count integer NOT NULL DEFAULT 0
  );
  CREATE TABLE messages (
    id SERIAL PRIMARY KEY,
    conversation_id integer NOT NULL,
    owner_id integer NOT NULL,
    role varchar(16) NOT NULL,
    content text NOT NULL,
    model varchar(32),
    tokens integer NOT NULL DEFAULT 0,
    cost_cents integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    rating varchar(4) CHECK (rating IN ('up', 'down')),
    rating_comment varchar(1000),
    rated_at timestamptz,
    unanswered boolean NOT NULL DEFAULT false,
    citations jsonb,
    search_vector tsvector GENERATED ALWAYS AS (to_tsvector('english', left(content, 20000))) STORED
  );
  ALTER TABLE messages ALTER COLUMN search_vector SET STORAGE MAIN;
`;
const INDEXES = `
  CREATE INDEX conversations_owner_idx ON conversations (owner_id, created_at);
  CREATE INDEX conversations_bot_visitor_idx ON conversations (bot_id, visitor_id);
  CREATE INDEX conversations_owner_recent_idx ON conversations (owner_id, last_message_at DESC, id DESC);
  CREATE INDEX conversations_bot_recent_idx ON conversations (bot_id, last_message_at DESC, id DESC);
  CREATE INDEX conversations_owner_unanswered_idx ON conversations (owner_id, last_message_at DESC, id DESC)
    WHERE unanswered_count > 0;
  CREATE INDEX conversations_owner_negative_idx ON conversations (owner_id, last_message_at DESC, id DESC)
    WHERE down_count > 0;
  CREATE INDEX messages_conversation_idx ON messages (conversation_id, id);
  CREATE INDEX messages_owner_idx ON messages (owner_id, created_at);
  CREATE INDEX messages_search_idx ON messages USING GIN (search_vector);
`;

// ---- seed -------------------------------------------------------------------------------------
/**
 * Visitor questions from templates and a catalogue of 200 products; "order" is in about a third
 * of the questions (a common word), "warranty" in about 1% (a middling one), "zeppelin" in one
 * question of 5,000 (a rare one). Answers from templates. Conversations have 2 to 18 messages
 * (10 on average); about 8% hold an unanswered answer, 3% an answer rated down, 10% one rated up.
 */
const SEED = `
  INSERT INTO bots (owner_id, name)
  SELECT 1, 'Bot ' || b FROM generate_series(1, 5) b
  UNION ALL SELECT 1 + o, 'Other ' || o FROM generate_series(1, ${OTHER_OWNERS}) o;

  CREATE TEMP TABLE words AS SELECT array[
    'Where is my order', 'Can I change my order', 'How long does shipping take for the', 'Do you have the',
    'What is the price of the', 'Is the', 'Can I return the', 'How do I cancel my order with the',
    'What colours does the', 'Does the', 'My order never arrived, it had a', 'When will you restock the',
    'Is there a discount on the', 'How heavy is the', 'Can you gift wrap the'
  ] AS questions, array[
    'Thanks for asking! You can find it in your account under Orders.',
    'Shipping takes three to five working days within the country.',
    'Yes, it is in stock and ships tomorrow.',
    'You can return any item within 30 days for a full refund.',
    'I''m sorry, I couldn''t find that in what I know.',
    'It comes in red, blue and forest green.',
    'Our support team answers within one business day.'
  ] AS answers, (SELECT array_agg(w || ' ' || k) FROM unnest(array['kettle','toaster','lamp','chair','desk','mug','teapot','blender','rug','clock']) w,
                 unnest(array['classic','deluxe','mini','pro','eco','retro','smart','travel','family','studio','nordic','vintage','compact','premium','basic','max','lite','plus','solo','duo']) k) AS products;

  INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id, page_url, created_at, last_message_at,
                             message_count, preview, unanswered_count, up_count, down_count)
  SELECT owner_id, bot_id, 'Bot', md5(g::text), 'https://shop.example/p/' || (g % 500),
         at - ((2 + g % 9) * 2) * interval '1 minute', at, 2 + (g % 9) * 2, NULL,
         CASE WHEN g % 100 < 8 THEN 1 ELSE 0 END,
         CASE WHEN g % 10 = 3 THEN 1 ELSE 0 END,
         CASE WHEN g % 100 IN (41, 57, 83) THEN 1 ELSE 0 END
    FROM (
      SELECT g,
             CASE WHEN g <= ${CONVERSATIONS} THEN 1 ELSE 2 + g % ${OTHER_OWNERS} END AS owner_id,
             CASE WHEN g <= ${CONVERSATIONS} THEN (CASE WHEN g % 2 = 0 THEN 1 ELSE 2 + g % 4 END)
                  ELSE 6 + g % ${OTHER_OWNERS} END AS bot_id,
             TIMESTAMPTZ '2026-11-25T00:00:00Z' - random() * interval '365 days' AS at
        FROM generate_series(1, ${CONVERSATIONS + OTHER_CONVERSATIONS}) g
    ) s
   ORDER BY at;

  INSERT INTO messages (conversation_id, owner_id, role, content, created_at, unanswered, rating)
  SELECT c.id, c.owner_id, CASE WHEN n % 2 = 1 THEN 'user' ELSE 'assistant' END,
         CASE WHEN n % 2 = 1 THEN
           w.questions[1 + (c.id * 7 + n) % 15] || ' ' || w.products[1 + (c.id * 13 + n * 31) % 200] || '?'
             || CASE WHEN (c.id * 3 + n) % 100 = 0 THEN ' Is there a warranty?' ELSE '' END
             || CASE WHEN (c.id * 11 + n) % 5000 = 1 THEN ' It looks like a zeppelin.' ELSE '' END
         ELSE w.answers[1 + (c.id + n) % 7] END,
         c.created_at + n * interval '1 minute',
         n = c.message_count AND c.unanswered_count > 0,
         CASE WHEN n = c.message_count AND c.down_count > 0 THEN 'down'
              WHEN n = c.message_count AND c.up_count > 0 THEN 'up' END
    FROM conversations c CROSS JOIN words w, generate_series(1, c.message_count) n
   ORDER BY c.created_at, n;

  UPDATE conversations c SET preview = left(m.content, 200)
    FROM messages m WHERE m.conversation_id = c.id AND m.created_at = c.created_at + interval '1 minute';
  UPDATE conversations c SET bot_name = b.name FROM bots b WHERE b.id = c.bot_id;
`;

async function main() {
  const database = await createThrowawayDatabase(BASE_URL, 'botsmith_bench');
  const client = new pg.Client({ connectionString: database.url });
  try {
    await client.connect();
    await client.query(SCHEMA);
    const version = (await client.query('SHOW server_version')).rows[0].server_version;
    const t0 = Date.now();
    await client.query(SEED);
    await client.query(INDEXES);
    await client.query('VACUUM ANALYZE');
    const seedSeconds = (Date.now() - t0) / 1000;

    const counts = (
      await client.query(
        `SELECT (SELECT COUNT(*) FROM messages WHERE owner_id = 1) AS messages,
                (SELECT COUNT(*) FROM messages) AS all_messages,
                (SELECT COUNT(*) FROM conversations WHERE owner_id = 1) AS conversations,
                (SELECT COUNT(*) FROM conversations WHERE owner_id = 1 AND unanswered_count > 0) AS unanswered,
                (SELECT COUNT(*) FROM conversations WHERE owner_id = 1 AND down_count > 0) AS negative,
                (SELECT COUNT(*) FROM conversations WHERE bot_id = 3) AS small_bot,
                pg_size_pretty(pg_total_relation_size('messages')) AS messages_size`,
      )
    ).rows[0];
    const wordCount = async (word) =>
      (
        await client.query(
          `SELECT COUNT(*) AS n FROM messages WHERE owner_id = 1 AND search_vector @@ websearch_to_tsquery('english', $1)`,
          [word],
        )
      ).rows[0].n;
    const words = {
      common: 'order',
      middling: 'warranty',
      rare: 'zeppelin',
      none: 'giraffe',
      phrase: '"kettle deluxe"',
    };
    const matches = {};
    for (const [kind, word] of Object.entries(words)) matches[kind] = await wordCount(word);

    console.log(
      `# Conversations inbox on ${Number(counts.messages).toLocaleString('en-US')} messages of one owner (PostgreSQL ${version})`,
    );
    console.log(
      `seeded in ${seedSeconds.toFixed(1)} s: ${counts.conversations} conversations of owner 1 ` +
        `(${counts.unanswered} unanswered, ${counts.negative} rated down; bot 3: ${counts.small_bot}), ` +
        `${counts.all_messages} messages in all (other owners too), messages table+indexes ${counts.messages_size}`,
    );
    console.log(
      `messages matching: ${Object.entries(words)
        .map(([kind, word]) => `${kind} ${word} ${matches[kind]}`)
        .join(', ')}; ${RUNS} timed runs each after one warm run, page size ${LIMIT}\n`,
    );

    // A cursor half way down the owner's list: the page a person reaches after ~2,000 "next" clicks.
    const deep = (
      await client.query(
        `SELECT id, to_char(last_message_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
           FROM conversations WHERE owner_id = 1 ORDER BY last_message_at DESC, id DESC OFFSET $1 LIMIT 1`,
        [Math.floor(Number(counts.conversations) / 2)],
      )
    ).rows[0];
    const deepCursor = { at: deep.at, id: deep.id };
    const transcriptId = (
      await client.query(`SELECT id FROM conversations WHERE owner_id = 1 ORDER BY message_count DESC, id LIMIT 1`)
    ).rows[0].id;
    const base = { ownerId: OWNER, botId: null, search: null, from: null, before: null, filter: 'all' };
    const cases = [
      ['first page', base, null],
      ['deep page (cursor half way)', base, deepCursor],
      ['filter unanswered', { ...base, filter: 'unanswered' }, null],
      ['filter unanswered, deep', { ...base, filter: 'unanswered' }, deepCursor],
      ['filter negative', { ...base, filter: 'negative' }, null],
      ['botId (large bot 1)', { ...base, botId: 1 }, null],
      ['botId (bot 3), deep', { ...base, botId: 3 }, deepCursor],
      ['botId 3 + negative', { ...base, botId: 3, filter: 'negative' }, null],
      ['date range (one month)', { ...base, from: new Date('2026-05-01Z'), before: new Date('2026-06-01Z') }, null],
      [`q common (${words.common})`, { ...base, search: words.common }, null],
      [`q common (${words.common}), deep`, { ...base, search: words.common }, deepCursor],
      [`q middling (${words.middling})`, { ...base, search: words.middling }, null],
      [`q rare (${words.rare})`, { ...base, search: words.rare }, null],
      [`q no match (${words.none})`, { ...base, search: words.none }, null],
      [`q phrase (${words.phrase})`, { ...base, search: words.phrase }, null],
      [`q middling + unanswered`, { ...base, search: words.middling, filter: 'unanswered' }, null],
      [`q common + unanswered`, { ...base, search: words.common, filter: 'unanswered' }, null],
      [`q common + bot 3, deep`, { ...base, search: words.common, botId: 3 }, deepCursor],
      [`q rare + negative`, { ...base, search: words.rare, filter: 'negative' }, null],
    ];

    const dataSource = recordingDataSource(client);
    const repository = new ConversationsRepository(dataSource);
    /** Runs `call` on the repository; answers its result and the queries it sent. */
    const recording = async (call) => {
      dataSource.recorded.length = 0;
      const result = await call();
      return { result, queries: dataSource.recorded.splice(0) };
    };

    const summary = [];
    for (const [label, selection, after] of cases) {
      const timing = await timeRuns(() => repository.findPage(selection, after, LIMIT + 1), RUNS);
      const { result, queries } = await recording(() => repository.findPage(selection, after, LIMIT + 1));
      // With a search the first query lists the matching messages (searchHits): up to SEARCH_HITS_MAX
      // of them are listed by id, more mean a walk of the conversations (run in a transaction).
      const matching = selection.search == null ? null : queries[0].rows;
      const how =
        matching === null
          ? ''
          : matching.length > SEARCH_HITS_MAX
            ? ' (common: walk)'
            : ` (rare: ${new Set(matching.map((r) => r.conversation_id)).size} conversations by id)`;
      summary.push({ query: label + how, rows: result.length, ...timing });
      console.log(
        `### ${label}${how}: ${result.length} rows, median ${timing.median.toFixed(2)} ms, p95 ${timing.p95.toFixed(2)} ms`,
      );
      console.log(await explainRecorded(client, queries));
      console.log('');
    }
    const transcriptCall = async () => {
      await repository.findOne(OWNER, transcriptId);
      await repository.findMessages(OWNER, transcriptId);
    };
    const transcript = await timeRuns(transcriptCall, RUNS);
    summary.push({ query: 'transcript (conversation + its 18 messages, 2 queries)', rows: 18, ...transcript });
    console.log(`### transcript: median ${transcript.median.toFixed(2)} ms, p95 ${transcript.p95.toFixed(2)} ms`);
    console.log(await explainRecorded(client, (await recording(transcriptCall)).queries));

    console.log('\n## Timings (ms, client round trip on localhost)\n');
    printTable([['query', (s) => s.query], ['rows', (s) => s.rows], ...TIMING_COLUMNS], summary);
  } finally {
    await client.end().catch(() => undefined);
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
