import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../database/transaction.js';

/**
 * Data another module keeps for an account, removed when the account is deleted. auth deletes
 * accounts but must not import the modules holding that data (chat and bots depend on far more
 * than auth should know), so each of them registers a holder here when it starts
 * (`onModuleInit`) and auth runs them all (docs/architecture.md#backend-modules).
 */
export interface AccountDataHolder {
  /**
   * Removes the owner's data in the holder's own transaction (files after it commits), before
   * the account's transaction starts, and answers what went for the log (e.g. "2 bots"). If it
   * fails, nothing of the account itself has changed and deleting again finishes the job.
   */
  deleteBeforeAccount?(ownerId: number): Promise<string[]>;
  /** Removes the owner's data inside the transaction that soft-deletes the account. */
  deleteWithinAccount?(ownerId: number, tx: Transaction): Promise<void>;
}

/** The holders registered so far; one instance for the whole app (UsersModule exports it). */
@Injectable()
export class AccountDataRegistry {
  private readonly holders: AccountDataHolder[] = [];

  register(holder: AccountDataHolder): void {
    this.holders.push(holder);
  }

  /** Runs every holder's own deletion, one after the other; the first failure stops the rest. */
  async deleteBeforeAccount(ownerId: number): Promise<string[]> {
    const removed: string[] = [];
    for (const holder of this.holders) {
      if (holder.deleteBeforeAccount) removed.push(...(await holder.deleteBeforeAccount(ownerId)));
    }
    return removed;
  }

  /** Runs every holder's deletion inside the account's transaction `tx`. */
  async deleteWithinAccount(ownerId: number, tx: Transaction): Promise<void> {
    for (const holder of this.holders) {
      if (holder.deleteWithinAccount) await holder.deleteWithinAccount(ownerId, tx);
    }
  }
}
