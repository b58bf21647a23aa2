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
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../e2e/support/chromium.mjs';
import { requireBuiltBackend, startBuiltApp } from './support/app.mjs';
import { percentile } from './support/timing.mjs';

const runs = Number(process.argv[2] ?? 15);
requireBuiltBackend('npm run build');

function stats(xs) {
  const at = (p) => percentile(xs, p).toFixed(1);
  return `median ${at(50)} ms  min ${Math.min(...xs).toFixed(1)}  p90 ${at(90)}  max ${Math.max(...xs).toFixed(1)}`;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-'));
/** The app's address, once it has started (the customer's page loads the widget from there). */
let api;
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

let app;
let browser;
try {
  app = await startBuiltApp({ host: '0.0.0.0', publicHost: 'localhost', env: { DATA_DIR: dataDir } });
  api = app.base;

  const server = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await (await fetch(`${api}/api/widget/bots/1`, { headers: { Origin: 'http://127.0.0.2' } })).text();
    if (i >= 20) server.push(performance.now() - t);
  }

  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', ...CHROMIUM_FLAGS] });
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
  await app?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
