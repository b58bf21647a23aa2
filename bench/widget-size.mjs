#!/usr/bin/env node
/**
 * What a customer's visitor downloads for the chat widget, as built in widget/dist (this builds
 * nothing: run `npm run build -w widget` first).
 *
 *   node bench/widget-size.mjs [--compare DIR]
 *
 * Prints raw, gzip (level 9) and brotli bytes of the loader (widget.js, downloaded with the page)
 * and of the chat window chunks under widget-assets/, one per language (a visitor downloads one,
 * on the launcher's first hover, focus or click), against the widget's budgets (3 KB at page
 * load, and 15 KB once opened, in every language: loader + that language's window;
 * docs/decisions/0004). Then each window's second chunk (extras-<language>: the menu, an
 * answer's sources and rating, the lead form and a person's replies), which a visitor downloads
 * after their first message, on the menu, or when the lead form is offered, and what a visitor
 * in a conversation has downloaded in all (no budget of its own: reported so it stays in view).
 * Then what each dependency and source file adds to the loader, the English window and its
 * second chunk, from the module reports the build writes (dist/size-loader.json,
 * dist/size-window-<language>.json, dist/size-extras-<language>.json: each module's rendered
 * code, minified and gzipped on its own,
 * so the parts add up to a little more than the whole; the share column scales them to the real
 * chunk).
 *
 * With --compare DIR (default /tmp/widget-compare, if present) it measures other chatbot
 * builders' browser bundles the same way, from their npm packages installed there, outside the
 * repository:
 *   npm install --prefix /tmp/widget-compare flowise-embed@3.1.6 @typebot.io/js@0.10.7
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'widget', 'dist');
const KB = 1024;
const BUDGET = { loader: 3 * KB, total: 15 * KB };

/** The file each builder's docs tell a site to load (all are single bundles, no lazy chunks). */
const OTHERS = [
  {
    builder: 'Flowise',
    pkg: 'flowise-embed',
    file: 'dist/web.js',
    how: 'import Chatbot from ".../flowise-embed/dist/web.js"',
  },
  {
    builder: 'Typebot',
    pkg: '@typebot.io/js',
    file: 'dist/web.js',
    how: 'import Typebot from ".../@typebot.io/js/dist/web.js"',
  },
];

const gzip = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
const brotli = (buf) => zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const n = (x) => x.toLocaleString('en-US');
const kb = (x) => `${(x / KB).toFixed(2)} KB`;
const pad = (s, w, right = false) => (right ? String(s).padEnd(w) : String(s).padStart(w));

function measure(file) {
  const buf = fs.readFileSync(file);
  return { raw: buf.length, gzip: gzip(buf), brotli: brotli(buf) };
}

function row(name, m) {
  return `${pad(name, 52, true)}${pad(n(m.raw), 11)}${pad(n(m.gzip), 10)}${pad(n(m.brotli), 10)}  ${kb(m.gzip)}`;
}

if (!fs.existsSync(path.join(dist, 'widget.js'))) {
  console.error('widget/dist/widget.js is missing: run `npm run build -w widget` first.');
  process.exit(1);
}

const loader = measure(path.join(dist, 'widget.js'));
const assetsDir = path.join(dist, 'widget-assets');
const chunks = fs
  .readdirSync(assetsDir)
  .filter((f) => /\.(m?js|css)$/.test(f))
  .map((f) => ({ file: `widget-assets/${f}`, ...measure(path.join(assetsDir, f)) }));
const language = (c) => /(?:window|extras)-([a-z]{2})-/.exec(c.file)?.[1] ?? c.file;
const windows = chunks.filter((c) => c.file.startsWith('widget-assets/window-'));
const extras = chunks.filter((c) => c.file.startsWith('widget-assets/extras-'));
const sum = (...parts) => ({
  raw: parts.reduce((a, p) => a + p.raw, 0),
  gzip: parts.reduce((a, p) => a + p.gzip, 0),
  brotli: parts.reduce((a, p) => a + p.brotli, 0),
});
/** What a visitor has downloaded once the window is open: the loader and their language's window. */
const opened = (c) => sum(loader, c);
const largest = windows.reduce((a, c) => (c.gzip > a.gzip ? c : a));
const total = opened(largest);

