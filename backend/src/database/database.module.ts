import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabasePing } from './database-ping.js';
import { StatementRunner } from './statement.js';
import { TransactionRunner } from './transaction.js';
import { dataSourceOptions, type DatabaseTarget } from './database.options.js';

export const DATABASE_TARGET = Symbol('DATABASE_TARGET');

/**
 * TypeORM over the PostgreSQL the bootstrap chose (a server or the embedded PGlite).
 * Migrations run at start; `synchronize` is never used.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(target: DatabaseTarget): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(target), migrationsRun: true })],
      providers: [{ provide: DATABASE_TARGET, useValue: target }, TransactionRunner, StatementRunner, DatabasePing],
      exports: [DATABASE_TARGET, TransactionRunner, StatementRunner, DatabasePing],
    };
  }
}
