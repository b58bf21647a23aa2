#!/usr/bin/env node
/**
 * The widget's load and open times in Chromium, against the built product on embedded defaults.
 *   npm run build && node bench/widget-load.mjs [runs]      (default 15; CHROMIUM_PATH overrides)
 *
 * A customer's page on another origin (127.0.0.2) embeds the snippet of the demo bot (id 1).
 * - load: script execution → launcher visible (the widget's `botsmith:exec` and `botsmith:launcher`
 *   marks; the latter is taken in the frame that paints the launcher), including the bot fetch.
 *   Budget < 50 ms.
 * - open: a bare click (no hover or focus first, so nothing was prefetched) → chat window visible,
 *   with the window's chunk fetched on a cold cache (a new browser context per run). Budget < 100 ms.
 * The page logs each mark to the console and the bench waits for those messages: polling the page
 * from Playwright would run scripts on the main thread being measured.
 * Also prints the bot endpoint's server time (keep-alive, from Node) to separate server from browser.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const runs = Number(process.argv[2] ?? 15);
const main = path.resolve('backend/dist/main.js');
if (!fs.existsSync(main)) throw new Error('Build first: npm run build');

function freePort(host) {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return `median ${at(0.5).toFixed(1)} ms  min ${s[0].toFixed(1)}  p90 ${at(0.9).toFixed(1)}  max ${s.at(-1).toFixed(1)}`;
}

const port = await freePort('127.0.0.1');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-'));
const api = `http://localhost:${port}`;
const app = spawn(process.execPath, [main], {
  env: {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '0.0.0.0',
    PUBLIC_URL: api,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
  },
  stdio: 'ignore',
});
const site = http.createServer((req, res) => {
  if (req.url == '/marks.js') {
    res.writeHead(200, { 'Content-Type': 'text/javascript' });
    res.end(`new PerformanceObserver(function (l) { l.getEntries().forEach(function (m) {
      if (m.name.indexOf('botsmith:') == 0) console.log(m.name); }); }).observe({ type: 'mark', buffered: true });`);
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A customer's site</title>
<script src="/marks.js"></script></head><body><h1>A customer's site</h1><p>Some content.</p>
<script src="${api}/widget.js" data-bot-id="1" async></script></body></html>`);
});
await new Promise((resolve) => site.listen(0, '127.0.0.2', resolve));
const siteUrl = `http://127.0.0.2:${site.address().port}/`;

let browser;
try {
  for (let deadline = Date.now() + 60_000; ;) {
    try {
      if ((await fetch(`${api}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (app.exitCode !== null || Date.now() > deadline) throw new Error('The app did not start');
    await new Promise((r) => setTimeout(r, 150));
  }

  const server = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await (await fetch(`${api}/api/widget/bots/1`, { headers: { Origin: 'http://127.0.0.2' } })).text();
    if (i >= 20) server.push(performance.now() - t);
  }

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const loads = [];
  const opens = [];
  // One run to warm the browser up, not counted.
  for (let i = 0; i <= runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const logged = (mark) => page.waitForEvent('console', (m) => m.text() == `botsmith:${mark}`);
    const shown = logged('launcher');
    await page.goto(siteUrl);
    await shown;
    const opened = logged('open');
    await page.locator('botsmith-widget button').dispatchEvent('click');
    await opened;
    const t = await page.evaluate(() => {
      const at = (n) => performance.getEntriesByName(`botsmith:${n}`)[0].startTime;
      return { load: at('launcher') - at('exec'), open: at('open') - at('click') };
    });
    if (i > 0) {
      loads.push(t.load);
      opens.push(t.open);
    }
    await context.close();
  }
  console.log(`widget timings in Chromium ${browser.version()}, ${runs} runs, cold cache, built product on PGlite`);
  console.log(`  load (exec → launcher visible)   ${stats(loads)}   budget < 50 ms`);
  console.log(`  open (click → window visible)    ${stats(opens)}   budget < 100 ms`);
  console.log(`  GET /api/widget/bots/1 (server)  ${stats(server)}   keep-alive, from Node`);
} finally {
  await browser?.close();
  site.close();
  app.kill('SIGTERM');
  await new Promise((r) => app.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
