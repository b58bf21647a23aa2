import { Injectable } from '@nestjs/common';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';

/** What an owner asked for that counts against a daily limit. */
export type SourceRequest = 'websites' | 'refreshes';

/** The only place that queries `source_daily_requests` (migration 1798610000000). */
@Injectable()
export class SourceDailyRequestsRepository {
  /**
   * Counts one more `request` for the owner today (UTC) unless `limit` are counted already:
   * true when counted. The upsert holds the row's lock until `tx` ends, so two requests at once
   * cannot both take the last place, and a request whose transaction rolls back counts nothing.
   * The owner's rows of earlier days go at the same time (no other reader needs them).
   */
  async take(tx: Transaction, ownerId: number, request: SourceRequest, limit: number): Promise<boolean> {
    const manager = entityManagerOf(tx);
    const column = request === 'websites' ? 'websites' : 'refreshes';
    const today = "(now() AT TIME ZONE 'UTC')::date";
    await manager.query(`DELETE FROM source_daily_requests WHERE owner_id = $1 AND day < ${today}`, [ownerId]);
    const rows: unknown = await manager.query(
      `INSERT INTO source_daily_requests AS r (owner_id, day, ${column})
       VALUES ($1, ${today}, 1)
       ON CONFLICT (owner_id, day) DO UPDATE SET ${column} = r.${column} + 1
         WHERE r.${column} < $2
       RETURNING r.${column} AS used`,
      [ownerId, limit],
    );
    return returnedRows(rows).length > 0;
  }
}

/** TypeORM answers an INSERT ... RETURNING on PostgreSQL with the rows (PGlite may wrap them). */
function returnedRows(result: unknown): unknown[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as unknown[];
  }
  return Array.isArray(result) ? result : [];
}
