import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DatabasePing } from './database-ping.js';
import { StatementRunner } from './statement.js';
import { TransactionRunner } from './transaction.js';
import { dataSourceOptions, type DatabaseTarget } from './database.options.js';
import { runPendingMigrations } from './pending-migrations.js';

export const DATABASE_TARGET = Symbol('DATABASE_TARGET');

/**
 * TypeORM over the PostgreSQL the bootstrap chose (a server or the embedded PGlite).
 * Pending migrations run at start, before any module can use the database; `synchronize` is never used.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(target: DatabaseTarget): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => dataSourceOptions(target),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            try {
              await runPendingMigrations(dataSource);
            } catch (error) {
              await dataSource.destroy();
              throw error;
            }
            return dataSource;
          },
        }),
      ],
      providers: [{ provide: DATABASE_TARGET, useValue: target }, TransactionRunner, StatementRunner, DatabasePing],
      exports: [DATABASE_TARGET, TransactionRunner, StatementRunner, DatabasePing],
    };
  }
}
