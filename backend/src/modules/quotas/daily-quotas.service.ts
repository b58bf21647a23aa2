import { Injectable } from '@nestjs/common';
import { isoDate } from '../../common/billing-period.js';
import type { Transaction } from '../../database/transaction.js';
import { DailyQuotasRepository, type DailyQuota } from './daily-quotas.repository.js';

/**
 * Daily quotas counted in the database (docs/product.md#quotas), per UTC day, so they hold across
 * API instances and when what they counted is deleted: a bot's leads, an account's passages sent
 * to the embeddings model.
 */
@Injectable()
export class DailyQuotasService {
  constructor(private readonly repository: DailyQuotasRepository) {}

  /** Takes one place of the day's `cap` inside `tx` (given back if it rolls back); false when none is left. */
  async takeOne(tx: Transaction, quota: DailyQuota, subjectId: number, cap: number, at: Date): Promise<boolean> {
    return (await this.repository.take(tx, quota, subjectId, isoDate(at), 1, cap)) === 1;
  }

  /** Takes up to `wanted` places of the day's `cap` at once (committed); how many it got, 0 when none is left. */
  takeUpTo(quota: DailyQuota, subjectId: number, wanted: number, cap: number, at: Date): Promise<number> {
    return this.repository.take(undefined, quota, subjectId, isoDate(at), wanted, cap);
  }

  /** How much of the day's quota is used. */
  usedOn(quota: DailyQuota, subjectId: number, at: Date): Promise<number> {
    return this.repository.used(quota, subjectId, isoDate(at));
  }
}
