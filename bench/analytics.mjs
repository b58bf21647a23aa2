#!/usr/bin/env node
/**
 * Analytics benchmark: GET /api/analytics's queries for one owner with a million logged messages.
 *
 *   npm run build -w backend && node bench/analytics.mjs
 *   (DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/postgres)
 *   BENCH_MESSAGES=200000 node bench/analytics.mjs   (a smaller log)
 *
 * Creates a throw-away database with the tables the analytics read, as the migrations define
 * them: `conversations` (running totals, outcome, the owner/time and bot/visitor indexes), `leads`
 * and `usage_events` (one row per answer), `bot_sources`, and `messages` with each conversation's
 * first question and its answer with citations (the topics and sources read only those of the
 * period's latest 2,000 conversations; the other figures read the rollup or each conversation's
 * running totals, so the rest of a million messages would only cost seeding time). One owner gets BENCH_MESSAGES messages
 * in about BENCH_MESSAGES / 10 conversations over five bots (half on one bot) spread over a year,
 * with an outcome each, a lead in 4 % and one ledger row per answer; other owners' rows surround
 * them. Then the app's own migrations of the rollup run on them, from backend/dist, as on a
 * database that had the hourly one: analytics_hours (its triggers, the visitors' indexes and its
 * backfill), then its replacement by quarter hours, analytics_quarters (timed: its backfill from
 * the seeded rows).
 *
 * The app's own AnalyticsService (backend/dist) runs on that database through a pool of
 * connections, as the app's is, so the queries it sends at once run at once; the bench prints the
 * EXPLAIN (ANALYZE, BUFFERS) plans of the queries it sent and median/p95 of each call. Target:
 * p95 < 100 ms (docs/decisions/0019-analytics-at-a-million-messages.md). Kolkata (+05:30) and
 * Kathmandu (+05:45) read the rollup too: its buckets are quarter hours.
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
const { AnalyticsRepository } = await loadBuilt('modules/analytics/analytics.repository.js');
const { AnalyticsService } = await loadBuilt('modules/analytics/analytics.service.js');
const { AnalyticsHours1798960000000 } = await loadBuilt('database/migrations/1798960000000-analytics-hours.js');
const { AnalyticsQuarters1798990000000 } = await loadBuilt('database/migrations/1798990000000-analytics-quarters.js');

const BASE_URL = process.env.DATABASE_URL || LOCAL_SERVER_URL;
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const CONVERSATIONS = Math.round(MESSAGES / 10);
const OTHER_OWNERS = 20;
const OTHER_CONVERSATIONS = Math.round(CONVERSATIONS / 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const OWNER = 1;
const NOW = new Date('2026-11-25T12:00:00Z');

const SCHEMA = `
  SET TIME ZONE 'UTC';
  CREATE TABLE bots (id SERIAL PRIMARY KEY, owner_id integer NOT NULL, name varchar(100) NOT NULL);
  CREATE TABLE conversations (
    id SERIAL PRIMARY KEY,
    owner_id integer NOT NULL,
    bot_id integer,
    bot_name varchar(100) NOT NULL,
    visitor_id varchar(64) NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_message_at timestamptz NOT NULL DEFAULT now(),
    message_count integer NOT NULL DEFAULT 0,
    unanswered_count integer NOT NULL DEFAULT 0,
    up_count integer NOT NULL DEFAULT 0,
    down_count integer NOT NULL DEFAULT 0,
    handoff_at timestamptz,
    outcome varchar(16),
    outcome_at timestamptz
  );
  CREATE TABLE leads (
    id SERIAL PRIMARY KEY,
    owner_id integer NOT NULL,
    bot_id integer,
    conversation_id integer NOT NULL,
    email varchar(254),
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE bot_sources (
    id SERIAL PRIMARY KEY,
    bot_id integer NOT NULL,
    name varchar(255) NOT NULL,
    is_correction boolean NOT NULL DEFAULT false
  );
  CREATE TABLE messages (
    id SERIAL PRIMARY KEY,
    conversation_id integer NOT NULL,
    owner_id integer NOT NULL,
    role varchar(16) NOT NULL,
    content text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    citations jsonb,
    search_vector tsvector GENERATED ALWAYS AS (to_tsvector('english', left(content, 20000))) STORED
  );
  CREATE TABLE usage_events (
    id SERIAL PRIMARY KEY,
    owner_id integer NOT NULL,
    bot_id integer,
    price_cents integer NOT NULL,
    credits_cents integer NOT NULL,
    billable_cents integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );
`;
const INDEXES = `
  CREATE INDEX conversations_owner_idx ON conversations (owner_id, created_at);
  CREATE INDEX conversations_bot_visitor_idx ON conversations (bot_id, visitor_id);
  CREATE INDEX conversations_outcome_due_idx ON conversations (last_message_at)
    WHERE outcome_at IS NULL OR outcome_at < last_message_at;
  CREATE INDEX leads_owner_recent_idx ON leads (owner_id, created_at DESC, id DESC);
  CREATE INDEX leads_bot_recent_idx ON leads (bot_id, created_at DESC, id DESC);
  CREATE INDEX messages_conversation_idx ON messages (conversation_id, id);
  CREATE INDEX usage_events_owner_time_idx ON usage_events (owner_id, created_at);
  CREATE INDEX usage_events_bot_time_idx ON usage_events (bot_id, created_at);
`;

/**
 * Conversations of 2 to 18 messages (10 on average), half of them answers; outcomes about 70 %
 * resolved, 10 % unanswered, 8 % handed off, 7 % abandoned, 3 % rated down, 2 % not decided yet.
 */
