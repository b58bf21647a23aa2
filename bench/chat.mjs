#!/usr/bin/env node
/**
 * Throughput and latency of the chat path (POST /api/chat, offline demo model), on the embedded
 * PGlite and on a PostgreSQL server in turn, with a bare Nest route (GET /api/health, one
 * `SELECT 1`) measured the same way in the same run for the framework + database overhead.
 *
 *   npm run build -w backend && node bench/chat.mjs [requests=2000] [concurrency=20]
 *
 * Each engine: the built app is started on a fresh database (migrations run), stopped, seeded
 * with an owner (paid, 500 cents of credits) and a bot with a 20-passage document, started
 * again; then `requests` messages are sent at a fixed `concurrency`, each from its own visitor,
 * as JSON (the SSE variant is measured too). Every answer must be 200, and the ledger must hold
 * exactly one usage row per answer. Besides wall-clock figures (which depend on what else the
 * machine runs), the app process's CPU time per request is read from /proc: with PGlite it
 * includes the database's work, with a server it does not. Rate limits are raised for the run; the offline model's
 * per-word delay is 0 (BENCH_WORD_DELAY_MS to change), so the figures are the engine's cost, not
 * a simulated model's. Env: BENCH_DATABASE_URL (default the local server); BENCH_ENGINE=pglite or
 * postgres to run one of them; BENCH_KEEP_PROFILE=<path prefix> to keep the CPU profile
 * (<prefix>-<pid>.cpuprofile, for Chrome's DevTools); BENCH_BACKEND_DIST to run another build.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { fileURLToPath } from 'node:url';
import { BACKEND_DIST, requireBuiltBackend, startBuiltApp, UNLIMITED_CHAT_ENV } from './support/app.mjs';
import { createThrowawayDatabase, LOCAL_SERVER_URL } from './support/database.mjs';

const REQUESTS = Number(process.argv[2] ?? 2000);
const CONCURRENCY = Number(process.argv[3] ?? 20);
const WORD_DELAY = process.env.BENCH_WORD_DELAY_MS ?? '0';
const serverBase = process.env.BENCH_DATABASE_URL ?? LOCAL_SERVER_URL;
requireBuiltBackend();

const SEED = `
  WITH owner AS (
    INSERT INTO users (email, password_hash, email_verified_at, stripe_customer_id, stripe_subscription_id,
                       subscription_item_id, has_paid, credits_cents)
    VALUES ('bench-owner@example.com', '!', now(), 'cus_bench', 'sub_bench', 'si_bench', true, 500)
    RETURNING id
  )
  INSERT INTO bots (owner_id, name, api_key, prompt, custom_greeting, model, allowed_domain, bubble_icon, bubble_color,
    bubble_text_color, bubble_border_radius, chat_window_border_radius, banner_color, banner_text_color,
    banner_disclaimer, placeholder_text, placeholder_text_color, send_button_color, send_arrow_color,
    widget_bubble_color, assistant_bubble_color, assistant_bubble_text_color, widget_background_color, animation,
    widget_position, max_tokens, temperature, usage_limit_dollars)
  SELECT id, 'Bench Bot', '${crypto.randomBytes(24).toString('hex')}',
    'You are the Northwind helper. Our shop opens at 9 am on weekdays.', 'Hi!', 'gpt-3.5-turbo', '', '',
    'c', 'c', '50%', '10px', 'c', 'c', '', 'Type', 'c', 'c', 'c', 'c', 'c', 'c', 'c', 'none', 'right', 300, 0.3,
    1000000
  FROM owner RETURNING id`;

function chunksSql(botId) {
  const topics = [
    'refunds',
    'shipping',
    'warranty',
    'sizes',
    'payments',
    'returns',
    'tents',
    'boots',
    'jackets',
    'gifts',
  ];
  const values = Array.from({ length: 20 }, (_, i) => {
    const topic = topics[i % topics.length];
    const text =
      `Page ${i + 1} is about ${topic}. Our ${topic} policy: customers asking about ${topic} get an answer within ${i + 2} days. `.repeat(
        8,
      );
    return `(currval(pg_get_serial_sequence('bot_documents', 'id')), currval(pg_get_serial_sequence('bot_sources', 'id')), ${botId}, ${i + 1}, ${i}, '${text}')`;
  });
  return [
    `INSERT INTO bot_documents (bot_id, original_name, storage_key, file_path, size_bytes, page_count)
     VALUES (${botId}, 'guide.pdf', 'bench-key', '/uploads/bench.pdf', 1000, 20)`,
    `INSERT INTO bot_sources (bot_id, kind, name, status, format, pages, chunks, bytes, storage_key, is_reference)
     VALUES (${botId}, 'file', 'guide.pdf', 'ready', 'pdf', 20, 20, 1000, 'bench-key', true)`,
    `INSERT INTO document_chunks (document_id, source_id, bot_id, page, ordinal, content) VALUES ${values.join(', ')}`,
  ];
}

const PROBE = fileURLToPath(new URL('./support/probe.cjs', import.meta.url));

/**
 * The built app with the offline model and chat limits out of the way; `env` on top. The probe
 * (support/probe.cjs) is preloaded: it counts the database round trips and records a CPU profile
 * on signal, into `probeDir`.
 */
