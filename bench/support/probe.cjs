/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload, loaded with node --require */
/**
 * Preloaded into the app by bench/chat.mjs (`node --require`): counts the database round trips
 * (each `query` of a `pg` client but those pipelined behind another: the app reaches PostgreSQL
 * and the embedded PGlite through the same driver) and, between two SIGUSR2 signals, records a CPU profile. At the second signal it
 * writes `{ queries, profile }` to BENCH_PROBE_DIR/probe-<n>.json. The bench reads the count
 * before and after a run; nothing in the app knows about it.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const inspector = require('node:inspector');

const dir = process.env.BENCH_PROBE_DIR;
const pg = require(require.resolve('pg', { paths: [process.env.BENCH_BACKEND_DIR ?? process.cwd()] }));
let queries = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  // A statement that joins others already on the wire in pipeline mode (the app's
  // database/pipeline.ts sends them in one write) waits for no round trip of its own.
  const joinsPipeline = this.pipeline && (this._activeQuery || this._sentQueryQueue.length > 0);
  if (!joinsPipeline) queries += 1;
  return query.apply(this, args);
};

let session;
let written = 0;
process.on('SIGUSR2', () => {
  if (!session) {
    session = new inspector.Session();
    session.connect();
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 500 }, () =>
        session.post('Profiler.start', () => fs.writeFileSync(path.join(dir, 'started'), String(queries))),
      ),
    );
    return;
  }
  session.post('Profiler.stop', (error, result) => {
    const file = path.join(dir, `probe-${++written}.json`);
    fs.writeFileSync(file, JSON.stringify({ queries, profile: error ? null : result.profile }));
    session.disconnect();
    session = undefined;
  });
});
// The count alone, at any time: SIGWINCH is harmless to a server without a terminal.
process.on('SIGWINCH', () => fs.writeFileSync(path.join(dir, 'count'), String(queries)));
