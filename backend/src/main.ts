import 'reflect-metadata';
import { buildConfig, type AppConfig } from './config/config.js';
import { ConfigValidationError } from './config/environment.js';
import { DataDirLockedError } from './database/data-dir-lock.js';
import { EmbeddedPostgres } from './database/embedded-postgres.js';
import type { DatabaseTarget } from './database/database.options.js';
import { describeError, describeErrorWithStack } from './common/error-description.js';

async function main(): Promise<void> {
  const started = performance.now();
  const config: AppConfig = buildConfig();
  // The embedded database opens on a thread of its own while the application's modules load here:
  // the two were the largest parts of a start (docs/decisions/0015-a-migrated-template-for-new-data-folders.md,
  // docs/decisions/0016-chat-path-cost.md, "Start-up: the database on its own thread").
  const opening = config.database.url
    ? undefined
    : EmbeddedPostgres.start(config.dataDir, { onLost: (error) => databaseLost(error) });
  opening?.catch(() => undefined); // awaited below; this only keeps a refusal from being "unhandled" meanwhile
  // Nest and everything else load after the database began to open: the modules imported above
  // are the few it needs.
  const [{ createApp }, { Logger }] = await Promise.all([import('./app.setup.js'), import('@nestjs/common')]);
  let embedded: EmbeddedPostgres | undefined;
  let database: DatabaseTarget;
  if (config.database.url) {
    database = { url: config.database.url, embedded: false, poolSize: config.database.poolSize };
  } else {
    embedded = await opening!;
    database = { url: embedded.url, embedded: true, poolSize: 1 };
  }

  const app = await createApp(config, database);
  // Graceful shutdown: stop taking requests, let in-flight ones finish, close the pool, then
  // the embedded database (which releases the data-folder lock).
  const shutdown = (signal: string) => {
    Logger.log(`${signal} received: shutting down`, 'Bootstrap');
    app
      .close()
      .then(() => embedded?.stop())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          Logger.error(describeError(error), 'Bootstrap');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  await app.listen(config.port, config.host);
  const folder = { existing: '', template: ', new folder from the template', initdb: ', new folder' };
  const where = embedded ? `embedded PGlite in ${config.dataDir}${folder[embedded.origin]}` : 'PostgreSQL server';
  Logger.log(
    `Botsmith is running at ${config.publicUrl} (database: ${where}; ready in ${Math.round(performance.now() - started)} ms)`,
    'Bootstrap',
  );
}

/** The embedded database's thread ended under a running app: nothing can be answered any more. */
function databaseLost(error: Error): never {
  process.stderr.write(
    `Botsmith stopped: the embedded database ended unexpectedly: ${describeErrorWithStack(error)}\n`,
  );
  process.exit(1);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigValidationError || error instanceof DataDirLockedError) {
    process.stderr.write(`\n${error.message}\n\n`);
  } else {
    process.stderr.write(`Botsmith could not start: ${describeErrorWithStack(error)}\n`);
  }
  process.exit(1);
});
