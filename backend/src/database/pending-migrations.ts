import type { DataSource } from 'typeorm';
import { isUndefinedTable } from '../common/postgres-errors.js';

/** The names in the migrations table; empty when the table is not there yet (a new database). */
async function appliedMigrations(dataSource: DataSource, table: string): Promise<Set<string>> {
  try {
    const rows: Array<{ name: string }> = await dataSource.query(`SELECT name FROM "${table}"`);
    return new Set(rows.map((row) => row.name));
  } catch (error) {
    if (isUndefinedTable(error)) return new Set();
    throw error;
  }
}

/**
 * Runs the migrations the database has not run yet, as TypeORM's `migrationsRun` would, but asks
 * first with one query: on a start with nothing pending (nearly every start) TypeORM's own check
 * reads information_schema twice and the whole table, about 60 ms on the embedded database
 * (docs/decisions/0016-chat-path-cost.md, "Start-up: the database on its own thread").
 */
export async function runPendingMigrations(dataSource: DataSource): Promise<void> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const applied = await appliedMigrations(dataSource, table);
  const pending = dataSource.migrations.some((migration) => !applied.has(migration.name ?? migration.constructor.name));
  if (pending) await dataSource.runMigrations({ transaction: 'each' });
}
