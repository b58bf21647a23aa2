import { Injectable, Logger } from '@nestjs/common';
import {
  CONVERSATION_OUTCOME_BATCH,
  CONVERSATION_OUTCOME_LOCK_KEY,
  CONVERSATION_OUTCOME_QUIET_MS,
} from '../../common/constants.js';
import { TransactionRunner } from '../../database/transaction.js';
import { decideOutcome } from './conversation-outcome.js';
import { ConversationOutcomesRepository } from './conversation-outcomes.repository.js';

export interface OutcomesResult {
  /** Conversations whose outcome was decided (or decided again) by this run. */
  decided: number;
  /** True when another instance held the lock, so this one left the work to it. */
  skipped: boolean;
}

/**
 * Decides the outcome of every conversation quiet for CONVERSATION_OUTCOME_QUIET_MS at `now`
 * (docs/product.md#outcomes): run every few minutes by ConversationsScheduler. One that
 * resumes is due again once it is quiet again, and then decided on all its messages. Batches of
 * CONVERSATION_OUTCOME_BATCH, one short transaction each under the advisory lock, like retention:
 * two instances never decide the same rows twice at once.
 */
@Injectable()
export class ConversationOutcomesService {
  private readonly logger = new Logger('ConversationOutcomes');

  constructor(
    private readonly repository: ConversationOutcomesRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  async run(now = new Date(), batchSize = CONVERSATION_OUTCOME_BATCH): Promise<OutcomesResult> {
    const quietSince = new Date(now.getTime() - CONVERSATION_OUTCOME_QUIET_MS);
    let decided = 0;
    for (;;) {
      const batch = await this.transactions.run(async (tx) => {
        if (!(await this.repository.tryLock(tx, CONVERSATION_OUTCOME_LOCK_KEY))) return null;
        const due = await this.repository.due(tx, quietSince, batchSize);
        await this.repository.store(
          tx,
          due.map((facts) => ({ id: facts.id, outcome: decideOutcome(facts) })),
          now,
        );
        return due.length;
      });
      if (batch === null) return { decided, skipped: true };
      decided += batch;
      if (batch < batchSize) break;
    }
    if (decided > 0) this.logger.debug(`Decided the outcome of ${decided} conversations`);
    return { decided, skipped: false };
  }
}