console.log('Botsmith widget (bytes)');
console.log(`${pad('file', 52, true)}${pad('raw', 11)}${pad('gzip', 10)}${pad('brotli', 10)}`);
console.log(row('widget.js (loader + launcher, at page load)', loader));
for (const c of windows) console.log(row(`${c.file} (on first hover)`, c));
for (const c of windows) console.log(row(`opened, ${language(c)}: loader + its window`, opened(c)));
for (const c of extras) console.log(row(`${c.file} (on demand)`, c));
for (const c of extras) {
  const window = windows.find((w) => language(w) == language(c));
  if (window) console.log(row(`in a conversation, ${language(c)}: + second chunk`, sum(loader, window, c)));
}
const verdict = (v, b) => `${n(v)} B gzip of ${n(b)} B budget: ${v <= b ? 'within' : 'OVER'}`;
console.log(
  `budget: loader ${verdict(loader.gzip, BUDGET.loader)}; opened (largest, ${largest.file}) ${verdict(total.gzip, BUDGET.total)}`,
);

/** A module id to the dependency or source file it belongs to. */
function owner(id) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?:(hooks|jsx-runtime|compat)\/)?/.exec(id);
  if (pkg) return pkg[2] ? `${pkg[1]}/${pkg[2]}` : pkg[1];
  return id.replace(/\?inline$/, ' (CSS)');
}

for (const pass of ['loader', 'window-en', 'extras-en']) {
  const reportFile = path.join(dist, `size-${pass}.json`);
  if (!fs.existsSync(reportFile)) continue;
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  const real = pass == 'loader' ? loader.gzip : (chunks.find((c) => c.file == report.file)?.gzip ?? 0);
  const groups = new Map();
  for (const m of report.modules) {
    const g = groups.get(owner(m.id)) ?? { minified: 0, gzip: 0 };
    g.minified += m.minified;
    g.gzip += m.gzip;
    groups.set(owner(m.id), g);
  }
  const minTotal = [...groups.values()].reduce((a, g) => a + g.minified, 0) || 1;
  console.log(`\nWhat each part adds to ${report.file} (${n(real)} B gzip)`);
  console.log(`${pad('module', 52, true)}${pad('minified', 11)}${pad('gzip*', 10)}${pad('share', 10)}`);
  for (const [name, g] of [...groups.entries()].sort((a, b) => b[1].minified - a[1].minified)) {
    if (!g.minified) continue;
    const share = Math.round((g.minified / minTotal) * real);
    console.log(`${pad(name, 52, true)}${pad(n(g.minified), 11)}${pad(n(g.gzip), 10)}${pad(`~${n(share)}`, 10)}`);
  }
}
console.log('* gzip of the module alone; "share" apportions the chunk\'s real gzip size by minified bytes.');

const argIndex = process.argv.indexOf('--compare');
const compareDir = argIndex > 0 ? process.argv[argIndex + 1] : '/tmp/widget-compare';
if (compareDir && fs.existsSync(path.join(compareDir, 'node_modules'))) {
  console.log(`\nOther chatbot builders' widgets, measured the same way (from ${compareDir})`);
  console.log(`${pad('bundle', 52, true)}${pad('raw', 11)}${pad('gzip', 10)}${pad('brotli', 10)}  vs ours (gzip)`);
  for (const o of OTHERS) {
    const dir = path.join(compareDir, 'node_modules', o.pkg);
    const file = path.join(dir, o.file);
    if (!fs.existsSync(file)) continue;
    const version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
    const m = measure(file);
    console.log(`${row(`${o.builder}: ${o.pkg}@${version} ${o.file}`, m)}  ${(m.gzip / total.gzip).toFixed(0)}x`);
  }
} else {
  console.log(`\n(No comparison: install other builders' widgets into ${compareDir}, see the header of this file.)`);
}