async function startApp(env) {
  const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-probe-'));
  const app = await startBuiltApp({
    env: {
      OPENAI_API_KEY: '',
      OFFLINE_MODEL_WORD_DELAY_MS: WORD_DELAY,
      ...UNLIMITED_CHAT_ENV,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${PROBE}`.trim(),
      BENCH_PROBE_DIR: probeDir,
      BENCH_BACKEND_DIR: BACKEND_DIST,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    await app.stop();
    fs.rmSync(probeDir, { recursive: true, force: true });
  };
  return { base: app.base, pid: app.child.pid, child: app.child, probeDir, stop };
}

/** Waits for the probe to write `file` after `signal`; its content. */
async function probe({ child, probeDir }, signal, file) {
  const target = path.join(probeDir, file);
  fs.rmSync(target, { force: true });
  child.kill(signal);
  for (let i = 0; i < 600; i++) {
    if (fs.existsSync(target)) {
      await new Promise((resolve) => setTimeout(resolve, 50)); // written whole
      return fs.readFileSync(target, 'utf8');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the probe did not write ${file}`);
}

/** The app's database round trips so far (every query of its `pg` clients). */
const roundTrips = async (app) => Number(await probe(app, 'SIGWINCH', 'count'));

/** The profile's 10 frames with the most self time: [ms, function, file:line]. */
function topFrames(profile, count = 10) {
  const interval = new Map(); // node id -> sampled ms
  profile.samples.forEach((id, i) => interval.set(id, (interval.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byFrame = new Map();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '~/')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'}\t${where}`;
    byFrame.set(key, (byFrame.get(key) ?? 0) + (interval.get(node.id) ?? 0));
  }
  const total = [...byFrame.values()].reduce((a, b) => a + b, 0);
  return [...byFrame.entries()]
    .filter(([key]) => !key.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => [ms, ...key.split('\t'), (ms / total) * 100]);
}

/**
 * `total` JSON messages under the CPU profiler; prints the top frames by self time, as a share of
 * the samples and as that share of the app CPU per message measured over the same run (the
 * samples are wall-clock: on a loaded machine their own milliseconds include time waiting for a core).
 */
async function profiled(app, total, send) {
  await probe(app, 'SIGUSR2', 'started');
  const before = cpuMs(app.pid);
  await load(total, CONCURRENCY, send);
  const cpuPerMessage = (cpuMs(app.pid) - before) / total;
  const { profile } = JSON.parse(await probe(app, 'SIGUSR2', 'probe-1.json'));
  if (process.env.BENCH_KEEP_PROFILE)
    fs.writeFileSync(`${process.env.BENCH_KEEP_PROFILE}-${app.pid}.cpuprofile`, JSON.stringify(profile));
  console.log(
    `  CPU profile of ${total} JSON messages (${cpuPerMessage.toFixed(2)} ms of app CPU each, profiler on), top 10 frames by self time:`,
  );
  for (const [, fn, where, share] of topFrames(profile)) {
    const ms = (share / 100) * cpuPerMessage;
    console.log(`    ${share.toFixed(1).padStart(5)} %  ${ms.toFixed(3).padStart(6)} ms/msg  ${fn}  ${where}`);
  }
}

/** Fires `total` requests, `concurrency` at a time; returns latencies (ms), wall time and failures. */
async function load(total, concurrency, send) {
  const latencies = [];
  const failures = new Map();
  let next = 0;
  const started = performance.now();
  async function worker() {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      const status = await send(i).catch((e) => `error ${e.cause?.code ?? e.message}`);
      latencies.push(performance.now() - t0);
      if (status !== 200) failures.set(status, (failures.get(status) ?? 0) + 1);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, wallMs: performance.now() - started, failures };
}

/** CPU time (user + system, ms) the app process has used so far (Linux /proc). */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in 1/100 s ticks
  } catch {
    return NaN;
  }
}

async function timed(pid, total, concurrency, send) {
  const before = cpuMs(pid);
  const result = await load(total, concurrency, send);
  result.cpuPerRequest = (cpuMs(pid) - before) / total;
  return result;
}

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function report(label, { latencies, wallMs, failures, cpuPerRequest }) {
  const s = [...latencies].sort((a, b) => a - b);
  const rps = (latencies.length / wallMs) * 1000;
  const fails = failures.size ? `  FAILURES ${JSON.stringify(Object.fromEntries(failures))}` : '';
  console.log(
    `  ${label.padEnd(30)} ${rps.toFixed(0).padStart(6)} req/s   p50 ${pct(s, 50).toFixed(1).padStart(6)} ms   ` +
      `p90 ${pct(s, 90).toFixed(1).padStart(6)}   p99 ${pct(s, 99).toFixed(1).padStart(6)}   max ${s.at(-1).toFixed(1).padStart(6)}   ` +
      `app CPU ${cpuPerRequest.toFixed(2)} ms/req${fails}`,
  );
  return cpuPerRequest;
}

const QUESTIONS = [
  'How long do refunds take?',
  'Do you ship to Canada?',
  'When does the shop open?',
  'What sizes of boots?',
];

async function measure(app, botId) {
  const { base, pid } = app;
  const health = () => fetch(`${base}/api/health`).then(async (r) => (await r.arrayBuffer(), r.status));
  const chat = (i, sse = false) =>
    fetch(`${base}/api/chat`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-visitor-id': crypto.randomUUID(),
        ...(sse ? { accept: 'text/event-stream' } : {}),
      },
      body: JSON.stringify({ botId, chatHistory: [], prompt: QUESTIONS[i % QUESTIONS.length] }),
    }).then(async (r) => {
      const text = await r.text();
      if (r.status === 200 && sse && !text.includes('event: done')) return 'no done event';
      return r.status;
    });

  await load(100, CONCURRENCY, health); // warm-up
  await load(100, CONCURRENCY, (i) => chat(i));
  const trips0 = await roundTrips(app);
  const hr = await timed(pid, REQUESTS, CONCURRENCY, health);
  const h = report('GET /api/health (bare route)', hr);
  const trips1 = await roundTrips(app);
  const cr = await timed(pid, REQUESTS, CONCURRENCY, (i) => chat(i));
  const c = report('POST /api/chat (JSON)', cr);
  const trips2 = await roundTrips(app);
  report('POST /api/chat (SSE)', await timed(pid, Math.round(REQUESTS / 2), CONCURRENCY, (i) => chat(i, true)));
  console.log(`  overhead of the chat path over the bare route: ${(c - h).toFixed(2)} ms of app CPU per request`);
  const rps = (r) => r.latencies.length / r.wallMs;
  console.log(`  JSON chat throughput: ${((rps(cr) / rps(hr)) * 100).toFixed(0)} % of the bare route's`);
  console.log(
    `  database round trips per request: bare route ${((trips1 - trips0) / REQUESTS).toFixed(2)}, ` +
      `chat message ${((trips2 - trips1) / REQUESTS).toFixed(2)} (counted over the run, background work included)`,
  );
  const profiledMessages = Math.round(REQUESTS / 2);
  await profiled(app, profiledMessages, (i) => chat(i));
  return 100 + REQUESTS + Math.round(REQUESTS / 2) + profiledMessages;
}

