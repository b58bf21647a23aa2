import type { DocumentResponse } from '@botsmith/contract';
import type { Transaction } from '../../database/transaction.js';

/**
 * What the bots module needs to know about a bot's files: its reference document (shown with
 * the bot) and the stored files to delete with it. The knowledge module owns documents and
 * sources and provides this port (knowledge/documents.module.ts), so bots never imports
 * knowledge, which itself relies on bots for ownership (docs/architecture.md#backend-modules).
 */
export const BOT_FILES = Symbol('BOT_FILES');

export interface BotFilesPort {
  /** The reference documents of these bots, by bot id (bots without one are absent). */
  documentsOf(botIds: number[]): Promise<Map<number, DocumentResponse>>;
  /** Storage keys of every file of the bot, read inside the transaction that deletes it. */
  storageKeysOfBot(botId: number, tx: Transaction): Promise<string[]>;
  /** Storage keys of every file of the owner's bots, read inside the deleting transaction. */
  storageKeysOfOwner(ownerId: number, tx: Transaction): Promise<string[]>;
}
