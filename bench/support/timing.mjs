/**
 * Timing helpers shared by the benches: percentiles of samples, timed repeats, and the Markdown
 * table several benches end with.
 */

/** Milliseconds of a `process.hrtime.bigint()` difference. */
export const nsToMs = (ns) => Number(ns) / 1e6;

/** The value at percentile `p` (0–100) of `values`: nearest rank below, never past the last. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const median = (values) => percentile(values, 50);

/** Median, p95 and max (ms) of `runs` awaited calls of `call`, after one warm-up call that is not counted. */
export async function timeRuns(call, runs) {
  await call();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await call();
    samples.push(nsToMs(process.hrtime.bigint() - start));
  }
  return { median: median(samples), p95: percentile(samples, 95), max: Math.max(...samples) };
}

/** Prints a Markdown table; `columns` are [heading, row => cell text] pairs. */
export function printTable(columns, rows) {
  console.log(`| ${columns.map(([heading]) => heading).join(' | ')} |`);
  console.log(`|${columns.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${columns.map(([, cell]) => cell(row)).join(' | ')} |`);
}

/** The median, p95 and max columns of a table of timeRuns results. */
export const TIMING_COLUMNS = [
  ['median', (row) => row.median.toFixed(2)],
  ['p95', (row) => row.p95.toFixed(2)],
  ['max', (row) => row.max.toFixed(2)],
];
