import { Injectable, Logger } from '@nestjs/common';
import { CONVERSATION_RETENTION_BATCH, CONVERSATION_RETENTION_LOCK_KEY } from '../../common/constants.js';
import { TransactionRunner } from '../../database/transaction.js';
import { LeadsService } from '../leads/leads.service.js';
import { ConversationRetentionRepository } from './conversation-retention.repository.js';

export interface RetentionResult {
  /** Conversations deleted (with their messages). */
  deleted: number;
  /** True when another instance held the lock, so this one left the work to it. */
  skipped: boolean;
}

/**
 * Deletes visitors' conversations older than their owner's retention (daily, see
 * ConversationsScheduler). In batches of CONVERSATION_RETENTION_BATCH, one transaction
 * each, so no transaction holds many row locks or the embedded database's only connection for
 * long. Each batch takes the advisory lock: when another instance holds it, that instance is
 * doing the same work and this one stops. Running it twice deletes nothing more.
 */
@Injectable()
export class ConversationRetentionService {
  private readonly logger = new Logger('ConversationRetention');

  constructor(
    private readonly repository: ConversationRetentionRepository,
    private readonly transactions: TransactionRunner,
    private readonly leads: LeadsService,
  ) {}

  async run(now = new Date(), batchSize = CONVERSATION_RETENTION_BATCH): Promise<RetentionResult> {
    let deleted = 0;
    let leads = 0;
    for (;;) {
      const batch = await this.transactions.run(async (tx) => {
        if (!(await this.repository.tryLock(tx, CONVERSATION_RETENTION_LOCK_KEY))) return null;
        // Leads follow the same setting (docs/product.md#retention-and-visitor-privacy); those of
        // a deleted conversation went with it.
        const conversations = await this.repository.deleteExpired(tx, now, batchSize);
        return { conversations, leads: await this.leads.deleteExpired(tx, now, batchSize) };
      });
      if (batch === null) return { deleted, skipped: true };
      deleted += batch.conversations;
      leads += batch.leads;
      // Short batches were the last ones: nothing older is left.
      if (batch.conversations < batchSize && batch.leads < batchSize) break;
    }
    if (deleted > 0 || leads > 0) {
      this.logger.log(`Deleted ${deleted} conversations and ${leads} leads past their owners' retention`);
    }
    return { deleted, skipped: false };
  }
}
