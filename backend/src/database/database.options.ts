import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations/index.js';

export interface DatabaseTarget {
  url: string;
  /** True for the in-process PGlite, which serves exactly one connection. */
  embedded: boolean;
  poolSize: number;
}

/** One place that says how we talk to PostgreSQL; the app, the CLI and the tests share it. */
export function dataSourceOptions(target: DatabaseTarget): DataSourceOptions {
  return {
    type: 'postgres',
    url: target.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    // PGlite has no uuid-ossp; gen_random_uuid() is built into PostgreSQL 13+.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    poolSize: target.embedded ? 1 : target.poolSize,
    extra: {
      max: target.embedded ? 1 : target.poolSize,
      // With a pool of one, a query issued outside its transaction's manager waits for the
      // connection forever; a timeout turns that mistake into a loud error.
      connectionTimeoutMillis: 15_000,
      options: '-c timezone=UTC',
    },
  };
}