async function pgliteRun() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-chat-'));
  try {
    let app = await startApp({ DATA_DIR: dir, DATABASE_URL: '' });
    await app.stop();
    const db = await PGlite.create({ dataDir: path.join(dir, 'pgdata') });
    const botId = (await db.query(SEED)).rows[0].id;
    for (const sql of chunksSql(botId)) await db.query(sql);
    await db.close();

    app = await startApp({ DATA_DIR: dir, DATABASE_URL: '' });
    console.log(`\nPGlite (embedded, pool of 1)`);
    const sent = await measure(app, botId);
    await app.stop();

    const check = await PGlite.create({ dataDir: path.join(dir, 'pgdata') });
    const rows = (await check.query(`SELECT COUNT(*)::int AS n FROM usage_events WHERE bot_id = $1`, [botId])).rows[0]
      .n;
    await check.close();
    console.log(
      `  ledger: ${rows} usage rows for ${sent} chat requests sent ${rows === sent ? '(one per answer)' : '(MISMATCH)'}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresRun() {
  const database = await createThrowawayDatabase(serverBase, 'botsmith_bench_chat');
  const url = database.url;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-chat-'));
  try {
    let app = await startApp({ DATA_DIR: dir, DATABASE_URL: url });
    await app.stop();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const botId = (await client.query(SEED)).rows[0].id;
    for (const sql of chunksSql(botId)) await client.query(sql);

    app = await startApp({ DATA_DIR: dir, DATABASE_URL: url });
    console.log(`\nPostgreSQL server (pool ${process.env.DATABASE_POOL_SIZE ?? 10})`);
    const sent = await measure(app, botId);
    await app.stop();
    const rows = (await client.query(`SELECT COUNT(*)::int AS n FROM usage_events WHERE bot_id = $1`, [botId])).rows[0]
      .n;
    await client.end();
    console.log(
      `  ledger: ${rows} usage rows for ${sent} chat requests sent ${rows === sent ? '(one per answer)' : '(MISMATCH)'}`,
    );
  } finally {
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `bench/chat: ${REQUESTS} requests per route at concurrency ${CONCURRENCY}, offline model word delay ${WORD_DELAY} ms, ` +
    `Node ${process.version}, ${os.cpus().length} CPUs (load generator on the same machine)`,
);
const ENGINE = process.env.BENCH_ENGINE; // 'pglite' or 'postgres' for one of them; both by default
if (ENGINE !== 'postgres') await pgliteRun();
try {
  if (ENGINE !== 'pglite') await postgresRun();
} catch (error) {
  console.log(`\nPostgreSQL server: skipped (${String(error.message).split('\n')[0]})`);
}
