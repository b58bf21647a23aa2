import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';

/** What a daily quota counts (the `quota` column of `daily_quota_usage`). */
export type DailyQuota =
  | 'leads' // per bot
  | 'embedded_passages' // per account
  | 'website_sources' // per account: website sources added
  | 'source_refreshes' // per account: refreshes asked for
  | 'mails' // per account: mails an owner's actions sent
  | 'mails_held_back' // per account: mails not sent past the daily mail limit
  | 'billing_portal_sessions'; // per account: card pages opened at the payment provider

/** The only place that queries `daily_quota_usage` (migration 1798640000000). */
@Injectable()
export class DailyQuotasRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Adds up to `wanted` to the day's count of `quota` for `subjectId` without passing `cap`, and
   * answers how much was added (0 when the cap is reached). Inside `tx` when given (the row stays
   * locked until it ends, and a rollback gives the places back), else in a transaction of its own.
   * The row is locked before it is read, so two callers at once cannot both take the last place.
   */
  take(
    tx: Transaction | undefined,
    quota: DailyQuota,
    subjectId: number,
    day: string,
    wanted: number,
    cap: number,
  ): Promise<number> {
    if (tx) return this.takeIn(entityManagerOf(tx), quota, subjectId, day, wanted, cap);
    return this.dataSource.transaction((manager) => this.takeIn(manager, quota, subjectId, day, wanted, cap));
  }

  private async takeIn(
    manager: EntityManager,
    quota: DailyQuota,
    subjectId: number,
    day: string,
    wanted: number,
    cap: number,
  ): Promise<number> {
    const started: unknown[] = await manager.query(
      `INSERT INTO daily_quota_usage (quota, subject_id, day, used) VALUES ($1, $2, $3::date, 0)
       ON CONFLICT (quota, subject_id, day) DO NOTHING
       RETURNING 1 AS started`,
      [quota, subjectId, day],
    );
    if (started.length > 0) {
      // The subject's first count of a new day: its earlier days are done with, so the table keeps
      // one row per subject and quota instead of growing by one a day.
      await manager.query(`DELETE FROM daily_quota_usage WHERE quota = $1 AND subject_id = $2 AND day < $3::date`, [
        quota,
        subjectId,
        day,
      ]);
    }
    const [row]: Array<{ used: number }> = await manager.query(
      `SELECT used FROM daily_quota_usage WHERE quota = $1 AND subject_id = $2 AND day = $3::date FOR UPDATE`,
      [quota, subjectId, day],
    );
    const taken = Math.max(0, Math.min(wanted, cap - (row?.used ?? 0)));
    if (taken > 0) {
      await manager.query(
        `UPDATE daily_quota_usage SET used = used + $4 WHERE quota = $1 AND subject_id = $2 AND day = $3::date`,
        [quota, subjectId, day, taken],
      );
    }
    return taken;
  }

  /** The day's count of `quota` for `subjectId`. */
  async used(quota: DailyQuota, subjectId: number, day: string): Promise<number> {
    const rows: Array<{ used: number }> = await this.dataSource.query(
      `SELECT used FROM daily_quota_usage WHERE quota = $1 AND subject_id = $2 AND day = $3::date`,
      [quota, subjectId, day],
    );
    return rows[0]?.used ?? 0;
  }
}
