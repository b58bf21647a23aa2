import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createLogger } from '../../common/logger.js';
import { buildConfig, type AppConfig } from '../../config/config.js';
import { ConfigModule } from '../../config/config.module.js';
import { DataDirLockedError } from '../../database/data-dir-lock.js';
import { DatabaseModule } from '../../database/database.module.js';
import type { DatabaseTarget } from '../../database/database.options.js';
import { EmbeddedPostgres } from '../../database/embedded-postgres.js';
import { BillingCycleService } from './billing-cycle.service.js';
import { BillingModule } from './billing.module.js';

/**
 * `npm run billing:cycle [-- --at=2026-12-03T00:00:00Z]`: runs the monthly billing job by hand
 * (operations: after an outage, or to check it). The same BillingCycleService as the scheduler,
 * so the same advisory lock and the same identifiers: running it while the scheduler runs it,
 * or twice, reports nothing twice.
 *
 * - With DATABASE_URL: runs against that PostgreSQL, alongside running servers.
 * - On the embedded database: the data folder can be opened by one process only. If the server
 *   is running, this refuses with a clear message (the server's own scheduler runs the cycle at
 *   00:00 UTC on the 3rd and catches up within a minute of a restart). If it is not running, the
 *   command opens the folder itself and runs the cycle. We chose this over an internal HTTP
 *   endpoint: no extra authenticated surface on the public server for a monthly operation.
 */
@Module({})
class BillingCliModule {
  static forRoot(config: AppConfig, database: DatabaseTarget): DynamicModule {
    return {
      module: BillingCliModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(database), BillingModule],
    };
  }
}

function parseAt(argv: string[]): Date {
  const arg = argv.find((a) => a.startsWith('--at='));
  if (!arg) return new Date();
  const at = new Date(arg.slice('--at='.length));
  if (Number.isNaN(at.getTime())) throw new UsageError(`--at must be an ISO date, e.g. --at=2026-12-03T00:00:00Z`);
  return at;
}

export class UsageError extends Error {}

export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

/**
 * Runs the command; returns the exit code: 0 ran, 2 refused (embedded database in use),
 * 3 skipped (another instance holds the lock).
 */
export async function runBillingCycleCommand(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CommandOutput = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) },
): Promise<number> {
  const at = parseAt(argv);
  // The command never starts the scheduler's own jobs.
  const config: AppConfig = { ...buildConfig(env), runScheduler: false };
  let embedded: EmbeddedPostgres | undefined;
  let database: DatabaseTarget;
  if (config.database.url) {
    database = { url: config.database.url, embedded: false, poolSize: 2 };
  } else {
    try {
      embedded = await EmbeddedPostgres.start(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirLockedError) {
        io.err(
          `\nThe billing cycle was NOT run: the embedded database in ${config.dataDir} is in use by the running ` +
            `Botsmith server.\nThat server runs the cycle itself at 00:00 UTC on the 3rd (and within a minute of a ` +
            `restart if it missed one).\nTo run it by hand, stop the server first and run this command again, or use a ` +
            `PostgreSQL server (DATABASE_URL).\n\n`,
        );
        return 2;
      }
      throw error;
    }
    database = { url: embedded.url, embedded: true, poolSize: 1 };
  }

  const app = await NestFactory.createApplicationContext(BillingCliModule.forRoot(config, database), {
    logger: createLogger(config),
  });
  try {
    const result = await app.get(BillingCycleService).run(at);
    io.out(`${JSON.stringify(result, null, 2)}\n`);
    return result.ran ? 0 : 3;
  } finally {
    await app.close();
    await embedded?.stop();
  }
}
