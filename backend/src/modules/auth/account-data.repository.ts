import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The owner's chat log, removed at account deletion (bots, categories and files go through
 * BotsService.deleteAllOwnedBy). The chat module exports no service for this, so it is deleted by
 * owner here, inside the deletion's transaction. The usage ledger (`usage_events`) is NOT
 * touched: the period's billable usage is still billed on the 3rd (its message_id becomes NULL).
 */
@Injectable()
export class AccountDataRepository {
  async deleteChatLog(manager: EntityManager, ownerId: number): Promise<void> {
    await manager.query(`DELETE FROM conversations WHERE owner_id = $1`, [ownerId]);
    await manager.query(`DELETE FROM messages WHERE owner_id = $1`, [ownerId]);
  }
}
