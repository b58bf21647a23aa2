#!/usr/bin/env node
/**
 * Memory of the logs download: is the .xlsx really streamed?
 *
 *   npm run build -w backend && node bench/logs-export.mjs
 *   (DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/postgres; BENCH_MESSAGES=200000)
 *
 * Seeds one owner's chat log (BENCH_MESSAGES messages of ~300 characters) in a throw-away
 * database, then writes it with the app's own LogsExportService (backend/dist) into
 *   1. a fast sink (a client that reads as fast as we write), and
 *   2. a slow sink (a client reading 4 MB/s through a 64 KB socket-sized buffer),
 * sampling the process's RSS and heap every 50 ms; then, for comparison, builds the same rows
 * with exceljs's in-memory Workbook (what "not streamed" would cost). Prints peak memory above
 * the baseline, the file size and the time. The database is dropped at the end.
 * Peaks include garbage not yet collected; the proof of bounded memory is that the streamed
 * export also completes under a small heap: BENCH_COMPARE=0 node --max-old-space-size=48 ...
 */
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { createThrowawayDatabase, LOCAL_SERVER_URL } from './support/database.mjs';

const { LogsExportService } = await import('../backend/dist/modules/usage/logs-export.service.js');
const { UsageRepository } = await import('../backend/dist/modules/usage/usage.repository.js');

const BASE_URL = process.env.DATABASE_URL || LOCAL_SERVER_URL;
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200_000);
const OWNER = 1;

const SCHEMA = `
  SET TIME ZONE 'UTC';
  CREATE TABLE conversations (
    id SERIAL PRIMARY KEY, owner_id integer NOT NULL, bot_id integer, bot_name varchar(100) NOT NULL,
    visitor_id varchar(64) NOT NULL, page_url varchar(2048), created_at timestamptz NOT NULL DEFAULT now());
  CREATE INDEX conversations_owner_idx ON conversations (owner_id, created_at);
  CREATE TABLE messages (
    id SERIAL PRIMARY KEY, conversation_id integer NOT NULL REFERENCES conversations(id), owner_id integer NOT NULL,
    role varchar(16) NOT NULL, content text NOT NULL, model varchar(32), tokens integer NOT NULL DEFAULT 0,
    cost_cents integer NOT NULL DEFAULT 0, created_at timestamptz NOT NULL DEFAULT now());
  CREATE INDEX messages_conversation_idx ON messages (conversation_id, id);
  CREATE INDEX messages_owner_idx ON messages (owner_id, created_at);
`;

function mb(bytes) {
  return (bytes / 1024 / 1024).toFixed(1);
}

/** Samples memory while `work` runs; answers the peaks above the level before it started. */
async function measure(work) {
  global.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed + base.external + base.arrayBuffers;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed + m.external + m.arrayBuffers);
  }, 50);
  const start = Date.now();
  try {
    const result = await work();
    return {
      ...result,
      seconds: (Date.now() - start) / 1000,
      rssMb: mb(peakRss - base.rss),
      heapMb: mb(peakHeap - (base.heapUsed + base.external + base.arrayBuffers)),
    };
  } finally {
    clearInterval(timer);
  }
}

