import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { MigrationInterface } from 'typeorm';

export type MigrationList = Array<new () => MigrationInterface>;

/** Where templates are made and which migrations they carry. */
export interface TemplateSource {
  /** A folder for templates, outside every data folder (by default node_modules/.cache/botsmith). */
  root: string;
  migrations: MigrationList;
}

/** Partial copies and builds older than this were left by a process that died; they are removed. */
const STALE_PARTIAL_MS = 60 * 60 * 1000;
/** Templates made for another set of migrations are removed after a day (a running test may still copy one). */
const STALE_TEMPLATE_MS = 24 * 60 * 60 * 1000;

/**
 * The one value the migrations make at random (1795305978000: the demo bot's API key). A folder
 * copied from the template gets its own, as if it had been migrated itself; a migration that
 * writes another per-installation random value must add it here. It runs on a folder restored from
 * the template before anyone can connect (ServeOptions.setupSql)
 * (docs/decisions/0015-a-migrated-template-for-new-data-folders.md).
 */
export const PER_FOLDER_VALUES = `DO $$ BEGIN
  IF to_regclass('public.bots') IS NOT NULL THEN
    UPDATE bots SET api_key = replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')
     WHERE id = 1;
  END IF;
END $$`;

const require = createRequire(import.meta.url);

