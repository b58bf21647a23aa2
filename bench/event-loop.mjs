#!/usr/bin/env node
/**
 * The API's event loop while it crawls hostile websites (issue 25): GET /api/health is asked
 * every 50 ms, first with nothing else running, then while the built app crawls, at once, one
 * website source per owner, each a loopback site built to hurt a crawler:
 *
 *   sitemap     robots.txt names a sitemap `<urlset><loc>` + 8,000 spaces, and a sitemap index the
 *               same way (the former `<loc>` regex held every route for minutes on it), plus a
 *               2 MB one of the same kind; the pages are found by links instead.
 *   robots-cap  robots.txt of 2,000 wildcard rules (the most read) and 200 pages with URLs of
 *               2,000 characters: every URL is checked against every rule on the main thread.
 *   robots-big  robots.txt of 20,000 wildcard rules (680 KB; 2.8 s per check with the former
 *               matcher): past the limits, the source fails with a sentence.
 *   nesting     pages of 110 KB of unclosed nested elements (the HTML parser's slow case).
 *   huge        pages of 10 MB (the crawler stops reading at 2 MB).
 *
 * The sites are added as sources at once (one owner each, so the crawls run side by side), then
 * refreshed, BENCH_ROUNDS rounds in all (3). Prints each source's outcome and crawl time, and the
 * health answers' p50 / p99 / max over all rounds (aim: p99 under 100 ms during the crawls).
 * Then each site is crawled by the crawler alone in this process, with the event loop's delay
 * measured: what the crawler itself holds the loop for, apart from the machine's load. At the
 * end, for scale, the former `<loc>` regex is timed in this process on 2,000 spaces (it grows
 * with the cube of the length).
 *
 *   npm run build -w backend && node bench/event-loop.mjs
 *   BENCH_SITES=sitemap,robots-cap node bench/event-loop.mjs   (some of the sites only)
 *   (BENCH_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/postgres)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { insertOwner, loadBuilt, OFFLINE_APP_ENV, requireBuiltBackend, startBuiltApp } from './support/app.mjs';
import { createThrowawayDatabase, LOCAL_SERVER_URL } from './support/database.mjs';
import { percentile } from './support/timing.mjs';

requireBuiltBackend();

const SAMPLE_EVERY_MS = 50;

const IDLE_MS = 3_000;
/** Crawls of every site: added once, then refreshed (BENCH_ROUNDS). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CRAWL_TIMEOUT_MS = 5 * 60_000;

// ---- the hostile sites -----------------------------------------------------------------------

function htmlPage(title, main, links = []) {
  const anchors = links.map((href) => `<li><a href="${href}">${title} link</a></li>`).join('');
  return `<!doctype html><html><head><title>${title}</title></head><body><nav><ul>${anchors}</ul></nav><main>${main}</main></body></html>`;
}

const wildcardRules = (n) =>
  'User-agent: *\n' + Array.from({ length: n }, (_, i) => `Disallow: /*a*a*a*a*a*a*a*a*a*a*a*${i}b`).join('\n') + '\n';

/** A loopback site: `routes(origin)` maps paths to [content type, body]; anything else is 404. */
async function startSite(routes) {
  let table = new Map();
  const server = http.createServer((request, response) => {
    const route = table.get(request.url ?? '/');
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    response.on('error', () => undefined);
    response.writeHead(200, { 'content-type': route[0] }).end(route[1]);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  // Bytes made once: the sites share this process with the health sampler, which must not wait
  // for a 10 MB string to be encoded at each request.
  table = new Map(Object.entries(routes(origin)).map(([p, [type, body]]) => [p, [type, Buffer.from(body)]]));
  return {
    origin,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

const HTML = 'text/html; charset=utf-8';
const XML = 'application/xml';
const TEXT = 'text/plain';

const SITES = {
  sitemap: (origin) => ({
    '/robots.txt': [
      TEXT,
      `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\nSitemap: ${origin}/index.xml\nSitemap: ${origin}/big.xml\n`,
    ],
    '/sitemap.xml': [XML, `<urlset><loc>${' '.repeat(8_000)}`],
    '/index.xml': [XML, `<sitemapindex><sitemap><loc>${' '.repeat(8_000)}`],
    '/big.xml': [XML, `<urlset><loc>${' '.repeat(2 * 1024 * 1024 - 100)}`],
    '/': [HTML, htmlPage('Home', '<p>The forge.</p>', ['/about'])],
    '/about': [HTML, htmlPage('About', '<p>Anvils since 1890.</p>')],
  }),
  'robots-cap': () => {
    const paths = Array.from({ length: 200 }, (_, i) => `/${'a'.repeat(1_990)}-${i}`);
    return {
      '/robots.txt': [TEXT, wildcardRules(2_000)],
      '/': [HTML, htmlPage('Home', '<p>Long addresses.</p>', paths)],
      ...Object.fromEntries(paths.map((p, i) => [p, [HTML, htmlPage(`Page ${i}`, `<p>Page ${i} text.</p>`)]])),
    };
  },
  'robots-big': () => ({
    '/robots.txt': [TEXT, wildcardRules(20_000)],
    '/': [HTML, htmlPage('Home', '<p>Never read.</p>')],
  }),
  nesting: () => {
    const paths = ['/deep-1', '/deep-2', '/deep-3'];
    return {
      '/': [HTML, htmlPage('Home', '<p>Deep pages.</p>', paths)],
      ...Object.fromEntries(paths.map((p) => [p, [HTML, htmlPage('Deep', `${'<div><span>'.repeat(10_000)}text`)]])),
    };
  },
  huge: () => {
    const paths = ['/huge-1', '/huge-2', '/huge-3'];
    const body = htmlPage('Huge', `<p>${'Ten megabytes of text. '.repeat(456_000)}</p>`);
    return {
      '/': [HTML, htmlPage('Home', '<p>Huge pages.</p>', paths)],
      ...Object.fromEntries(paths.map((p) => [p, [HTML, body]])),
    };
  },
};

/** BENCH_SITES=sitemap,huge crawls only those sites. */
const ONLY = process.env.BENCH_SITES?.split(',') ?? Object.keys(SITES);

// ---- measuring ----------------------------------------------------------------------------------

/** Asks /api/health every 50 ms until `stop()`; answers the latencies (ms) and the failures. */
function sampleHealth(base) {
  const latencies = [];
  let failures = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const asked = performance.now();
      const response = await fetch(`${base}/api/health`).catch(() => null);
      latencies.push(performance.now() - asked);
      if (response?.status !== 200) failures += 1;
      await response?.arrayBuffer().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return { latencies, failures };
    },
  };
}

function summary(label, { latencies, failures }) {
  const ms = (value) => `${value.toFixed(1).padStart(7)} ms`;
  console.log(
    `${label.padEnd(24)} ${String(latencies.length).padStart(5)} answers   p50 ${ms(percentile(latencies, 50))}   ` +
      `p99 ${ms(percentile(latencies, 99))}   max ${ms(Math.max(...latencies))}   failed ${failures}`,
  );
}

async function main() {
  const database = await createThrowawayDatabase(
    process.env.BENCH_DATABASE_URL ?? LOCAL_SERVER_URL,
    'botsmith_bench_loop',
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-loop-'));
  const sites = [];
  let app;
  try {
    app = await startBuiltApp({
      env: {
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        ...OFFLINE_APP_ENV,
        CRAWL_ALLOW_PRIVATE: 'true',
        SOURCE_JOBS_POLL_MS: '100',
        SIGNUP_IP_RATE_LIMIT: '1000000',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = app.base;
    console.log(`bench/event-loop: Node ${process.version}, ${os.cpus().length} CPUs, app pid ${app.child.pid}`);

    const idle = sampleHealth(base);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    summary('health, idle', await idle.stop());

    // One owner per site, so the crawls run side by side as different owners' would.
    const owners = [];
    for (const name of ONLY) {
      const email = `loop-${name}-${crypto.randomBytes(3).toString('hex')}@example.com`;
      const password = 'Bench!Pass1';
      await insertOwner(database.query, { email, password, paid: true });
      const login = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { Origin: base, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
      const headers = {
        Origin: base,
        Cookie: String(login.headers.get('set-cookie')).split(';', 1)[0],
        'content-type': 'application/json',
      };
      const bot = await fetch(`${base}/api/bots`, { method: 'POST', headers, body: JSON.stringify({ botName: name }) });
      owners.push({ name, headers, botId: (await bot.json()).bot.id });
    }

    for (const owner of owners) {
      owner.site = await startSite(SITES[owner.name]);
      sites.push(owner.site);
    }
    const sampler = sampleHealth(base);
    for (let round = 1; round <= ROUNDS; round += 1) {
      const started = performance.now();
      // The first round adds the sources; the next ones refresh them (a refresh reads the site again).
      const crawls = owners.map(async (owner) => {
        const response = await fetch(
          owner.sourceId === undefined
            ? `${base}/api/bots/${owner.botId}/sources/website`
            : `${base}/api/bots/${owner.botId}/sources/${owner.sourceId}/refresh`,
          {
            method: 'POST',
            headers: owner.headers,
            body: JSON.stringify(owner.sourceId === undefined ? { url: `${owner.site.origin}/`, maxPages: 500 } : {}),
          },
        );
        if (response.status !== 201 && response.status !== 202) {
          throw new Error(`${owner.name}: ${response.status} ${await response.text()}`);
        }
        owner.sourceId = (await response.json()).source.id;
        for (;;) {
          const list = await (
            await fetch(`${base}/api/bots/${owner.botId}/sources`, { headers: owner.headers })
          ).json();
          const source = list.sources.find((s) => s.id === owner.sourceId);
          if (source.status !== 'processing') return { name: owner.name, source, ms: performance.now() - started };
          if (performance.now() - started > CRAWL_TIMEOUT_MS) return { name: owner.name, source, ms: NaN };
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      });
      const outcomes = await Promise.all(crawls);
      console.log(`round ${round} (${round === 1 ? 'added' : 'refreshed'}):`);
      for (const { name, source, ms } of outcomes) {
        const what = source.error ?? source.notice ?? '';
        console.log(
          `  ${name.padEnd(11)} ${source.status.padEnd(10)} ${String(source.pages ?? 0).padStart(3)} pages  ` +
            `${(ms / 1000).toFixed(1).padStart(5)} s  ${what.slice(0, 100)}`,
        );
      }
    }
    const during = await sampler.stop();
    summary('health, during crawls', during);
  } finally {
    await app?.stop();
    await Promise.all(sites.map((site) => site.close()));
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  // The crawler alone, in this process: how long its own work held the event loop, without the
  // app's other work or the database (the health figures above include the machine's load).
  const { WebsiteCrawler } = await loadBuilt('modules/knowledge/website/website-crawler.js');
  console.log('crawler in this process, event-loop delay per site:');
  for (const name of ONLY) {
    const site = await startSite(SITES[name]);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const crawler = new WebsiteCrawler({ allowPrivate: true, userAgent: 'BotsmithBot/1.0 (+bench)' });
    const outcome = await crawler.crawl(`${site.origin}/`, { maxPages: 500 }).then(
      (result) => `${result.pages.length} pages`,
      (error) => error.code,
    );
    delay.disable();
    await site.close();
    const ms = (ns) => `${(ns / 1e6).toFixed(1).padStart(6)} ms`;
    const figures = delay.count > 0 ? `p99 ${ms(delay.percentile(99))}   max ${ms(delay.max)}` : 'too short to sample';
    console.log(`  ${name.padEnd(11)} ${outcome.padEnd(17)} ${figures}`);
  }

  // The former sitemap regex (before issue 25), in this process, for scale.
  const former = /<(?:[\w-]+:)?loc>\s*(?:<!\[CDATA\[\s*([\s\S]*?)\s*\]\]>|([^<]*?))\s*<\/(?:[\w-]+:)?loc>/gi;
  const xml = `<urlset><loc>${' '.repeat(2_000)}`;
  const t0 = performance.now();
  const matches = [...xml.matchAll(former)].length;
  console.log(
    `former <loc> regex, 2,000 spaces, main thread: ${(performance.now() - t0).toFixed(0)} ms (${matches} matches)`,
  );
}

await main();
