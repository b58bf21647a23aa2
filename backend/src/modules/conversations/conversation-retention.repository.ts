import { Injectable } from '@nestjs/common';
import { tryAdvisoryLock } from '../../database/advisory-locks.js';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';

/**
 * The only place that deletes conversations by age (docs/product.md#retention-and-visitor-privacy).
 * It reads each owner's `users.conversation_retention_days` in its own query, like billing reads
 * the users columns it needs.
 */
@Injectable()
export class ConversationRetentionRepository {
  /** Takes the advisory lock `key` until the transaction ends; false when another session holds it. */
  tryLock(tx: Transaction, key: number): Promise<boolean> {
    return tryAdvisoryLock(tx, key);
  }

  /**
   * Deletes up to `limit` conversations whose last message is older than their owner's retention
   * at `now` (owners who keep them forever have NULL and are never matched); returns how many.
   * Their messages, ratings included, go with them (ON DELETE CASCADE); the usage ledger keeps
   * its rows, whose message_id becomes NULL (ON DELETE SET NULL), so the billing figures stay.
   * A conversation a message is being logged into is locked by that insert and skipped (its last
   * message is about to be new anyway).
   */
  async deleteExpired(tx: Transaction, now: Date, limit: number): Promise<number> {
    // Counted by a SELECT: TypeORM answers a bare DELETE ... RETURNING with [rows, affected].
    const [row] = await entityManagerOf(tx).query<Array<{ deleted: number }>>(
      `WITH doomed AS (
         SELECT c.id FROM conversations c
           JOIN users u ON u.id = c.owner_id
          WHERE u.conversation_retention_days IS NOT NULL
            AND c.last_message_at < $1::timestamptz - u.conversation_retention_days * interval '1 day'
          ORDER BY c.id
          LIMIT $2
            FOR UPDATE OF c SKIP LOCKED
       ), gone AS (
         DELETE FROM conversations c USING doomed WHERE c.id = doomed.id RETURNING c.id
       )
       SELECT COUNT(*)::int AS deleted FROM gone`,
      [now, limit],
    );
    return Number(row?.deleted ?? 0);
  }
}
