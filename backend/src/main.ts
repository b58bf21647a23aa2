import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.setup.js';
import { buildConfig, type AppConfig } from './config/config.js';
import { ConfigValidationError } from './config/environment.js';
import { DataDirLockedError } from './database/data-dir-lock.js';
import { EmbeddedPostgres } from './database/embedded-postgres.js';
import type { DatabaseTarget } from './database/database.options.js';

async function main(): Promise<void> {
  const started = performance.now();
  const config: AppConfig = buildConfig();
  let embedded: EmbeddedPostgres | undefined;
  let database: DatabaseTarget;
  if (config.database.url) {
    database = { url: config.database.url, embedded: false, poolSize: config.database.poolSize };
  } else {
    embedded = await EmbeddedPostgres.start(config.dataDir);
    database = { url: embedded.url, embedded: true, poolSize: 1 };
  }

  const app = await createApp(config, database);
  if (embedded) {
    const db = embedded;
    // Nest closes the app (and its connections) on SIGTERM; the embedded database goes after it.
    process.once('beforeExit', () => void db.stop());
    app
      .getHttpAdapter()
      .getHttpServer()
      .once('close', () => void db.stop());
  }
  await app.listen(config.port, config.host);
  const where = embedded ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL server';
  Logger.log(
    `Botsmith is running at ${config.publicUrl} (database: ${where}; ready in ${Math.round(performance.now() - started)} ms)`,
    'Bootstrap',
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigValidationError || error instanceof DataDirLockedError) {
    process.stderr.write(`\n${error.message}\n\n`);
  } else {
    process.stderr.write(
      `Botsmith could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
