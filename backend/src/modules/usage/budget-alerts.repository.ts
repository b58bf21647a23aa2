import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isoDate } from '../../common/billing-period.js';
import type { ModelTier } from '../../common/constants.js';

/** What the alert rules are decided from, read in one round trip after a charge. */
export interface SpendSnapshot {
  email: string;
  isSystem: boolean;
  spendAlertDollars: number;
  accountSpendCents: number;
  /** Null when the bot is gone (deleted since) or is not the owner's. */
  bot: { name: string; usageLimitDollars: number; model: ModelTier; spendCents: number } | null;
}

/** The budget alerts' data: period spends, and the `budget_alerts` rows that make each alert go out once. */
@Injectable()
export class BudgetAlertsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The owner's and the bot's spend in the period starting at `periodStart`; null for a deleted owner. */
  async snapshot(ownerId: number, botId: number, periodStart: Date): Promise<SpendSnapshot | null> {
    const rows: Array<{
      email: string;
      is_system: boolean;
      spend_alert_dollars: number;
      account_spend: string;
      bot_name: string | null;
      usage_limit_dollars: number | null;
      model: ModelTier | null;
      bot_spend: string;
    }> = await this.dataSource.query(
      `SELECT u.email, u.is_system, u.spend_alert_dollars, b.name AS bot_name, b.usage_limit_dollars, b.model,
              (SELECT COALESCE(SUM(e.price_cents), 0) FROM usage_events e
                WHERE e.owner_id = u.id AND e.created_at >= $3 AND e.period_start = $4::date) AS account_spend,
              (SELECT COALESCE(SUM(e.price_cents), 0) FROM usage_events e
                WHERE e.bot_id = $2 AND e.created_at >= $3 AND e.period_start = $4::date) AS bot_spend
         FROM users u LEFT JOIN bots b ON b.id = $2 AND b.owner_id = u.id
        WHERE u.id = $1 AND u.deleted_at IS NULL`,
      [ownerId, botId, periodStart, isoDate(periodStart)],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      email: row.email,
      isSystem: row.is_system,
      spendAlertDollars: Number(row.spend_alert_dollars),
      accountSpendCents: Number(row.account_spend),
      bot:
        row.bot_name === null
          ? null
          : {
              name: row.bot_name,
              usageLimitDollars: Number(row.usage_limit_dollars),
              model: row.model!,
              spendCents: Number(row.bot_spend),
            },
    };
  }

  /**
   * Records the alerts of these steps as sent, unless they already are, and returns the steps this
   * call recorded: the caller that gets a step back is the one that mails it. The unique index on
   * (owner, bot or 0, period, step) decides between concurrent callers on any instance.
   */
  async claim(ownerId: number, botId: number | null, periodStart: Date, steps: readonly number[]): Promise<number[]> {
    if (steps.length === 0) return [];
    const rows: Array<{ step: number }> = await this.dataSource.query(
      `INSERT INTO budget_alerts (owner_id, bot_id, period_start, step)
       SELECT $1::integer, $2::integer, $3::date, step FROM unnest($4::integer[]) AS step
       ON CONFLICT (owner_id, (COALESCE(bot_id, 0)), period_start, step) DO NOTHING
       RETURNING step`,
      [ownerId, botId, isoDate(periodStart), [...steps]],
    );
    return rows.map((r) => Number(r.step));
  }
}
