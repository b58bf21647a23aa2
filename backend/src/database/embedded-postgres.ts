import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { DataDirLock } from './data-dir-lock.js';

/**
 * The embedded default database: PGlite (PostgreSQL compiled to WASM) inside this process,
 * served on a random loopback port over the Postgres wire protocol. TypeORM then talks to it
 * through the ordinary `pg` driver, exactly as in production, with a pool of one connection
 * (pglite-socket serves one session at a time; more connections corrupt transactions). It carries
 * the pgvector extension, so passage vectors are ranked by the database.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly lock: DataDirLock,
    readonly url: string,
  ) {}

  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    const lock = DataDirLock.acquire(dataDir);
    try {
      // pgvector is loaded on every start: a data folder whose passages were embedded has vector columns.
      const db = await PGlite.create({ dataDir: path.join(dataDir, 'pgdata'), extensions: { vector } });
      const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
      await server.start();
      const url = `postgresql://postgres@${server.getServerConn()}/postgres`;
      return new EmbeddedPostgres(db, server, lock, url);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  async stop(): Promise<void> {
    try {
      await this.server.stop();
      await this.db.close();
    } finally {
      this.lock.release();
    }
  }
}