/** A client: counts bytes; with a rate, drains its 64 KB buffer no faster than `bytesPerSecond`. */
function sink(bytesPerSecond) {
  let bytes = 0;
  const stream = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk, _encoding, done) {
      bytes += chunk.length;
      if (!bytesPerSecond) return done();
      setTimeout(done, (chunk.length / bytesPerSecond) * 1000);
    },
  });
  const finished = new Promise((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  return { stream, finished, bytes: () => bytes };
}

async function main() {
  const database = await createThrowawayDatabase(BASE_URL, 'botsmith_bench_logs');
  const pool = new pg.Pool({ connectionString: database.url, max: 2, options: '-c timezone=UTC' });
  pool.on('error', () => undefined); // idle connections cut by DROP DATABASE ... WITH (FORCE)
  try {
    await pool.query(SCHEMA);
    await pool.query(
      `INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id, created_at)
       SELECT ${OWNER}, 1 + g % 5, 'Bot ' || (1 + g % 5), md5(g::text), TIMESTAMPTZ '2026-11-01' + g * INTERVAL '1 minute'
         FROM generate_series(1, ${Math.ceil(MESSAGES / 10)}) AS g`,
    );
    await pool.query(
      `INSERT INTO messages (conversation_id, owner_id, role, content, model, tokens, cost_cents, created_at)
       SELECT 1 + (g / 10), ${OWNER}, CASE WHEN g % 2 = 0 THEN 'user' ELSE 'assistant' END,
              repeat(md5(g::text) || ' & <b>', 8), 'gpt-4o', g % 500, CASE WHEN g % 2 = 0 THEN 0 ELSE 5 END,
              TIMESTAMPTZ '2026-11-01' + g * INTERVAL '1 second'
         FROM generate_series(0, ${MESSAGES - 1}) AS g`,
    );
    await pool.query('VACUUM ANALYZE messages');
    await pool.query('VACUUM ANALYZE conversations');

    // The app's repository, given the one DataSource method it uses.
    const seen = [];
    const repository = new UsageRepository({
      query: (sql, params) => {
        seen.push({ sql, params });
        return pool.query(sql, params).then((r) => r.rows);
      },
    });
    const clock = { now: () => new Date('2026-11-22T12:00:00Z') };
    const service = new LogsExportService(repository, clock);

    const streamed = async (bytesPerSecond) =>
      measure(async () => {
        const client = sink(bytesPerSecond);
        const prepared = await service.prepare(OWNER);
        await prepared.writeTo(client.stream);
        await client.finished;
        return { bytes: client.bytes() };
      });

    const fast = await streamed(0);
    const slow = await streamed(4 * 1024 * 1024);

    // BENCH_COMPARE=0 skips the in-memory build (e.g. to run the streamed export under a small --max-old-space-size).
    const inMemory =
      process.env.BENCH_COMPARE === '0'
        ? null
        : await measure(async () => {
            const workbook = new ExcelJS.Workbook();
            const sheet = workbook.addWorksheet('Logs');
            let after = null;
            for (;;) {
              const batch = await repository.findLogBatch(OWNER, after, 1000);
              for (const r of batch) {
                sheet.addRow([
                  r.createdAt,
                  r.botName,
                  r.conversationId,
                  r.role,
                  r.content,
                  r.model,
                  r.tokens,
                  r.costCents / 100,
                ]);
              }
              if (batch.length < 1000) break;
              after = { cursorAt: batch.at(-1).cursorAt, id: batch.at(-1).id };
            }
            const buffer = await workbook.xlsx.writeBuffer();
            return { bytes: buffer.byteLength };
          });

    // The plan of one keyset batch in the middle of the log (the query the export repeats).
    const middle = seen.filter((q) => q.params.length === 4)[
      Math.floor(seen.filter((q) => q.params.length === 4).length / 2)
    ];
    const plan = middle
      ? (await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${middle.sql}`, middle.params)).rows.map((r) => r['QUERY PLAN'])
      : [];

    console.log(`# Logs download of ${MESSAGES.toLocaleString('en-US')} messages (Node ${process.version})\n`);
    console.log('| how | file | time | peak RSS above baseline | peak JS heap+buffers above baseline |');
    console.log('|---|---|---|---|---|');
    for (const [label, r] of [
      ['LogsExportService, fast client', fast],
      ['LogsExportService, slow client (4 MB/s)', slow],
      ['exceljs in-memory Workbook (for comparison)', inMemory],
    ]) {
      if (!r) continue;
      console.log(`| ${label} | ${mb(r.bytes)} MB | ${r.seconds.toFixed(1)} s | ${r.rssMb} MB | ${r.heapMb} MB |`);
    }
    console.log('\n## One keyset batch (1000 messages) in the middle of the log\n');
    console.log(plan.join('\n'));
  } finally {
    await pool.end().catch(() => undefined);
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
