#!/usr/bin/env node
/**
 * Cold-start time of the built app: process spawn → GET /api/health answers 200.
 *   npm run build && node bench/startup.mjs [runs] [--compare]
 * Measures the embedded PGlite on a new data folder (first start: initdb + migrations), on an
 * existing one, and a PostgreSQL server (BENCH_DATABASE_URL, default the local server; a fresh
 * database is created and dropped). Besides the wall time it prints the CPU time the process had
 * used when it answered (user + system, from /proc): on a busy machine the wall time mostly measures
 * the other processes, the CPU time much less so. It starts what `npm start` runs, the bundle;
 * `--compare` also starts the unbundled tree (backend/dist/main.js), in turns with the bundle.
 */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILT_APP, UNBUNDLED_APP, requireBuiltBackend } from './support/app.mjs';

const runs = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 3);
const builds = [
  { name: 'bundle', main: BUILT_APP },
  ...(process.argv.includes('--compare') ? [{ name: 'unbundled', main: UNBUNDLED_APP }] : []),
].map((build) => ({ ...build, fresh: [], existing: [], server: [] }));
requireBuiltBackend('npm run build');
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

async function startOnce(main, env) {
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
    `${label.padEnd(50)} median ${median(wall).toFixed(0).padStart(5)} ms, CPU ${median(cpu).toFixed(0).padStart(5)} ms   ` +
      `(${wall.map((s) => s.toFixed(0)).join(', ')})`,
  );
}

console.log(
  `load average before: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (${os.cpus().length} cores)`,
);

const label = (build, what) => (builds.length > 1 ? `${build.name}: ${what}` : what);

for (let i = 0; i < runs; i++) {
  for (const build of builds) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-'));
    build.fresh.push(await startOnce(build.main, { DATA_DIR: dir }));
    build.existing.push(await startOnce(build.main, { DATA_DIR: dir }));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
for (const build of builds) {
  stats(label(build, 'PGlite, new data folder (first start)'), build.fresh);
  stats(label(build, 'PGlite, existing data folder'), build.existing);
}

const db = `botsmith_bench_${process.pid}`;
try {
  execFileSync('psql', [serverBase, '-qc', `CREATE DATABASE ${db}`]);
  const url = new URL(serverBase);
  url.pathname = `/${db}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-'));
  // The first start migrates the new database; it is not counted.
  await startOnce(builds[0].main, { DATABASE_URL: url.toString(), DATA_DIR: dir });
  for (let i = 0; i < runs; i++) {
    for (const build of builds) {
      build.server.push(await startOnce(build.main, { DATABASE_URL: url.toString(), DATA_DIR: dir }));
    }
  }
  for (const build of builds) stats(label(build, 'PostgreSQL server'), build.server);
} catch (error) {
  console.log(`PostgreSQL server: skipped (${error.message.split('\n')[0]})`);
} finally {
  try {
    execFileSync('psql', [serverBase, '-qc', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`]);
  } catch {
    /* nothing to drop */
  }
}