const SEED = `
  INSERT INTO bots (owner_id, name)
  SELECT 1, 'Bot ' || b FROM generate_series(1, 5) b
  UNION ALL SELECT 1 + o, 'Other ' || o FROM generate_series(1, ${OTHER_OWNERS}) o;

  INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id, created_at, last_message_at, message_count,
                             unanswered_count, up_count, down_count, outcome, outcome_at)
  SELECT owner_id, bot_id, 'Bot', md5((g % (${CONVERSATIONS} / 2 + 1))::text), at - (2 + g % 9) * 2 * interval '1 minute',
         at, 2 + (g % 9) * 2,
         CASE WHEN g % 100 BETWEEN 70 AND 79 THEN 1 ELSE 0 END,
         CASE WHEN g % 10 = 3 THEN 1 ELSE 0 END,
         CASE WHEN g % 100 BETWEEN 95 AND 97 THEN 1 ELSE 0 END,
         CASE WHEN g % 100 < 70 THEN 'resolved' WHEN g % 100 < 80 THEN 'unanswered' WHEN g % 100 < 88 THEN 'handed_off'
              WHEN g % 100 < 95 THEN 'abandoned' WHEN g % 100 < 98 THEN 'rated_down' END,
         CASE WHEN g % 100 < 98 THEN at + interval '35 minutes' END
    FROM (
      SELECT g,
             CASE WHEN g <= ${CONVERSATIONS} THEN 1 ELSE 2 + g % ${OTHER_OWNERS} END AS owner_id,
             CASE WHEN g <= ${CONVERSATIONS} THEN (CASE WHEN g % 2 = 0 THEN 1 ELSE 2 + g % 4 END)
                  ELSE 6 + g % ${OTHER_OWNERS} END AS bot_id,
             TIMESTAMPTZ '2026-11-25T00:00:00Z' - random() * interval '365 days' AS at
        FROM generate_series(1, ${CONVERSATIONS + OTHER_CONVERSATIONS}) g
    ) s
   ORDER BY at;

  INSERT INTO leads (owner_id, bot_id, conversation_id, email, created_at)
  SELECT owner_id, bot_id, id, 'visitor' || id || '@example.org', last_message_at
    FROM conversations WHERE outcome = 'handed_off' AND id % 2 = 0;

  INSERT INTO bot_sources (bot_id, name)
  SELECT b, 'Source ' || b || '-' || n FROM generate_series(1, 5) b, generate_series(1, 8) n;

  INSERT INTO messages (conversation_id, owner_id, role, content, created_at, citations)
  SELECT c.id, c.owner_id, r.role,
         CASE WHEN r.role = 'user'
              THEN (array['Where is my order', 'How long does shipping take', 'Can I return the',
                          'Do you have the', 'What is the price of the', 'Is there a discount on the'])[1 + c.id % 6]
                   || ' ' || (array['kettle', 'toaster', 'lamp', 'chair', 'desk', 'mug', 'teapot'])[1 + c.id % 7] || '?'
              ELSE 'Here is what I found.' END,
         c.created_at + r.n * interval '1 minute',
         CASE WHEN r.role = 'assistant' AND c.bot_id <= 5
              THEN jsonb_build_array(jsonb_build_object('sourceId', (c.bot_id - 1) * 8 + 1 + c.id % 5, 'name', 'Source'))
         END
    FROM conversations c, (VALUES (1, 'user'), (2, 'assistant')) AS r(n, role)
   ORDER BY c.created_at, r.n;

  INSERT INTO usage_events (owner_id, bot_id, price_cents, credits_cents, billable_cents, created_at)
  SELECT c.owner_id, c.bot_id, 3, CASE WHEN c.id % 50 = 0 THEN 3 ELSE 0 END,
         CASE WHEN c.id % 50 = 0 THEN 0 ELSE 3 END, c.created_at + n * 2 * interval '1 minute'
    FROM conversations c, generate_series(1, c.message_count / 2) n
   WHERE c.outcome IS DISTINCT FROM 'abandoned'
   ORDER BY c.created_at, n;
`;

