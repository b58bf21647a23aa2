#!/usr/bin/env node
/**
 * Retrieval quality and speed over a small business's knowledge (bench/retrieval/).
 *
 *   npm run build -w backend && node bench/retrieval.mjs
 *   (TEST_DATABASE_URL=postgresql://... for a PostgreSQL server, else the embedded PGlite;
 *    BENCH_CHUNKS=10000 passages on the large bot; BENCH_ROUNDS=3 timed passes over the questions)
 *
 * The real app (backend/dist, the same `createApp` as `npm start`) is started in this process on
 * a throw-away database, with CRAWL_ALLOW_PRIVATE=true. An owner signs in and, through the HTTP
 * API, gives a bot the sources of a Bristol cafe and kitchen shop: a PDF (a four-page warranty,
 * drawn from documents/warranty.txt), a Word document (the staff handbook, one paragraph a line
 * of documents/staff-handbook.txt), a Markdown menu, a CSV product catalogue, an HTML returns
 * policy, a TXT of opening hours and FAQs, a written answer (the loyalty card) and a website of
 * seven pages (site/*.html, served on 127.0.0.1 by this bench with navigation, footer, robots.txt
 * and a sitemap), and waits until every source is ready.
 *
 * Each question of retrieval/questions.json names the source that answers it (the PDF page, the
 * site's path); `also` lists other sources that answer it as well. Every question is put to the
 * retrieval the chat uses (KnowledgeSearchService, which gives the chat its 4 passages; the bench
 * asks for 5), and a question is a hit at k when one of the first k passages comes from that
 * source (that page, that URL). Prints hit@1, hit@5 and MRR (over the five), also at source level
 * (any page), by phrasing ("keyword": the question shares the source's words; "paraphrase": it
 * mostly does not) and by source, and lists the misses. The chat's JSON answer cites only the
 * passage the offline model quotes, so the ranked list is read from the service in this process.
 *
 * Then a second bot gets the same sources plus filler files (templated catalogue entries, recipes
 * and meeting notes of the same trade, so they share the questions' words) up to BENCH_CHUNKS
 * passages, vacuumed and analysed (as autovacuum would soon after), and the questions are timed
 * there after one warm-up pass: p50/p95 wall-clock per query inside the app, and CPU per query of
 * this process and (on a local server) of the database's backends (with the job poller's queries),
 * read from /proc, because wall-clock time depends on what else the machine runs (the load average
 * is printed).
 *
 * Full-text is what the service answers without an embeddings model (KnowledgeSearchService.fullText:
 * the question's words and, weighted lower, their English synonyms from WordNet); "words only" is
 * PassagesRepository.search on the question's words alone, as before the synonyms, for comparison.
 * Hybrid is the service itself with OPENAI_EMBEDDING_MODEL set: vector similarity fused with the
 * full-text rank. Its embeddings come from the test suites' deterministic server
 * (backend/test/support/embeddings-server.ts: hashed word and trigram features, here without a
 * synonym list) on 127.0.0.1, so they measure the fusion and the vector path, not what a real
 * model understands; every passage has its vector before the questions are asked.
 *
 * BENCH_KEEP_DATABASE=1 keeps a PostgreSQL server's database for EXPLAIN ANALYZE afterwards.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { makeDocx } from '../backend/test/support/word-document.mjs';

const dist = path.resolve('backend/dist');
if (!fs.existsSync(path.join(dist, 'modules/knowledge/knowledge-search.service.js'))) {
  console.error('backend/dist is missing the knowledge module: run `npm run build -w backend` first.');
  process.exit(1);
}
const here = path.resolve('bench/retrieval');
const { createApp } = await import(path.join(dist, 'app.setup.js'));
const { buildConfig } = await import(path.join(dist, 'config/config.js'));
const { EmbeddedPostgres } = await import(path.join(dist, 'database/embedded-postgres.js'));
const { hashPassword } = await import(path.join(dist, 'modules/auth/passwords.js'));
const { KnowledgeSearchService, citationOf } = await import(
  path.join(dist, 'modules/knowledge/knowledge-search.service.js')
);
const { PassagesRepository } = await import(path.join(dist, 'modules/knowledge/passages.repository.js'));
const { cleanText } = await import(path.join(dist, 'modules/knowledge/chunking.js'));
const { DataSource } = await import('typeorm');

const EMBEDDINGS_SERVER = path.resolve('backend/test/support/embeddings-server.ts');

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOP_K = 5;
const serverBase = process.env.TEST_DATABASE_URL || '';

// ---------------------------------------------------------------- the documents

/** A US Letter PDF, one page per entry, text wrapped at ~95 characters (Helvetica 10). */
async function pdfOf(pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = doc.addPage([612, 792]);
    const lines = [];
    for (const paragraph of text.split('\n')) {
      let line = '';
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        if (line && font.widthOfTextAtSize(`${line} ${word}`, 10) > 530) {
          lines.push(line);
          line = word;
        } else line = line ? `${line} ${word}` : word;
      }
      lines.push(line, '');
    }
    lines.forEach((line, index) => page.drawText(line, { x: 40, y: 750 - index * 13, size: 10, font }));
  }
  return Buffer.from(await doc.save());
}

