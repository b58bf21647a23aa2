#!/usr/bin/env node
/**
 * What hostile documents cost the server: how long cleaning a megabyte of line breaks takes (the
 * input that made the hyphen-joining regex backtrack), how soon after its time limit the PDF
 * reader refuses a compression bomb, and how long the main thread's event loop stalls meanwhile
 * (the PDF is read in a worker thread, so the server keeps answering other requests). The tests
 * (knowledge/chunking.spec.ts, knowledge/pdf-text.spec.ts, integration/uploads.spec.ts) check
 * what these answer; this program prints the times. Header and body parsers: bench/header-parsing.mjs.
 *
 *   npm run build -w backend && node bench/document-reading.mjs
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { makeCompressionBombPdf } from '../backend/test/support/pdf-bomb.mjs';

const dist = new URL('../backend/dist/', import.meta.url);
const load = (file) => import(new URL(file, dist).href);
const { DOCUMENT_EXTRACTION } = await load('common/constants.js');
const { cleanText } = await load('modules/knowledge/chunking.js');
const { extractPdfText } = await load('modules/knowledge/pdf-text.js');

const runs = 30;
const lineBreaks = `a-${'\n'.repeat(1_000_000)}X`;
const times = [];
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  cleanText(lineBreaks);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
console.log(
  `cleanText, a megabyte of line breaks: median ${times[Math.floor(runs / 2)].toFixed(1)} ms, ` +
    `max ${times[runs - 1].toFixed(1)} ms (${runs} runs)`,
);

/** Milliseconds until the reader refuses `bytes`, and the main thread's longest event-loop stall meanwhile. */
async function readBomb(bytes, limits) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  const outcome = await extractPdfText(bytes, limits).then(
    () => 'read',
    (error) => error.reason ?? error.message,
  );
  const ms = performance.now() - started;
  loop.disable();
  return { outcome, ms, stallMs: loop.max / 1e6 };
}

const small = await makeCompressionBombPdf(200);
const limited = await readBomb(small, { timeoutMs: 300, heapMb: 4096, memoryMb: 4096 });
console.log(
  `PDF bomb (200 MB inflated, ${(small.length / 1024).toFixed(0)} KB), 300 ms time limit: ` +
    `${limited.outcome} after ${limited.ms.toFixed(0)} ms; longest event-loop stall ${limited.stallMs.toFixed(1)} ms`,
);
const large = await makeCompressionBombPdf(400);
const upload = await readBomb(large, DOCUMENT_EXTRACTION);
console.log(
  `PDF bomb (400 MB inflated, ${(large.length / 1024).toFixed(0)} KB), the upload limits ` +
    `(${DOCUMENT_EXTRACTION.timeoutMs} ms, ${DOCUMENT_EXTRACTION.heapMb} MB heap): ` +
    `${upload.outcome} after ${upload.ms.toFixed(0)} ms; longest event-loop stall ${upload.stallMs.toFixed(1)} ms`,
);