async function main() {
  const database = await createThrowawayDatabase(BASE_URL, 'botsmith_bench');
  const client = new pg.Client({ connectionString: database.url });
  let pool;
  try {
    await client.connect();
    await client.query(SCHEMA);
    const version = (await client.query('SHOW server_version')).rows[0].server_version;
    const t0 = Date.now();
    await client.query(SEED);
    await client.query(INDEXES);
    const seedSeconds = (Date.now() - t0) / 1000;
    const runner = { query: (sql, params) => client.query(sql, params) };
    await new AnalyticsHours1798960000000().up(runner);
    const t1 = Date.now();
    await new AnalyticsQuarters1798990000000().up(runner);
    const rollupSeconds = (Date.now() - t1) / 1000;
    await client.query('VACUUM ANALYZE');
    const counts = (
      await client.query(
        `SELECT (SELECT SUM(message_count) FROM conversations WHERE owner_id = 1) AS messages,
                (SELECT COUNT(*) FROM conversations WHERE owner_id = 1) AS conversations,
                (SELECT COUNT(*) FROM conversations) AS all_conversations,
                (SELECT COUNT(*) FROM usage_events WHERE owner_id = 1) AS answers,
                (SELECT COUNT(*) FROM leads WHERE owner_id = 1) AS leads,
                (SELECT COUNT(*) FROM analytics_quarters WHERE owner_id = 1) AS quarters,
                (SELECT COUNT(*) FROM analytics_quarters WHERE owner_id = 1 AND bot_id = -1) AS owner_quarters`,
      )
    ).rows[0];
    console.log(
      `# Analytics on ${Number(counts.messages).toLocaleString('en-US')} messages of one owner (PostgreSQL ${version})`,
    );
    console.log(
      `seeded in ${seedSeconds.toFixed(1)} s: ${counts.conversations} conversations of owner 1 ` +
        `(${counts.all_conversations} in all), ${counts.answers} ledger rows, ${counts.leads} leads; ` +
        `rollup of quarter hours migrated and backfilled in ${rollupSeconds.toFixed(1)} s: ` +
        `${counts.quarters} rows of owner 1 (${counts.owner_quarters} of them all bots'); ` +
        `${RUNS} timed runs each after one warm run\n`,
    );

    // A pool as the app's (DATABASE_POOL_SIZE's default, 10): the service's queries run at once.
    pool = new pg.Pool({ connectionString: database.url, max: 10 });
    const dataSource = recordingDataSource(pool);
    // The bots' ownership check (BotsService, one row by primary key) is left out: the bench
    // measures the figures' queries.
    const ownedBots = { assertOwned: () => Promise.resolve() };
    const service = new AnalyticsService(new AnalyticsRepository(dataSource), ownedBots);
    const cases = [
      ['all bots, last 30 days, by day (the default)', {}],
      ['all bots, 90 days, by week', { from: '2026-08-28', to: '2026-11-25', groupBy: 'week' }],
      ['all bots, a whole year (366 days), by week', { from: '2025-11-25', to: '2026-11-25', groupBy: 'week' }],
      [
        'all bots, a whole year, by day, New York',
        { from: '2025-11-25', to: '2026-11-25', timeZone: 'America/New_York' },
      ],
      ['the large bot (half), a year, by week', { botId: '1', from: '2025-11-25', to: '2026-11-25', groupBy: 'week' }],
      ['a small bot, 30 days', { botId: '3' }],
      ['all bots, 30 days, Kolkata (+05:30)', { timeZone: 'Asia/Kolkata' }],
      [
        'all bots, a whole year, by week, Kolkata (+05:30)',
        { from: '2025-11-25', to: '2026-11-25', groupBy: 'week', timeZone: 'Asia/Kolkata' },
      ],
      [
        'all bots, a whole year, by day, Kathmandu (+05:45)',
        { from: '2025-11-25', to: '2026-11-25', timeZone: 'Asia/Kathmandu' },
      ],
    ];
    const summary = [];
    for (const [label, ask] of cases) {
      const call = () => service.analytics(OWNER, ask, NOW);
      const timing = await timeRuns(call, RUNS);
      dataSource.recorded.length = 0;
      const result = await call();
      const queries = dataSource.recorded.splice(0);
      summary.push({ query: label, conversations: result.totals.conversations, queries: queries.length, ...timing });
      console.log(
        `### ${label}: ${result.totals.conversations} conversations, ${queries.length} queries, ` +
          `median ${timing.median.toFixed(2)} ms, p95 ${timing.p95.toFixed(2)} ms`,
      );
      console.log(await explainRecorded(client, queries));
      console.log('');
    }
    console.log(
      '\n## Timings (ms, whole call: every query of one GET /api/analytics, client round trips on localhost)\n',
    );
    printTable(
      [
        ['call', (s) => s.query],
        ['conversations', (s) => s.conversations],
        ['queries', (s) => s.queries],
        ...TIMING_COLUMNS,
      ],
      summary,
    );
  } finally {
    await client.end().catch(() => undefined);
    await pool?.end().catch(() => undefined);
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
