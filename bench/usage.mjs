#!/usr/bin/env node
/**
 * Usage-query benchmark on a million-row ledger.
 *
 *   npm run build -w backend && node bench/usage.mjs
 *   (DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/postgres)
 *   BENCH_ROWS=200000 node bench/usage.mjs   (a smaller ledger)
 *
 * Creates a throw-away database, seeds `usage_events` (same columns and indexes as the
 * migrations) with BENCH_ROWS rows across many owners and bots over two billing periods, plus one
 * very large owner, then calls the app's own UsageRepository (backend/dist: the period sums and
 * the daily history of an owner and of a bot) and prints the EXPLAIN (ANALYZE, BUFFERS) plans of
 * the queries it sent and the calls' timings:
 *   1. with the initial schema's indexes (owner_id, created_at) and (bot_id, created_at);
 *   2. with the covering indexes of migration 1795306042000-usage-read-indexes
 *      (same keys, INCLUDE (price_cents, total_tokens)), which allow index-only scans.
 * The database is dropped at the end, also after a failure.
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
const { UsageRepository } = await loadBuilt('modules/usage/usage.repository.js');

const BASE_URL = process.env.DATABASE_URL || LOCAL_SERVER_URL;
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const OWNERS = Number(process.env.BENCH_OWNERS ?? 2_000);
const BOTS_PER_OWNER = 5;
/** Share of the rows that belong to one very large owner (owner 1, mostly its bot 1). */
const WHALE_SHARE = 0.1;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

/** The clock of the benchmark: the current period started on 2026-11-03; the previous on 2026-10-03. */
const NOW = new Date('2026-11-22T12:00:00Z');
const LEDGER_FROM = new Date('2026-10-03T00:00:00Z');
const PERIOD = { from: new Date('2026-11-03T00:00:00Z'), to: new Date('2026-12-03T00:00:00Z') };
const HISTORY = { from: new Date('2026-11-13T00:00:00Z'), to: new Date('2026-11-23T00:00:00Z') };

// ---- schema: usage_events as the migrations define it (FKs left out: only the ledger is seeded) --
const SCHEMA = `
  SET TIME ZONE 'UTC';
  CREATE TABLE usage_events (
    id SERIAL PRIMARY KEY,
    owner_id integer NOT NULL,
    bot_id integer,
    message_id integer,
    model_tier varchar(32) NOT NULL,
    upstream_model varchar(100) NOT NULL,
    price_cents integer NOT NULL,
    prompt_tokens integer NOT NULL DEFAULT 0,
    completion_tokens integer NOT NULL DEFAULT 0,
    total_tokens integer NOT NULL DEFAULT 0,
    credits_cents integer NOT NULL,
    billable_cents integer NOT NULL,
    period_start date NOT NULL,
    report_identifier varchar(64) NOT NULL,
    reported_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT usage_events_split_check CHECK (credits_cents >= 0 AND billable_cents >= 0 AND credits_cents + billable_cents = price_cents)
  );
  CREATE INDEX usage_events_owner_time_idx ON usage_events (owner_id, created_at);
  CREATE INDEX usage_events_bot_time_idx ON usage_events (bot_id, created_at);
  CREATE INDEX usage_events_unreported_idx ON usage_events (period_start) WHERE reported_at IS NULL AND billable_cents > 0;
  CREATE UNIQUE INDEX usage_events_report_identifier_key ON usage_events (report_identifier);
`;

/** What migration 1795306042000-usage-read-indexes does. */
const COVERING = `
  DROP INDEX usage_events_owner_time_idx;
  CREATE INDEX usage_events_owner_time_idx ON usage_events (owner_id, created_at) INCLUDE (price_cents, total_tokens);
  DROP INDEX usage_events_bot_time_idx;
  CREATE INDEX usage_events_bot_time_idx ON usage_events (bot_id, created_at) INCLUDE (price_cents, total_tokens);
`;

/**
 * Rows in time order (the ledger is append-only), so each owner's rows are spread over the whole
 * table as in production. Owner o has bots (o-1)*5+1 .. o*5. Prices are the tiers' 3/4/5 cents.
 */
function seedSql(rows, offset, ownerExpr, botExpr) {
  const spanSeconds = (NOW.getTime() - LEDGER_FROM.getTime()) / 1000;
  return `
    INSERT INTO usage_events (owner_id, bot_id, model_tier, upstream_model, price_cents, prompt_tokens,
                              completion_tokens, total_tokens, credits_cents, billable_cents, period_start,
                              report_identifier, created_at)
    SELECT owner_id, bot_id, 'gpt-4o', 'gpt-4o', price, pt, ct, pt + ct, 0, price,
           CASE WHEN at >= '${PERIOD.from.toISOString()}' THEN DATE '2026-11-03' ELSE DATE '2026-10-03' END,
           'bench_' || (g + ${offset}), at
      FROM (
        SELECT g, ${ownerExpr} AS owner_id, ${botExpr} AS bot_id,
               3 + (g % 3) AS price, 50 + (g * 7919 % 400) AS pt, 20 + (g * 104729 % 300) AS ct,
               TIMESTAMPTZ '${LEDGER_FROM.toISOString()}' + make_interval(secs => random() * ${spanSeconds}) AS at
          FROM generate_series(1::bigint, ${rows}) AS g
      ) s
     ORDER BY at`;
}

