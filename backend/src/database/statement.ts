import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isDeadlock } from '../common/postgres-errors.js';
import { beginPipeline, type Pipeline } from './pipeline.js';
import { queryPrepared } from './prepared.js';
import { entityManagerOf, type Transaction } from './transaction.js';

declare const opaque: unique symbol;

/**
 * One SQL statement being assembled from parts that different modules own: services pass the
 * handle along, as they pass a `Transaction`, and each module's repository adds its part
 * (`partsOf`). A single statement is atomic without a transaction and costs one round trip, which
 * is why a chat answer's record and charge travel this way (docs/decisions/0016-chat-path-cost.md).
 */
export interface Statement {
  readonly [opaque]: 'Statement';
}

/**
 * A value one part offers the others (the id of the row it inserts, the credits it took), as SQL
 * only repositories read (`sqlOf`). Services only hand it from one module to another.
 */
export interface SqlValue {
  readonly [opaque]: 'SqlValue';
}

/** The statement's one result row; each part reads back the columns it added. */
export type StatementRow = Readonly<Record<string, unknown>>;

/**
 * Repositories only: the statement's parts. Each part is a common table expression (a
 * data-modifying one, or a query others read), with the columns of the result row it wants back.
 * PostgreSQL runs every data-modifying part exactly once, all on one snapshot, and none sees
 * another's rows except through what it RETURNs: a part that needs another's result reads it
 * from that part's name (an `SqlValue`), which also orders them.
 */
export class StatementParts {
  private readonly params: unknown[] = [];
  private readonly types: string[] = [];
  private readonly parts = new Map<string, string>();
  private readonly columns = new Map<string, string>();

  /** The placeholder of a new parameter, cast to `type` (every placeholder is cast: no guessing). */
  param(value: unknown, type: string): string {
    this.params.push(value);
    this.types.push(type);
    return `$${this.params.length}::${type}`;
  }

  /** Adds the part `name`; names are the parts' contract with each other, so one may not come twice. */
  with(name: string, sql: string): void {
    if (this.parts.has(name)) throw new Error(`The statement already has a part named ${name}`);
    this.parts.set(name, sql);
  }

  /** A column of the result row, named `alias`, for the part that added it to read back. */
  select(alias: string, expression: string): void {
    if (this.columns.has(alias)) throw new Error(`The statement already selects ${alias}`);
    this.columns.set(alias, expression);
  }

  /** The SQL text and its parameters. */
  toQuery(): [sql: string, params: unknown[]] {
    if (this.parts.size === 0) throw new Error('A statement needs at least one part');
    const parts = [...this.parts].map(([name, sql]) => `${name} AS (\n${sql}\n)`).join(',\n');
    const columns = [...this.columns].map(([alias, expression]) => `${expression} AS "${alias}"`).join(', ');
    return [`WITH ${parts}\nSELECT ${columns || '1 AS "done"'}`, [...this.params]];
  }

  /**
   * The SQL text with every parameter written in as a literal, for a batch of statements in one
   * round trip (the simple protocol, which takes no parameters). Only values whose literal cannot
   * carry outside text are written: null, safe integers, dates, UUIDs, and tokens of at most 200
   * letters, digits, '_', '-' and '.' (ids this server issued or checked); anything else throws.
   */
  toInlinedSql(): string {
    const [sql] = this.toQuery();
    return sql.replace(/\$(\d+)(?=::)/g, (_, n: string) =>
      inlineLiteral(this.params[Number(n) - 1], this.types[Number(n) - 1]),
    );
  }
}

const INLINE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INLINE_TOKEN = /^[A-Za-z0-9_.-]{0,200}$/;

/** One parameter as a literal (toInlinedSql); throws for a value that could carry outside text. */
function inlineLiteral(value: unknown, type: string): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (value instanceof Date && !Number.isNaN(value.getTime())) return `'${value.toISOString()}'`;
  if (typeof value === 'string' && (type === 'uuid' ? INLINE_UUID : INLINE_TOKEN).test(value)) return `'${value}'`;
  throw new Error(`A ${type} parameter that is not a plain id, number or date cannot be written into a batch`);
}

/** Repositories only: the parts behind a statement handle. */
export function partsOf(statement: Statement): StatementParts {
  return statement as unknown as StatementParts;
}

/** Repositories only: a value's SQL. */
export function sqlOf(value: SqlValue): string {
  return (value as unknown as { sql: string }).sql;
}

/** Repositories only: SQL offered to other parts as a value. */
export function sqlValue(sql: string): SqlValue {
  return Object.freeze({ sql }) as unknown as SqlValue;
}

/** Whether `value` is an SqlValue (else a plain value, sent as a parameter). */
export function isSqlValue(value: unknown): value is SqlValue {
  return typeof value === 'object' && value !== null && Object.isFrozen(value) && 'sql' in value;
}

/** Repositories only: runs a statement's parts on a data source or a transaction's manager; its one row. */
export async function runParts(
  on: { query(sql: string, params: unknown[]): Promise<unknown> },
  parts: StatementParts,
): Promise<StatementRow> {
  const rows = (await on.query(...parts.toQuery())) as StatementRow[];
  return rows[0] ?? {};
}

/** Starts statements and runs them. */
@Injectable()
export class StatementRunner {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  begin(): Statement {
    return new StatementParts() as unknown as Statement;
  }

  /** Statements sent together (database/pipeline.ts): one round trip for those sent in one turn. */
  beginPipeline(): Pipeline {
    return beginPipeline(this.dataSource);
  }

  /** Runs the statement, in `tx` when given (then it is one of the transaction's statements). */
  async run(statement: Statement, tx?: Transaction): Promise<StatementRow> {
    if (tx) return runParts(entityManagerOf(tx), partsOf(statement));
    return this.runPrepared(statement);
  }

  /** Runs the statement with the pipeline's others (one round trip for all of them). */
  runPipelined(statement: Statement, pipeline: Pipeline): Promise<StatementRow> {
    return this.runPrepared(statement, pipeline);
  }

  private async runPrepared(statement: Statement, pipeline?: Pipeline): Promise<StatementRow> {
    // On its own, a statement's text carries no values (parameters only): it may be prepared.
    const [sql, params] = partsOf(statement).toQuery();
    const [row] = await queryPrepared<StatementRow>(this.dataSource, sql, params, pipeline);
    return row ?? {};
  }

  /**
   * `run` on its own, again when PostgreSQL ended it to break a deadlock (up to `attempts` runs in
   * all): a statement that failed left nothing behind (see TransactionRunner.runRetryingDeadlocks).
   */
  async runRetryingDeadlocks(statement: Statement, attempts = 3): Promise<StatementRow> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.run(statement);
      } catch (error) {
        if (!isDeadlock(error) || attempt >= attempts) throw error;
      }
    }
  }
}
