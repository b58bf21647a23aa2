import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.setup.js';
import { buildConfig, type AppConfig } from '../../src/config/config.js';
import type { DatabaseTarget } from '../../src/database/database.options.js';
import { EmbeddedPostgres, type EmbeddedOptions } from '../../src/database/embedded-postgres.js';
import { createFileDatabase, serverUrl } from './test-database.js';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  dataSource: DataSource;
  database: DatabaseTarget;
  /** The origin the app believes it is served from (PUBLIC_URL); send it as `Origin`. */
  origin: string;
  dataDir: string;
  /** The embedded PGlite, when the app runs on one. */
  embedded?: EmbeddedPostgres;
  /** A supertest agent that keeps cookies, like one browser. */
  agent(): request.Agent;
  http(): ReturnType<typeof request>;
  close(): Promise<void>;
}

/** Variables that would switch a test onto a real external service are never inherited. */
const EXTERNAL = ['DATABASE_URL', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'OPENAI_API_KEY', 'S3_BUCKET', 'REDIS_URL'];

export interface TestAppOptions {
  /** Serve the frontend and widget from these folders instead of the repository's builds. */
  staticRoots?: AppConfig['staticRoots'];
  /** Run on the embedded PGlite (even when TEST_DATABASE_URL is set), started with these options. */
  embedded?: EmbeddedOptions;
}

/**
 * Starts the real application (the same `createApp` as `npm start`) on a fresh database:
 * a PostgreSQL server database when TEST_DATABASE_URL is set, else an embedded PGlite.
 * `env` sets environment variables for this app only (e.g. SMTP_URL to a test SMTP server;
 * DATABASE_URL to share one database between several instances).
 */
export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-test-'));
  const baseEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const key of EXTERNAL) delete baseEnv[key];
  const built = buildConfig({
    ...baseEnv,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    RUN_SCHEDULER: 'false',
    // Every test request comes from loopback, so the per-IP account limit would end a spec after
    // 20 signups; the spec of that limit sets it back to the default.
    SIGNUP_IP_RATE_LIMIT: '100000',
    ...env,
  });
  const config: AppConfig = { ...built, staticRoots: options.staticRoots ?? built.staticRoots };

  let embedded: EmbeddedPostgres | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  let database: DatabaseTarget;
  if (serverUrl() && !env.DATABASE_URL && !options.embedded) {
    const created = await createFileDatabase();
    dropDatabase = created.drop;
    database = { url: created.url, embedded: false, poolSize: 10 };
  } else if (env.DATABASE_URL) {
    database = { url: env.DATABASE_URL, embedded: false, poolSize: 10 };
  } else {
    embedded = await EmbeddedPostgres.start(dataDir, options.embedded);
    database = { url: embedded.url, embedded: true, poolSize: 1 };
  }

  const app = await createApp(config, database);
  await app.init();
  const server = app.getHttpServer();
  return {
    app,
    config,
    database,
    dataSource: app.get(DataSource),
    origin: config.publicUrl,
    dataDir,
    embedded,
    agent: () => request.agent(server),
    http: () => request(server),
    async close() {
      await app.close();
      await embedded?.stop();
      await dropDatabase?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
