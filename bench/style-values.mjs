#!/usr/bin/env node
/**
 * How long the contract's style-value parsers take on hostile values (long runs of spaces, commas,
 * digits or dots), the inputs that made the regexes they once used backtrack. Each should stay in
 * the microseconds whatever the length, since the server parses values from any client.
 *
 *   npm run build -w contract && node bench/style-values.mjs
 */
import { performance } from 'node:perf_hooks';
import { normaliseAllowedDomain, normaliseRadius, parseGradient } from '@botsmith/contract';

const cases = [
  ['gradient: spaces after the parenthesis', parseGradient, `linear-gradient(${' '.repeat(16_000)}x`],
  ['gradient: spaces before a comma', parseGradient, `linear-gradient(to right${' '.repeat(16_000)},#fff,#000`],
  ['gradient: many commas', parseGradient, `linear-gradient(${','.repeat(16_000)})`],
  ['gradient: spaces under the length cap', parseGradient, `linear-gradient(${' '.repeat(103)}`],
  ['radius: 16 KB of digits', normaliseRadius, `${'1'.repeat(16_000)}px`],
  ['allowed domain: 16 KB of labels', normaliseAllowedDomain, 'a.'.repeat(8_000)],
  ['allowed domain: a long valid name', normaliseAllowedDomain, `${'a'.repeat(60)}.${'b'.repeat(60)}.example.com`],
];

const runs = 2000;
console.log(`${'case'.padEnd(42)} ${'median µs'.padStart(10)} ${'max µs'.padStart(10)}`);
for (const [name, parse, value] of cases) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    parse(value);
    times.push((performance.now() - started) * 1000);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(runs / 2)].toFixed(1);
  const max = times[runs - 1].toFixed(1);
  console.log(`${name.padEnd(42)} ${median.padStart(10)} ${max.padStart(10)}`);
}
