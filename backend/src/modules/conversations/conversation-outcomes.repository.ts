import { Injectable } from '@nestjs/common';
import { tryAdvisoryLock } from '../../database/advisory-locks.js';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import type { ConversationOutcome } from '@botsmith/contract';
import type { OutcomeFacts } from './conversation-outcome.js';

/** A conversation due for its outcome, with what the rule needs to know about it. */
export interface DueConversation extends OutcomeFacts {
  id: number;
}

/**
 * Reads and stores conversations' outcomes (docs/product.md#outcomes). "Due" means quiet since
 * `quietSince` and not decided since its last message (conversations_outcome_due_idx).
 */
@Injectable()
export class ConversationOutcomesRepository {
  /** Takes the advisory lock `key` until the transaction ends; false when another session holds it. */
  tryLock(tx: Transaction, key: number): Promise<boolean> {
    return tryAdvisoryLock(tx, key);
  }

  /**
   * Up to `limit` due conversations, oldest first, locked until the transaction ends; one a
   * message is being logged into right now is skipped (it is not quiet).
   */
  async due(tx: Transaction, quietSince: Date, limit: number): Promise<DueConversation[]> {
    const rows = await entityManagerOf(tx).query<
      Array<{ id: number; answers: number; unanswered: number; down: number; person: boolean }>
    >(
      `WITH due AS (
         SELECT c.id, c.handoff_at, c.unanswered_count, c.down_count FROM conversations c
          WHERE (c.outcome_at IS NULL OR c.outcome_at < c.last_message_at)
            AND c.last_message_at <= $1::timestamptz
          ORDER BY c.last_message_at
          LIMIT $2
            FOR UPDATE SKIP LOCKED
       )
       SELECT due.id,
              (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = due.id AND m.role = 'assistant')::int
                AS answers,
              due.unanswered_count AS unanswered, due.down_count AS down,
              (due.handoff_at IS NOT NULL
                 OR EXISTS (SELECT 1 FROM leads l WHERE l.conversation_id = due.id)
                 OR EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = due.id AND m.role = 'agent'))
                AS person
         FROM due`,
      [quietSince, limit],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      answers: Number(row.answers),
      unansweredAnswers: Number(row.unanswered),
      ratedDown: Number(row.down),
      personInvolved: row.person === true,
    }));
  }

  /** Stores each conversation's outcome as decided at `at`, in one statement. */
  async store(tx: Transaction, decided: Array<{ id: number; outcome: ConversationOutcome }>, at: Date): Promise<void> {
    if (decided.length === 0) return;
    await entityManagerOf(tx).query(
      `UPDATE conversations c SET outcome = d.outcome, outcome_at = $3::timestamptz
         FROM unnest($1::int[], $2::text[]) AS d(id, outcome)
        WHERE c.id = d.id`,
      [decided.map((d) => d.id), decided.map((d) => d.outcome), at],
    );
  }
}
