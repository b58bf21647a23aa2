import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Files an owner's bots reference, so storage can drop them once their rows are gone. */
export interface OwnedFiles {
  bubbleIcons: string[];
  documentKeys: string[];
}

/**
 * What account deletion removes besides the user row. The bots, categories and chat modules
 * did not yet export services to delete an owner's rows when this was written, so it deletes by
 * owner here, inside the deletion's transaction. The usage ledger (`usage_events`) is NOT touched:
 * the period's billable usage is still billed on the 3rd (its bot_id/message_id become NULL).
 */
@Injectable()
export class AccountDataRepository {
  async findOwnedFiles(manager: EntityManager, ownerId: number): Promise<OwnedFiles> {
    const icons = await manager.query<{ bubble_icon: string }[]>(
      `SELECT bubble_icon FROM bots WHERE owner_id = $1 AND bubble_icon <> ''`,
      [ownerId],
    );
    const documents = await manager.query<{ storage_key: string }[]>(
      `SELECT d.storage_key FROM bot_documents d JOIN bots b ON b.id = d.bot_id WHERE b.owner_id = $1`,
      [ownerId],
    );
    return { bubbleIcons: icons.map((r) => r.bubble_icon), documentKeys: documents.map((r) => r.storage_key) };
  }

  /** Conversations (and their messages), bots (and their documents and chunks) and categories. */
  async deleteOwnedContent(manager: EntityManager, ownerId: number): Promise<void> {
    await manager.query(`DELETE FROM conversations WHERE owner_id = $1`, [ownerId]);
    await manager.query(`DELETE FROM messages WHERE owner_id = $1`, [ownerId]);
    await manager.query(`DELETE FROM bots WHERE owner_id = $1`, [ownerId]);
    await manager.query(`DELETE FROM categories WHERE owner_id = $1`, [ownerId]);
  }
}
