import path from 'node:path';
import { DataDirLock } from './data-dir-lock.js';
import { MIGRATIONS } from './migrations/index.js';
import {
  PER_FOLDER_VALUES,
  defaultTemplateRoot,
  isNewPgdata,
  removePartialCopies,
  restoreTemplate,
  servePglite,
  type ServedPglite,
  type TemplateSource,
} from './pgdata-template.js';

export interface EmbeddedOptions {
  /** Where a new folder is copied from (default: node_modules/.cache/botsmith, every migration); false: initdb in place. */
  template?: TemplateSource | false;
  /** Called if the database's thread ends while the app uses it; by default that is thrown (and ends the process). */
  onLost?: (error: Error) => void;
}

/** How the folder came to be: opened as it was, copied from the migrated template, or initialised here. */
export type PgdataOrigin = 'existing' | 'template' | 'initdb';

/**
 * The embedded default database: PGlite (PostgreSQL compiled to WASM) inside this process, on a
 * worker thread of its own (pglite.worker.mjs), served on a random loopback port over the Postgres wire protocol. TypeORM then talks to it
 * through the ordinary `pg` driver, exactly as in production, with a pool of one connection
 * (pglite-socket serves one session at a time; more connections corrupt transactions). It carries
 * the pgvector extension, so passage vectors are ranked by the database. A new data folder starts
 * as a copy of a migrated template, so a first start skips initdb and the migrations made so far
 * (docs/decisions/0015-a-migrated-template-for-new-data-folders.md).
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly served: ServedPglite,
    private readonly lock: DataDirLock,
    readonly origin: PgdataOrigin,
  ) {}

  get url(): string {
    return this.served.url;
  }

  static async start(dataDir: string, options: EmbeddedOptions = {}): Promise<EmbeddedPostgres> {
    const lock = DataDirLock.acquire(dataDir);
    try {
      const pgdata = path.join(dataDir, 'pgdata');
      removePartialCopies(dataDir);
      let origin: PgdataOrigin = 'existing';
      if (isNewPgdata(pgdata)) {
        const template = options.template ?? { root: defaultTemplateRoot(), migrations: MIGRATIONS };
        origin = template && (await restoreTemplate(pgdata, template)) ? 'template' : 'initdb';
      }
      const served = await servePglite(pgdata, {
        setupSql: origin === 'template' ? PER_FOLDER_VALUES : undefined,
        onLost: options.onLost,
      });
      return new EmbeddedPostgres(served, lock, origin);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  async stop(): Promise<void> {
    try {
      await this.served.stop();
    } finally {
      this.lock.release();
    }
  }
}
