import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** An account the report of a period may go to. */
export interface ReportAccount {
  id: number;
  email: string;
  /** null = the browser's, which the server cannot know: the report's days are UTC days then. */
  timeZone: string | null;
}

/** A claim unsent after this long was left by an instance that stopped mid-send: it may be taken again. */
export const STALE_CLAIM_MINUTES = 60;

/**
 * The monthly report's data: the accounts due, and the `monthly_reports` rows (one per account and
 * reported period) that make each report go out once across instances.
 */
@Injectable()
export class MonthlyReportRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Active, verified, opted-in accounts (not the system account) with a conversation started in
   * [from, to) and no report of `periodStart` sent, skipped or being sent. The caller widens
   * [from, to) by the largest time zone offsets and decides per account in its own zone.
   */
  async due(periodStart: string, from: Date, to: Date, limit: number): Promise<ReportAccount[]> {
    const rows: Array<{ id: number; email: string; time_zone: string | null }> = await this.dataSource.query(
      `SELECT u.id, u.email, u.time_zone FROM users u
        WHERE u.deleted_at IS NULL AND NOT u.is_system AND u.monthly_report AND u.email_verified_at IS NOT NULL
          AND NOT EXISTS (
            SELECT 1 FROM monthly_reports r
             WHERE r.user_id = u.id AND r.period_start = $1::date
               AND (r.status <> 'sending' OR r.claimed_at > now() - make_interval(mins => $5)))
          AND EXISTS (SELECT 1 FROM conversations c WHERE c.owner_id = u.id AND c.created_at >= $2 AND c.created_at < $3)
        ORDER BY u.id
        LIMIT $4`,
      [periodStart, from, to, limit, STALE_CLAIM_MINUTES],
    );
    return rows.map((r) => ({ id: Number(r.id), email: r.email, timeZone: r.time_zone }));
  }

  /**
   * Claims the report of (account, period) for this caller: true when this call inserted the row,
   * or took over a claim left unsent for STALE_CLAIM_MINUTES. The primary key decides between
   * concurrent callers on any instance; only the claimer mails.
   */
  async claim(userId: number, periodStart: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO monthly_reports AS r (user_id, period_start) VALUES ($1, $2::date)
       ON CONFLICT (user_id, period_start) DO UPDATE SET claimed_at = now()
        WHERE r.status = 'sending' AND r.claimed_at <= now() - make_interval(mins => $3)
       RETURNING r.user_id`,
      [userId, periodStart, STALE_CLAIM_MINUTES],
    );
    return rows.length === 1;
  }

  /** The claimed report was mailed, or had nothing to say ('skipped'): never again for this period. */
  async finish(userId: number, periodStart: string, status: 'sent' | 'skipped'): Promise<void> {
    await this.dataSource.query(
      `UPDATE monthly_reports SET status = $3 WHERE user_id = $1 AND period_start = $2::date AND status = 'sending'`,
      [userId, periodStart, status],
    );
  }

  /** The mail failed: the claim is dropped, so the next run tries again. */
  async release(userId: number, periodStart: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM monthly_reports WHERE user_id = $1 AND period_start = $2::date AND status = 'sending'`,
      [userId, periodStart],
    );
  }

  /** The instants `from` 00:00 and `toExclusive` 00:00 in `timeZone`, as PostgreSQL's zone list has them. */
  async bounds(from: string, toExclusive: string, timeZone: string): Promise<{ start: Date; end: Date }> {
    const [row]: Array<{ start: Date; end: Date }> = await this.dataSource.query(
      `SELECT ($1::date)::timestamp AT TIME ZONE $3 AS start, ($2::date)::timestamp AT TIME ZONE $3 AS "end"`,
      [from, toExclusive, timeZone],
    );
    return { start: new Date(row.start), end: new Date(row.end) };
  }
}
