import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { DataDirLock, DataDirLockedError } from '../../src/database/data-dir-lock.js';
import { dataSourceOptions } from '../../src/database/database.options.js';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { runPendingMigrations } from '../../src/database/pending-migrations.js';
import { beginPipeline, sendPipelined, type PipelinedResult } from '../../src/database/pipeline.js';
import { queryPrepared } from '../../src/database/prepared.js';
import { watchPool } from '../support/pool-watch.js';
import { createFileDatabase, serverUrl } from '../support/test-database.js';

interface Engine {
  name: string;
  open(): Promise<{ dataSource: DataSource; close(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: 'embedded PGlite',
    async open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-db-'));
      const embedded = await EmbeddedPostgres.start(dir);
      const dataSource = new DataSource(dataSourceOptions({ url: embedded.url, embedded: true, poolSize: 1 }));
      await dataSource.initialize();
      await runPendingMigrations(dataSource);
      return {
        dataSource,
        async close() {
          await dataSource.destroy();
          await embedded.stop();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
];
if (serverUrl()) {
  engines.push({
    name: 'PostgreSQL server',
    async open() {
      const db = await createFileDatabase();
      const dataSource = new DataSource(dataSourceOptions({ url: db.url, embedded: false, poolSize: 10 }));
      await dataSource.initialize();
      await runPendingMigrations(dataSource);
      return {
        dataSource,
        async close() {
          await dataSource.destroy();
          await db.drop();
        },
      };
    },
  });
}

describe.each(engines)('database on $name', (engine) => {
  let handle: Awaited<ReturnType<Engine['open']>>;
  beforeAll(async () => {
    handle = await engine.open();
  });
  afterAll(async () => {
    await handle.close();
  });

  it('runs every migration and records it', async () => {
    const rows = await handle.dataSource.query('SELECT name FROM migrations ORDER BY id');
    expect(rows.map((r: { name: string }) => r.name)).toEqual(handle.dataSource.migrations.map((m) => m.name));
    expect(await handle.dataSource.showMigrations()).toBe(false);
  });

  it('runs nothing at a start with every migration applied, and a migration added since', async () => {
    const { dataSource } = handle;
    const runs = jest.spyOn(dataSource, 'runMigrations');
    const queries = jest.spyOn(dataSource, 'query');
    try {
      await runPendingMigrations(dataSource);
      expect(runs).not.toHaveBeenCalled();
      expect(queries).toHaveBeenCalledTimes(1);

      class AddedSince1999999999999 implements MigrationInterface {
        name = 'AddedSince1999999999999';
        async up(runner: QueryRunner): Promise<void> {
          await runner.query('CREATE TABLE added_since (id int)');
        }
        async down(runner: QueryRunner): Promise<void> {
          await runner.query('DROP TABLE added_since');
        }
      }
      dataSource.migrations.push(new AddedSince1999999999999());
      await runPendingMigrations(dataSource);
      expect(runs).toHaveBeenCalledTimes(1);
      const names: Array<{ name: string }> = await dataSource.query('SELECT name FROM migrations ORDER BY id');
      expect(names.at(-1)?.name).toBe('AddedSince1999999999999');
      expect(await dataSource.query('SELECT count(*)::int AS n FROM added_since')).toEqual([{ n: 0 }]);
    } finally {
      runs.mockRestore();
      queries.mockRestore();
      if (dataSource.migrations.at(-1)?.name === 'AddedSince1999999999999') {
        await dataSource.undoLastMigration();
        dataSource.migrations.pop();
      }
    }
  });

  it('keeps concurrent transactions apart: rolled-back writes never appear', async () => {
    const attempts = Array.from({ length: 24 }, (_, i) => i);
    const results = await Promise.allSettled(
      attempts.map((i) =>
        handle.dataSource.transaction(async (manager) => {
          await manager.query(`INSERT INTO webhook_events (id, type) VALUES ($1, 'concurrency-test')`, [`evt_${i}`]);
          // Give other transactions a chance to interleave before deciding.
          await new Promise((r) => setTimeout(r, i % 3));
          if (i % 2 === 1) throw new Error('roll back');
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(12);
    const rows = await handle.dataSource.query(
      `SELECT id FROM webhook_events WHERE type = 'concurrency-test' ORDER BY id`,
    );
    const expected = attempts
      .filter((i) => i % 2 === 0)
      .map((i) => `evt_${i}`)
      .sort();
    expect(rows.map((r: { id: string }) => r.id)).toEqual(expected);
  });

  describe('a pipeline (database/pipeline.ts)', () => {
    it('sends the statements of one turn on one connection, in one write, each answered on its own', async () => {
      const { dataSource } = handle;
      const watch = watchPool(dataSource);
      try {
        const pipeline = beginPipeline(dataSource);
        const [prepared, batch] = await Promise.all([
          queryPrepared<{ n: number; pid: number }>(
            dataSource,
            'SELECT $1::int + 1 AS n, pg_backend_pid() AS pid',
            [41],
            pipeline,
          ),
          sendPipelined(pipeline, { text: 'SELECT 1 AS a; SELECT pg_backend_pid() AS pid' }),
        ]);
        const [first, second] = batch as PipelinedResult[];
        expect(prepared).toEqual([{ n: 42, pid: expect.any(Number) }]);
        expect(first.rows).toEqual([{ a: 1 }]);
        expect(second.rows).toEqual([{ pid: prepared[0].pid }]);
        expect(watch.connections).toBe(1);
        expect(watch.writes).toEqual([
          [expect.stringMatching(/^SELECT \$1::int \+ 1 AS n/), expect.stringMatching(/^SELECT 1 AS a; SELECT/)],
        ]);
        expect(watch.released).toEqual([undefined]);
      } finally {
        watch.restore();
      }
    });

    it('sends what comes after a turn in a write of its own', async () => {
      const { dataSource } = handle;
      const watch = watchPool(dataSource);
      try {
        const pipeline = beginPipeline(dataSource);
        const first = await queryPrepared<{ n: number }>(dataSource, 'SELECT $1::int AS n', [1], pipeline);
        const second = await queryPrepared<{ n: number }>(dataSource, 'SELECT $1::int AS n', [2], pipeline);
        expect([first, second]).toEqual([[{ n: 1 }], [{ n: 2 }]]);
        expect(watch.connections).toBe(2);
        expect(watch.writes).toHaveLength(2);
      } finally {
        watch.restore();
      }
    });

    it('fails a failed statement alone, and the connection goes back to the pool as it was', async () => {
      const { dataSource } = handle;
      const watch = watchPool(dataSource);
      try {
        const pipeline = beginPipeline(dataSource);
        const [failed, fine] = await Promise.allSettled([
          queryPrepared(dataSource, 'SELECT 1 / $1::int AS n', [0], pipeline),
          queryPrepared<{ n: number }>(dataSource, 'SELECT $1::int AS n', [7], pipeline),
        ]);
        expect(failed).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
        expect(fine).toEqual({ status: 'fulfilled', value: [{ n: 7 }] });
        expect(watch.released).toEqual([undefined]);
      } finally {
        watch.restore();
      }
      expect(await dataSource.query('SELECT 1 AS n')).toEqual([{ n: 1 }]);
    });

    it('leaves no transaction open when a batch fails halfway: the statements behind it fail too, and nothing is kept', async () => {
      const { dataSource } = handle;
      await dataSource.query('CREATE TABLE IF NOT EXISTS pipeline_probe (id int)');
      try {
        const pipeline = beginPipeline(dataSource);
        const [batch, behind] = await Promise.allSettled([
          sendPipelined(pipeline, { text: 'BEGIN; INSERT INTO pipeline_probe VALUES (1); SELECT 1 / 0; COMMIT' }),
          queryPrepared(dataSource, 'SELECT count(*)::int AS n FROM pipeline_probe', [], pipeline),
        ]);
        expect(batch).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
        // In the batch's aborted transaction: "current transaction is aborted".
        expect(behind).toMatchObject({ status: 'rejected', reason: { code: '25P02' } });
        // Rolled back before the connection went back: the next statement on it (the embedded
        // database has only one) runs outside any transaction.
        expect(await dataSource.query('SELECT count(*)::int AS n FROM pipeline_probe')).toEqual([{ n: 0 }]);
        expect(await dataSource.query(`SELECT txid_current_if_assigned() AS open`)).toEqual([{ open: null }]);
      } finally {
        await dataSource.query('DROP TABLE pipeline_probe');
      }
    });
  });

  it('enforces the ledger invariants in the schema itself', async () => {
    await expect(
      handle.dataSource.query(
        `INSERT INTO users (email, password_hash, credits_cents) VALUES ('neg@example.com', 'x', -1)`,
      ),
    ).rejects.toThrow(/users_credits_not_negative/);
  });
});

describe('the embedded data folder lock', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-lock-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses a second user of the folder while the first is alive, naming what to do', async () => {
    const other = spawn('sleep', ['30']);
    try {
      fs.writeFileSync(path.join(dir, 'botsmith.lock'), String(other.pid));
      expect(() => DataDirLock.acquire(dir)).toThrow(DataDirLockedError);
      expect(() => DataDirLock.acquire(dir)).toThrow(/in use by another Botsmith process .*DATABASE_URL/s);
    } finally {
      other.kill();
    }
  });

  it('refuses a second open in the same process too', () => {
    fs.rmSync(path.join(dir, 'botsmith.lock'), { force: true });
    const lock = DataDirLock.acquire(dir);
    expect(() => DataDirLock.acquire(dir)).toThrow(DataDirLockedError);
    lock.release();
    expect(fs.existsSync(path.join(dir, 'botsmith.lock'))).toBe(false);
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const gone = spawn('true');
    await new Promise((resolve) => gone.once('exit', resolve));
    fs.writeFileSync(path.join(dir, 'botsmith.lock'), String(gone.pid));
    const lock = DataDirLock.acquire(dir);
    expect(fs.readFileSync(path.join(dir, 'botsmith.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
  });
});