const read = (name) => fs.readFileSync(path.join(here, 'documents', name));

async function documentFiles() {
  const text = (name) => read(name).toString('utf8');
  return [
    { name: 'warranty.pdf', bytes: await pdfOf(text('warranty.txt').split('===PAGE===\n')) },
    { name: 'staff-handbook.docx', bytes: await makeDocx(text('staff-handbook.txt').trim().split('\n')) },
    { name: 'menu.md', bytes: read('menu.md') },
    { name: 'products.csv', bytes: read('products.csv') },
    { name: 'returns-policy.html', bytes: read('returns-policy.html') },
    { name: 'opening-hours-faq.txt', bytes: read('opening-hours-faq.txt') },
  ];
}
const WRITTEN = { name: 'Loyalty card', text: read('loyalty-card.txt').toString('utf8') };

// ---------------------------------------------------------------- the website

/** site/<name>.html: first line the title, the rest the page's main content. */
function sitePages() {
  const pages = new Map();
  for (const file of fs.readdirSync(path.join(here, 'site')).sort()) {
    const [title, ...main] = fs.readFileSync(path.join(here, 'site', file), 'utf8').split('\n');
    pages.set(file === 'index.html' ? '/' : `/${file.replace(/\.html$/, '')}`, { title, main: main.join('\n') });
  }
  return pages;
}

function startSite() {
  const pages = sitePages();
  const nav = [...pages].map(([p, page]) => `<li><a href="${p}">${page.title.split(' - ')[0]}</a></li>`).join('');
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site.invalid');
    const origin = `http://${request.headers.host}`;
    if (url.pathname === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /basket\n');
      return;
    }
    if (url.pathname === '/sitemap.xml') {
      const urls = [...pages.keys()].map((p) => `<url><loc>${origin}${p}</loc></url>`).join('');
      response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
      return;
    }
    const page = pages.get(url.pathname);
    if (!page) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${page.title}</title></head>
<body><header><a href="/">The Copper Kettle</a><nav><ul>${nav}<li><a href="/basket">Basket</a></li></ul></nav></header>
<main>${page.main}</main>
<footer><p>The Copper Kettle, 14 Harrow Street, Bristol BS1 4QA. Open every day.</p>
<p><a href="/">Home</a> | Follow us on Instagram | Sign up to our newsletter for offers</p></footer></body></html>`);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` })),
  );
}

// ---------------------------------------------------------------- filler passages

