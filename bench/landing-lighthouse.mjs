#!/usr/bin/env node
/**
 * Lighthouse scores of the landing page (the target: performance and accessibility >= 95),
 * with Debian's Chromium, for the mobile (default throttling) and desktop presets.
 *
 *   npm install --prefix bench/lighthouse        (once; Lighthouse 12 is the last major on Node 20)
 *   npm run build && npm start                    (or any running server)
 *   node bench/landing-lighthouse.mjs [URL] [RUNS]  (default http://localhost:3000/, 3 runs, median)
 *
 * Prints the four category scores, the lab metrics and the transfer sizes (all, scripts).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_FLAGS } from '../e2e/support/chromium.mjs';
import { median } from './support/timing.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, 'lighthouse', 'package.json'));
let lighthouse;
let chromeLauncher;
try {
  lighthouse = (await import(require.resolve('lighthouse'))).default;
  chromeLauncher = await import(require.resolve('chrome-launcher'));
} catch {
  console.error('Lighthouse is not installed: npm install --prefix bench/lighthouse');
  process.exit(1);
}
const desktopConfig = (await import(require.resolve('lighthouse/core/config/desktop-config.js'))).default;

const url = process.argv[2] ?? 'http://localhost:3000/';
const runs = Number(process.argv[3] ?? 3);
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

async function runOnce(preset) {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
  });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error' },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    const { categories, audits, runtimeError, runWarnings } = result.lhr;
    if (runtimeError) throw new Error(`${runtimeError.code}: ${runtimeError.message} ${runWarnings.join(' ')}`);
    const weights = audits['resource-summary'].details.items;
    const kib = (type) => (weights.find((item) => item.resourceType === type)?.transferSize ?? 0) / 1024;
    return {
      performance: categories.performance.score * 100,
      accessibility: categories.accessibility.score * 100,
      'best-practices': categories['best-practices'].score * 100,
      seo: categories.seo.score * 100,
      'FCP ms': audits['first-contentful-paint'].numericValue,
      'LCP ms': audits['largest-contentful-paint'].numericValue,
      'TBT ms': audits['total-blocking-time'].numericValue,
      CLS: audits['cumulative-layout-shift'].numericValue,
      'SI ms': audits['speed-index'].numericValue,
      'transfer KiB': kib('total'),
      'script KiB': kib('script'),
      failing: Object.values(audits)
        .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
        .map((audit) => audit.id),
    };
  } finally {
    await chrome.kill();
  }
}

// Lighthouse sometimes loses the trace of a cold Chromium's first load (NO_NAVSTART, "Please run
// Lighthouse again"); such a run measured nothing, so it is repeated once rather than ending the bench.
async function runWithRetry(preset) {
  try {
    return await runOnce(preset);
  } catch (error) {
    if (!String(error.message).startsWith('NO_NAVSTART')) throw error;
    console.error(`  (${preset}: trace lost, NO_NAVSTART; running again)`);
    return runOnce(preset);
  }
}

const { version } = require('lighthouse/package.json');
console.log(`Lighthouse ${version} on ${url}, ${runs} run(s) per preset, median shown`);
for (const preset of ['mobile', 'desktop']) {
  const results = [];
  for (let i = 0; i < runs; i += 1) results.push(await runWithRetry(preset));
  console.log(`\n${preset}`);
  for (const key of Object.keys(results[0]).filter((k) => k !== 'failing')) {
    const value = median(results.map((r) => r[key]));
    console.log(`  ${key.padEnd(16)} ${key === 'CLS' ? value.toFixed(3) : Math.round(value)}`);
  }
  console.log(`  performance of each run: ${results.map((r) => Math.round(r.performance)).join(', ')}`);
  const failing = [...new Set(results.flatMap((r) => r.failing))];
  console.log(`  audits below 0.9: ${failing.length ? failing.join(', ') : 'none'}`);
}