async function main() {
  const database = await createThrowawayDatabase(BASE_URL, 'botsmith_bench');
  const client = new pg.Client({ connectionString: database.url });
  try {
    await client.connect();
    await client.query(SCHEMA);
    const version = (await client.query('SHOW server_version')).rows[0].server_version;

    const whaleRows = Math.round(ROWS * WHALE_SHARE);
    const t0 = Date.now();
    // Owner 1 ("whale"): 60% of its rows on bot 1, the rest on bots 2..5.
    await client.query(seedSql(whaleRows, 0, '1', `CASE WHEN g % 10 < 6 THEN 1 ELSE 2 + (g % 4) END`));
    // Everyone else: owners 2..OWNERS, 5 bots each.
    await client.query(
      seedSql(
        ROWS - whaleRows,
        whaleRows,
        `2 + (g * 7 % ${OWNERS - 1})`,
        `(2 + (g * 7 % ${OWNERS - 1}) - 1) * ${BOTS_PER_OWNER} + 1 + (g % ${BOTS_PER_OWNER})`,
      ),
    );
    await client.query('VACUUM ANALYZE usage_events');
    const seedSeconds = (Date.now() - t0) / 1000;

    const counts = (
      await client.query(
        `SELECT COUNT(*) AS total,
                COUNT(*) FILTER (WHERE created_at >= $1) AS current_period,
                COUNT(DISTINCT owner_id) AS owners, COUNT(DISTINCT bot_id) AS bots,
                pg_size_pretty(pg_total_relation_size('usage_events')) AS size
           FROM usage_events`,
        [PERIOD.from],
      )
    ).rows[0];
    const typicalOwner = 1000;
    const typicalBot = (typicalOwner - 1) * BOTS_PER_OWNER + 1;
    const perOwner = (
      await client.query(
        `SELECT COUNT(*) FILTER (WHERE owner_id = 1 AND created_at >= $1) AS whale_period,
                COUNT(*) FILTER (WHERE bot_id = 1 AND created_at >= $1) AS whale_bot_period,
                COUNT(*) FILTER (WHERE owner_id = $2 AND created_at >= $1) AS typical_period,
                COUNT(*) FILTER (WHERE bot_id = $3 AND created_at >= $1) AS typical_bot_period
           FROM usage_events`,
        [PERIOD.from, typicalOwner, typicalBot],
      )
    ).rows[0];

    console.log(
      `# Usage queries on a ${Number(counts.total).toLocaleString('en-US')}-row ledger (PostgreSQL ${version})`,
    );
    console.log(
      `seeded in ${seedSeconds.toFixed(1)} s: ${counts.owners} owners, ${counts.bots} bots, ` +
        `${counts.current_period} rows in the current period, table+indexes ${counts.size}`,
    );
    console.log(
      `typical owner ${typicalOwner}: ${perOwner.typical_period} rows this period (bot ${typicalBot}: ${perOwner.typical_bot_period}); ` +
        `large owner 1: ${perOwner.whale_period} rows this period (bot 1: ${perOwner.whale_bot_period})`,
    );
    console.log(
      `clock: ${NOW.toISOString()}; period [${PERIOD.from.toISOString()}, ${PERIOD.to.toISOString()}); ` +
        `history [${HISTORY.from.toISOString()}, ${HISTORY.to.toISOString()}); ${RUNS} timed runs each after one warm run\n`,
    );

    const cases = [
      ['user usage (period sum)', 'sumOwnerPriceCents', typicalOwner, PERIOD],
      ['user usage-history (10 days)', 'dailyOwnerUsage', typicalOwner, HISTORY],
      ['bot usage (period sum)', 'sumBotPriceCents', typicalBot, PERIOD],
      ['bot usage-history (10 days)', 'dailyBotUsage', typicalBot, HISTORY],
      ['LARGE owner: user usage (period sum)', 'sumOwnerPriceCents', 1, PERIOD],
      ['LARGE owner: user usage-history', 'dailyOwnerUsage', 1, HISTORY],
      ['LARGE bot: bot usage (period sum)', 'sumBotPriceCents', 1, PERIOD],
      ['LARGE bot: bot usage-history', 'dailyBotUsage', 1, HISTORY],
    ];

    const dataSource = recordingDataSource(client);
    const repository = new UsageRepository(dataSource);
    const summary = [];
    for (const [label, indexes] of [
      ['initial indexes (owner_id, created_at), (bot_id, created_at)', null],
      ['covering indexes ... INCLUDE (price_cents, total_tokens)', COVERING],
    ]) {
      if (indexes) {
        await client.query(indexes);
        await client.query('VACUUM ANALYZE usage_events');
      }
      console.log(`\n## ${label}\n`);
      for (const [name, method, id, window] of cases) {
        const timing = await timeRuns(() => repository[method](id, window), RUNS);
        dataSource.recorded.length = 0;
        await repository[method](id, window);
        const plan = await explainRecorded(client, dataSource.recorded.splice(0));
        summary.push({ indexes: indexes ? 'covering' : 'initial', query: name, ...timing });
        console.log(`### ${name}: median ${timing.median.toFixed(2)} ms, p95 ${timing.p95.toFixed(2)} ms`);
        console.log(plan);
        console.log('');
      }
    }

    console.log('\n## Timings (ms, client round trip on localhost)\n');
    printTable([['indexes', (s) => s.indexes], ['query', (s) => s.query], ...TIMING_COLUMNS], summary);
  } finally {
    await client.end().catch(() => undefined);
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