/** A deterministic generator, so every run indexes the same filler. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const POOLS = {
  adjective: [
    'classic',
    'everyday',
    'professional',
    'compact',
    'heavy',
    'light',
    'rustic',
    'modern',
    'vintage',
    'large',
  ],
  material: [
    'stainless steel',
    'enamelled steel',
    'bamboo',
    'stoneware',
    'porcelain',
    'glass',
    'beech',
    'silicone',
    'copper',
    'aluminium',
  ],
  item: [
    'roasting tin',
    'teapot',
    'salad bowl',
    'spice rack',
    'colander',
    'grater',
    'sieve',
    'rolling pin',
    'butter dish',
    'milk jug',
    'serving tray',
    'measuring jug',
    'pepper mill',
    'cake stand',
    'ladle',
    'spatula',
    'whisk',
    'mug',
    'storage jar',
    'dinner plate',
  ],
  maker: [
    'a family workshop in Sheffield',
    'a pottery in Cornwall',
    'a foundry in the Midlands',
    'a studio in Portugal',
    'a glassworks in Bohemia',
    'a cooperative in Wales',
  ],
  dish: [
    'leek and potato soup',
    'lemon tart',
    "shepherd's pie",
    'banana bread',
    'mushroom risotto',
    'apple crumble',
    'fish pie',
    'chicken casserole',
    'flapjacks',
    'tomato chutney',
  ],
  note: [
    'supplier meeting',
    'stock take',
    'window display',
    'team meeting',
    'delivery schedule',
    'marketing plan',
    'cleaning rota',
    'budget review',
  ],
};

function fillerPassage(rand, n) {
  const pick = (pool) => pool[Math.floor(rand() * pool.length)];
  const price = (5 + rand() * 120).toFixed(2);
  switch (n % 3) {
    case 0:
      return (
        `Item ${10000 + n}: ${pick(POOLS.adjective)} ${pick(POOLS.material)} ${pick(POOLS.item)}, made by ${pick(POOLS.maker)}. ` +
        `It costs ${price} pounds and is ${rand() < 0.5 ? 'dishwasher safe' : 'best washed by hand'}. ` +
        `Orders usually leave the warehouse within ${1 + Math.floor(rand() * 4)} working days, and the maker guarantees it for ${1 + Math.floor(rand() * 5)} years. ` +
        `Customers say it is ${pick(POOLS.adjective)} and easy to store; it pairs well with our ${pick(POOLS.material)} ${pick(POOLS.item)}. ` +
        `Care: dry it straight after washing, keep it away from direct heat and use a soft cloth rather than a scourer. ` +
        `Gift wrapping is available at checkout for a small charge, and the item can be engraved with up to ten letters. `
      );
    case 1:
      return (
        `Recipe note ${n}: our ${pick(POOLS.dish)} for the blog. Heat the oven to ${160 + Math.floor(rand() * 60)} degrees and prepare a ${pick(POOLS.material)} ${pick(POOLS.item)}. ` +
        `Chop the vegetables, season well, and cook for ${20 + Math.floor(rand() * 60)} minutes, stirring now and then. ` +
        `Serve with bread and a green salad. Leftovers keep for three days in the fridge and freeze well for a month. ` +
        `Readers asked whether it can be made gluten-free: swap the flour for a blend of rice and tapioca flour. ` +
        `Next week we will write about ${pick(POOLS.dish)} and how to choose a good ${pick(POOLS.item)}. `
      );
    default:
      return (
        `Notes from the ${pick(POOLS.note)} number ${n}. Present: the shop team and the kitchen team. ` +
        `We agreed to move the ${pick(POOLS.material)} ${pick(POOLS.item)} display nearer the window and to order ${2 + Math.floor(rand() * 30)} more units before the weekend. ` +
        `Sales of ${pick(POOLS.dish)} in the cafe were up on last month. The card machine needs a new roll of paper. ` +
        `Someone should call the supplier about the late pallet and check the invoice before paying it. ` +
        `The next meeting is on a Tuesday morning before opening, with coffee and pastries for everyone. `
      );
  }
}

/**
 * Filler files of text that make about `count` passages: one source is one page, so sentences are
 * packed into passages of about 1,170 characters (up to 1,200).
 */
function fillerFiles(count) {
  const rand = random(20261123);
  const files = [];
  let lines = [];
  let bytes = 0;
  let total = 0;
  for (let n = 0; total < count * 1170; n += 1) {
    const entry = fillerPassage(rand, n);
    lines.push(entry);
    bytes += entry.length + 1;
    total += entry.length + 1;
    if (bytes > 4_000_000 || total >= count * 1170) {
      files.push({ name: `archive-${files.length + 1}.txt`, bytes: Buffer.from(lines.join('\n')) });
      lines = [];
      bytes = 0;
    }
  }
  return files;
}

// ---------------------------------------------------------------- the app

/**
 * The deterministic embeddings server of the test suites (OpenAI's /v1/embeddings). It is
 * TypeScript; Node 20 cannot strip types, so it is transpiled to a temporary module first.
 */