function packageFolder(name: string): string {
  // The entry point lies in <package>/dist/; its package.json is one folder up.
  let dir = path.dirname(require.resolve(name));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

/** node_modules/.cache/botsmith beside the installed PGlite: a cache that goes with the install. */
export function defaultTemplateRoot(): string {
  const pglite = packageFolder('@electric-sql/pglite');
  const marker = `${path.sep}node_modules${path.sep}`;
  return path.join(pglite.slice(0, pglite.lastIndexOf(marker) + marker.length), '.cache', 'botsmith');
}

function packageVersion(name: string): string {
  return (JSON.parse(fs.readFileSync(path.join(packageFolder(name), 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** A template is only ever used by the PGlite that made it, for exactly the migrations it ran. */
export function templateKey(migrations: MigrationList): string {
  const identity = JSON.stringify({
    pglite: packageVersion('@electric-sql/pglite'),
    pgvector: packageVersion('@electric-sql/pglite-pgvector'),
    migrations: migrations.map((migration) => migration.name),
  });
  return crypto.createHash('sha256').update(identity).digest('hex').slice(0, 16);
}

/**
 * PostgreSQL's default is 128MB, which PGlite sets up in its WASM memory on every open: measured
 * here, an open took 1.0-1.2 s with it and 0.77-0.82 s with 32MB, and the process kept 100 MB less
 * (docs/decisions/0016-chat-path-cost.md, "Start-up: one bundle"). The embedded database serves one
 * installation's small tables; the files stay in the operating system's cache besides.
 */
const EMBEDDED_SHARED_BUFFERS = '32MB';

/** A PGlite served on a loopback port by its own thread; `stop` closes it (and ends the thread). */
export interface ServedPglite {
  url: string;
  stop(): Promise<void>;
}

export interface ServeOptions {
  /** Runs before anyone can connect (a folder restored from the template gets its own values). */
  setupSql?: string;
  /** Called if the thread ends without being stopped (PostgreSQL aborted); the default throws it. */
  onLost?: (error: Error) => void;
}

type WorkerReply =
  { type: 'ready'; host: string; port: number } | { type: 'stopped' } | { type: 'failed'; message: string };

/** The thread's file, plain JavaScript beside this one (in src/ under the tests, in dist/ when built). */
export const PGLITE_WORKER_URL = new URL('./pglite.worker.mjs', import.meta.url);

function nextReply(worker: Worker): Promise<WorkerReply> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number) => reject(new Error(`The embedded database's thread ended (exit code ${code}).`));
    worker.once('error', reject);
    worker.once('exit', onExit);
    worker.once('message', (reply: WorkerReply) => {
      worker.off('error', reject);
      worker.off('exit', onExit);
      resolve(reply);
    });
  });
}

/**
 * A PGlite on `pgdata` served on a random loopback port, for the `pg` driver (ADR 0001), from a
 * worker thread (pglite.worker.mjs): opening the folder and running statements in WebAssembly
 * would otherwise take the event loop the application serves its requests on.
 */
export async function servePglite(pgdata: string, options: ServeOptions = {}): Promise<ServedPglite> {
  const worker = new Worker(PGLITE_WORKER_URL, {
    workerData: {
      pgdata,
      sharedBuffers: EMBEDDED_SHARED_BUFFERS,
      setupSql: options.setupSql,
    },
  });
  let reply: WorkerReply;
  try {
    reply = await nextReply(worker);
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  if (reply.type !== 'ready') {
    await worker.terminate();
    throw new Error(reply.type === 'failed' ? reply.message : 'The embedded database did not start.');
  }
  let stopping = false;
  const onLost =
    options.onLost ??
    ((error: Error) => {
      throw error;
    });
  worker.on('error', (error) => {
    if (!stopping) onLost(error);
  });
  worker.on('exit', (code) => {
    if (!stopping) onLost(new Error(`The embedded database stopped unexpectedly (exit code ${code}).`));
  });
  return {
    url: `postgresql://postgres@${reply.host}:${reply.port}/postgres`,
    async stop() {
      if (stopping) return;
      stopping = true;
      const stopped = nextReply(worker);
      worker.postMessage('stop');
      try {
        const outcome = await stopped;
        if (outcome.type === 'failed') throw new Error(outcome.message);
      } finally {
        await worker.terminate();
      }
    },
  };
}

async function buildTemplate(dir: string, migrations: MigrationList): Promise<void> {
  // TypeORM is imported here, not at the top: every embedded start imports this module before the
  // database opens, and only a start that has to build the template needs TypeORM that early.
  const [{ DataSource }, { dataSourceOptions }] = await Promise.all([
    import('typeorm'),
    import('./database.options.js'),
  ]);
  const served = await servePglite(dir);
  const dataSource = new DataSource({
    ...dataSourceOptions({ url: served.url, embedded: true, poolSize: 1 }),
    migrations,
  });
  try {
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await served.stop();
  }
}

function removeStale(root: string, keep: string): void {
  const now = Date.now();
  for (const entry of fs.readdirSync(root)) {
    if (!entry.startsWith('pgdata-') || entry === keep) continue;
    const full = path.join(root, entry);
    try {
      const age = now - fs.statSync(full).mtimeMs;
      if (age > (entry.includes('.partial-') ? STALE_PARTIAL_MS : STALE_TEMPLATE_MS)) {
        fs.rmSync(full, { recursive: true, force: true });
      }
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

/**
 * The migrated template folder for `source`, made now when missing: initdb and every migration
 * run once in a partial folder, which is renamed into place only when complete. Two processes
 * may build at once; the first rename wins and the other's copy is dropped. Undefined when no
 * template can be made (e.g. a read-only cache): the caller initialises the folder itself.
 */
export async function ensureTemplate(source: TemplateSource): Promise<string | undefined> {
  const name = `pgdata-${templateKey(source.migrations)}`;
  const dir = path.join(source.root, name);
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return dir;
  const partial = path.join(source.root, `${name}.partial-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  try {
    fs.mkdirSync(source.root, { recursive: true });
    await buildTemplate(partial, source.migrations);
    try {
      fs.renameSync(partial, dir);
    } catch (error) {
      if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw error;
      fs.rmSync(partial, { recursive: true, force: true });
    }
    removeStale(source.root, name);
    return dir;
  } catch {
    fs.rmSync(partial, { recursive: true, force: true });
    return undefined;
  }
}

/** A data folder that PGlite has never initialised: no pgdata, or an empty one. */
export function isNewPgdata(pgdata: string): boolean {
  try {
    return fs.readdirSync(pgdata).length === 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Copies left by a start that died midway (`pgdata.partial-<pid>`); the caller holds the folder's lock. */
export function removePartialCopies(dataDir: string): void {
  for (const entry of fs.readdirSync(dataDir)) {
    if (entry.startsWith('pgdata.partial-')) fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
  }
}

/**
 * Restores the template into the new folder `pgdata`: copied beside it, then renamed, so a copy
 * cut short never looks like a database. False when there is no template or the copy failed
 * (nothing is left behind): PGlite then initialises the folder as before.
 */
export async function restoreTemplate(pgdata: string, source: TemplateSource): Promise<boolean> {
  const template = await ensureTemplate(source);
  if (!template) return false;
  const partial = `${pgdata}.partial-${process.pid}`;
  try {
    fs.rmSync(partial, { recursive: true, force: true });
    fs.cpSync(template, partial, { recursive: true });
    fs.rmSync(pgdata, { recursive: true, force: true });
    fs.renameSync(partial, pgdata);
    return true;
  } catch {
    fs.rmSync(partial, { recursive: true, force: true });
    return false;
  }
}
