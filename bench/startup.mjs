#!/usr/bin/env node
/**
 * Cold-start time of the built app: process spawn → GET /api/health answers 200.
 *   npm run build && node bench/startup.mjs [runs]
 * Measures the embedded PGlite on a new data folder (first start: initdb + migrations), on an
 * existing one, and a PostgreSQL server (BENCH_DATABASE_URL, default the local server; a fresh
 * database is created and dropped). Besides the wall time it prints the CPU time the process had
 * used when it answered (user + system, from /proc): on a busy machine the wall time mostly measures
 * the other processes, the CPU time much less so.
 */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const runs = Number(process.argv[2] ?? 3);
const main = path.resolve('backend/dist/main.js');
const serverBase = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const TICKS_PER_SECOND = 100;

/** User + system CPU of a running process in ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

async function startOnce(env) {
  const port = 3900 + Math.floor(Math.random() * 90);
  const started = performance.now();
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'error', NODE_ENV: 'test', ...env },
    stdio: 'ignore',
  });
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - started;
  const cpu = cpuMs(child.pid);
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  return { ms, cpu };
}

function stats(label, samples) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const wall = samples.map((s) => s.ms);
  const cpu = samples.map((s) => s.cpu);
  console.log(
    `${label.padEnd(38)} median ${median(wall).toFixed(0).padStart(5)} ms, CPU ${median(cpu).toFixed(0).padStart(5)} ms   ` +
      `(${wall.map((s) => s.toFixed(0)).join(', ')})`,
  );
}

console.log(
  `load average before: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (${os.cpus().length} cores)`,
);

const fresh = [];
const existing = [];
for (let i = 0; i < runs; i++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-'));
  fresh.push(await startOnce({ DATA_DIR: dir }));
  existing.push(await startOnce({ DATA_DIR: dir }));
  fs.rmSync(dir, { recursive: true, force: true });
}
stats('PGlite, new data folder (first start)', fresh);
stats('PGlite, existing data folder', existing);

const server = [];
const db = `botsmith_bench_${process.pid}`;
try {
  execFileSync('psql', [serverBase, '-qc', `CREATE DATABASE ${db}`]);
  const url = new URL(serverBase);
  url.pathname = `/${db}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-'));
  for (let i = 0; i < runs; i++) server.push(await startOnce({ DATABASE_URL: url.toString(), DATA_DIR: dir }));
  stats('PostgreSQL server (first run migrates)', server);
} catch (error) {
  console.log(`PostgreSQL server: skipped (${error.message.split('\n')[0]})`);
} finally {
  try {
    execFileSync('psql', [serverBase, '-qc', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`]);
  } catch {
    /* nothing to drop */
  }
}