async function startEmbeddings(dataDir) {
  const ts = (await import('typescript')).default;
  const source = fs.readFileSync(EMBEDDINGS_SERVER, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const file = path.join(dataDir, 'embeddings-server.mjs');
  fs.writeFileSync(file, outputText);
  const { startEmbeddingsServer } = await import(file);
  return startEmbeddingsServer({ host: '127.0.0.1' });
}

async function startApp(dataDir, extraEnv) {
  let embedded;
  let drop;
  let database;
  if (serverBase) {
    const name = `botsmith_bench_retrieval_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverBase });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(serverBase);
    url.pathname = `/${name}`;
    database = { url: url.toString(), embedded: false, poolSize: 10 };
    drop = async () => {
      const client = new pg.Client({ connectionString: serverBase });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    };
  } else {
    embedded = await EmbeddedPostgres.start(dataDir);
    database = { url: embedded.url, embedded: true, poolSize: 1 };
  }
  const env = { ...process.env };
  for (const key of ['DATABASE_URL', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'OPENAI_API_KEY', 'S3_BUCKET', 'REDIS_URL']) {
    delete env[key];
  }
  const config = buildConfig({
    ...env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    RUN_SCHEDULER: 'false',
    CRAWL_ALLOW_PRIVATE: 'true',
    SOURCE_JOBS_POLL_MS: '50',
    SOURCES_MAX_BYTES_PER_BOT: String(200 * 1024 * 1024),
    ...extraEnv,
  });
  const app = await createApp(config, database);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  return {
    app,
    base,
    origin: config.publicUrl,
    engine: serverBase ? 'PostgreSQL server' : 'embedded PGlite',
    async close() {
      await app.close();
      await embedded?.stop();
      if (process.env.BENCH_KEEP_DATABASE === '1' && drop) console.log(`kept database ${database.url}`);
      else await drop?.();
    },
  };
}

/** An owner with a paid plan, signed in: returns a fetch that sends the session cookie. */
async function signIn(t) {
  const email = `bench-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const password = 'Bench!pass1';
  await t.app.get(DataSource).query(
    `INSERT INTO users (email, password_hash, email_verified_at, stripe_customer_id, stripe_subscription_id,
                        subscription_item_id, has_paid, credits_cents)
     VALUES ($1, $2, now(), 'cus_bench', 'sub_bench', 'si_bench', true, 500)`,
    [email, await hashPassword(password)],
  );
  const login = await fetch(`${t.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: t.origin },
    body: JSON.stringify({ email, password }),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return async (route, init = {}) => {
    const response = await fetch(`${t.base}${route}`, {
      ...init,
      headers: { origin: t.origin, cookie, ...(init.headers ?? {}) },
    });
    const body = await response.json().catch(() => null);
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${route}: ${response.status} ${JSON.stringify(body)}`);
    return body;
  };
}

const json = (body) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function uploadFile(api, botId, file) {
  const form = new FormData();
  form.append('file', new Blob([file.bytes]), file.name);
  return (await api(`/api/bots/${botId}/sources/files`, { method: 'POST', body: form })).source;
}

/** Polls the sources list, as the dashboard does, until none is processing; fails on a failed one. */
async function allReady(api, botId) {
  for (;;) {
    const { sources } = await api(`/api/bots/${botId}/sources`);
    const failed = sources.find((s) => s.status === 'failed');
    if (failed) throw new Error(`${failed.name} failed: ${failed.error}`);
    if (sources.every((s) => s.status === 'ready')) return sources;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function botWithSources(api, name, site, extraFiles = []) {
  const botId = (await api('/api/bots', json({ botName: name }))).bot.id;
  for (const file of await documentFiles()) await uploadFile(api, botId, file);
  await api(`/api/bots/${botId}/sources/text`, json(WRITTEN));
  await api(`/api/bots/${botId}/sources/website`, json({ url: `${site}/`, maxPages: 20 }));
  for (const file of extraFiles) await uploadFile(api, botId, file);
  return { botId, sources: await allReady(api, botId) };
}

// ---------------------------------------------------------------- scoring

function pathOf(url) {
  const p = new URL(url).pathname.replace(/\/+$/, '');
  return p === '' ? '/' : p;
}

function matches(citation, target) {
  if (target.source === 'site') return citation.url !== null && pathOf(citation.url) === target.path;
  if (citation.name !== target.source) return false;
  return target.page === undefined || citation.page === target.page;
}

/** The 1-based rank of the first passage answering `question`, or 0. */
function rankOf(passages, question) {
  const targets = [question, ...(question.also ?? [])];
  const index = passages.findIndex((p) => targets.some((t) => matches(p.citation, t)));
  return index + 1;
}

const label = (c) => (c.url ? pathOf(c.url) : c.page ? `${c.name} p.${c.page}` : c.name);
const where = (q) => (q.source === 'site' ? `site ${q.path}` : q.page ? `${q.source} p.${q.page}` : q.source);

function score(ranks) {
  const n = ranks.length;
  const fmt = (x) => x.toFixed(3);
  return {
    n,
    hit1: fmt(ranks.filter((r) => r === 1).length / n),
    hit5: fmt(ranks.filter((r) => r >= 1 && r <= TOP_K).length / n),
    mrr: fmt(ranks.reduce((sum, r) => sum + (r ? 1 / r : 0), 0) / n),
  };
}

async function evaluate(search, botId, questions) {
  const results = [];
  for (const question of questions) {
    const passages = await search(botId, question.q);
    results.push({ question, rank: rankOf(passages, question), top: passages.map((p) => label(p.citation)) });
  }
  return results;
}

/** Whether `results` found the right source, ignoring the PDF page and the site's page. */
function sourceLevel(results) {
  return results.map((r) => {
    const targets = [r.question, ...(r.question.also ?? [])].map((t) => t.source);
    const found = r.top.findIndex((top) =>
      targets.some((t) => (t === 'site' ? top.startsWith('/') : top.split(' p.')[0] === t)),
    );
    return found + 1;
  });
}

function report(title, results) {
  console.log(`\n${title}`);
  const row = (name, rs) => {
    const s = score(rs.map((r) => r.rank));
    console.log(`  ${name.padEnd(24)} ${String(s.n).padStart(4)}   ${s.hit1}   ${s.hit5}   ${s.mrr}`);
  };
  console.log(`  ${''.padEnd(24)}    n   hit@1   hit@5   MRR`);
  row('all questions', results);
  const bySource = score(sourceLevel(results));
  console.log(
    `  ${'  any page of the source'.padEnd(24)} ${String(bySource.n).padStart(4)}   ${bySource.hit1}   ${bySource.hit5}   ${bySource.mrr}`,
  );
  for (const style of ['keyword', 'paraphrase'])
    row(
      `  ${style}`,
      results.filter((r) => r.question.style === style),
    );
  for (const source of [...new Set(results.map((r) => r.question.source))]) {
    row(
      `  ${source}`,
      results.filter((r) => r.question.source === source),
    );
  }
  const misses = results.filter((r) => r.rank === 0);
  console.log(`  not in the first ${TOP_K} (${misses.length}):`);
  for (const miss of misses) {
    console.log(`    - "${miss.question.q}" [${where(miss.question)}] got: ${miss.top.join(', ') || 'nothing'}`);
  }
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** CPU seconds used so far by the given processes (user + system), from /proc; null where unreadable. */
function cpuOf(pids) {
  try {
    return pids.reduce((sum, pid) => {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return sum + (Number(fields[11]) + Number(fields[12])) / 100;
    }, 0);
  } catch {
    return null;
  }
}

/** Times `search` over every question, ROUNDS times after a warm-up pass. */
async function timeQueries(t, name, search, botId, questions) {
  await evaluate(search, botId, questions);
  const backends =
    t.engine === 'PostgreSQL server'
      ? (await t.app.get(DataSource).query('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')).map(
          (r) => r.pid,
        )
      : [];
  const times = [];
  let results;
  const dbBefore = cpuOf(backends);
  const appBefore = process.cpuUsage();
  for (let round = 0; round < ROUNDS; round += 1) {
    results = [];
    for (const question of questions) {
      const t0 = performance.now();
      const passages = await search(botId, question.q);
      times.push(performance.now() - t0);
      results.push({ question, rank: rankOf(passages, question), top: passages.map((p) => label(p.citation)) });
    }
  }
  const app = process.cpuUsage(appBefore);
  const dbAfter = cpuOf(backends);
  times.sort((a, b) => a - b);
  const cpu = ((app.user + app.system) / 1000 / times.length).toFixed(1);
  const db = dbBefore !== null && dbAfter !== null ? ((dbAfter - dbBefore) * 1000) / times.length : null;
  console.log(
    `${name} time per query (${times.length} queries): p50 ${percentile(times, 50).toFixed(1)} ms, ` +
      `p95 ${percentile(times, 95).toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms; ` +
      `CPU per query: this process ${cpu} ms` +
      (t.engine === 'PostgreSQL server'
        ? `, PostgreSQL ${db === null ? 'unknown' : `${db.toFixed(1)} ms`}`
        : ' (PGlite included)'),
  );
  const s = score(results.map((r) => r.rank));
  console.log(`${name} quality among the filler: hit@1 ${s.hit1}, hit@5 ${s.hit5}, MRR ${s.mrr}`);
}

/** Waits until every passage of the bot has a vector (embedding runs after extraction). */
async function allEmbedded(t, botId) {
  const db = t.app.get(DataSource);
  for (;;) {
    const [{ chunks, vectors }] = await db.query(
      `SELECT (SELECT count(*) FROM document_chunks WHERE bot_id = $1)::int AS chunks,
              (SELECT count(*) FROM passage_embeddings WHERE bot_id = $1)::int AS vectors`,
      [botId],
    );
    if (vectors >= chunks) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---------------------------------------------------------------- main

const questions = JSON.parse(fs.readFileSync(path.join(here, 'questions.json'), 'utf8'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-retrieval-'));
const site = await startSite();
const embeddings = await startEmbeddings(dataDir);
const t = await startApp(dataDir, {
  OPENAI_API_KEY: 'bench-key',
  OPENAI_BASE_URL: embeddings.url,
  OPENAI_EMBEDDING_MODEL: 'bench-hashed-features',
});
try {
  const api = await signIn(t);
  const service = t.app.get(KnowledgeSearchService);
  const repository = t.app.get(PassagesRepository);
  // Full-text ranking of the question's own words only (before synonyms, issue 27).
  const wordsOnly = async (botId, q) =>
    (await repository.search(botId, cleanText(q), TOP_K)).map((match) => ({ citation: citationOf(match) }));
  // Full-text ranking alone, as the service answers without an embeddings model: the question's
  // words and their WordNet synonyms.
  const fullText = async (botId, q) =>
    (await service.fullText(botId, q, TOP_K)).map((match) => ({ citation: citationOf(match) }));
  const hybrid = (botId, q) => service.searchChunks(botId, q, TOP_K);
  const kinds = new Set(questions.map((q) => q.source)).size;
  console.log(
    `${questions.length} questions over ${kinds} sources (${questions.filter((q) => q.style === 'paraphrase').length} paraphrased); ` +
      `database: ${t.engine}; top ${TOP_K} passages a question; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`,
  );

  let started = performance.now();
  const small = await botWithSources(api, 'Copper Kettle', site.origin);
  await allEmbedded(t, small.botId);
  const chunks = small.sources.reduce((sum, s) => sum + s.chunks, 0);
  console.log(
    `sources ready in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
      small.sources.map((s) => `${s.name} (${s.chunks})`).join(', ') +
      ` = ${chunks} passages`,
  );
  report('full-text, the question words only', await evaluate(wordsOnly, small.botId, questions));
  report(
    'full-text with English synonyms (what the service answers without embeddings)',
    await evaluate(fullText, small.botId, questions),
  );
  report('hybrid (local hashed-feature embeddings, no synonyms)', await evaluate(hybrid, small.botId, questions));

  started = performance.now();
  const big = await botWithSources(api, 'Copper Kettle archive', site.origin, fillerFiles(CHUNKS - chunks));
  await allEmbedded(t, big.botId);
  const bigChunks = big.sources.reduce((sum, s) => sum + s.chunks, 0);
  console.log(`\nlarge bot: ${bigChunks} passages, ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // Steady state: autovacuum soon merges the full-text index's pending list after a bulk insert
  // (until then every search also scans the pending entries) and gathers the planner's statistics.
  await t.app.get(DataSource).query('VACUUM (ANALYZE) document_chunks, passage_embeddings');
  await timeQueries(t, 'full-text, words only', wordsOnly, big.botId, questions);
  await timeQueries(t, 'full-text with synonyms', fullText, big.botId, questions);
  await timeQueries(t, 'hybrid', hybrid, big.botId, questions);
  console.log(`load average after: ${os.loadavg()[0].toFixed(1)}`);
} finally {
  await t.close();
  await embeddings.close();
  site.server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
