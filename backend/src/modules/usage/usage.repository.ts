import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** A half-open time window [from, to), UTC instants. */
export interface TimeWindow {
  from: Date;
  to: Date;
}

/** One UTC calendar day of the ledger: answered messages, tokens and price. */
export interface DailyUsageRow {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  messages: number;
  tokens: number;
  cents: number;
}

/** One UTC calendar day of a count. */
export interface DailyCountRow {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  count: number;
}

/** The owned bot's fields the usage side needs. */
export interface OwnedBotUsageRow {
  id: number;
  usageLimitDollars: number;
}

/** One logged message, as the logs export writes it. */
export interface LogRow {
  id: number;
  createdAt: Date;
  /** Exact timestamptz text (microseconds kept): the keyset cursor of the next batch. */
  cursorAt: string;
  botId: number | null;
  botName: string;
  conversationId: number;
  role: string;
  content: string;
  model: string | null;
  tokens: number;
  costCents: number;
}

export interface LogCursor {
  cursorAt: string;
  id: number;
}

/**
 * The READ side of the usage ledger and the chat log (the write side is UsageLedgerRepository).
 * Every question is scoped by owner (or by a bot the service has already checked is owned), and
 * every window is passed in by the service, so no query reads the clock.
 *
 * Windows are ranges on `created_at`, which the (owner_id, created_at) and (bot_id, created_at)
 * indexes serve; days are `date_trunc('day', created_at AT TIME ZONE 'UTC')`, independent of the
 * session time zone. Sums come back as bigint text from `pg` and are parsed here.
 */
@Injectable()
export class UsageRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async sumOwnerPriceCents(ownerId: number, window: TimeWindow): Promise<number> {
    const rows: Array<{ cents: string }> = await this.dataSource.query(
      `SELECT COALESCE(SUM(price_cents), 0)::bigint AS cents
         FROM usage_events
        WHERE owner_id = $1 AND created_at >= $2 AND created_at < $3`,
      [ownerId, window.from, window.to],
    );
    return Number(rows[0]?.cents ?? 0);
  }

  async sumBotPriceCents(botId: number, window: TimeWindow): Promise<number> {
    const rows: Array<{ cents: string }> = await this.dataSource.query(
      `SELECT COALESCE(SUM(price_cents), 0)::bigint AS cents
         FROM usage_events
        WHERE bot_id = $1 AND created_at >= $2 AND created_at < $3`,
      [botId, window.from, window.to],
    );
    return Number(rows[0]?.cents ?? 0);
  }

  /** Answers the bot could not give in the window: ledger rows not charged. */
  countOwnerNotCharged(ownerId: number, window: TimeWindow): Promise<number> {
    return this.countNotCharged('owner_id', ownerId, window);
  }

  countBotNotCharged(botId: number, window: TimeWindow): Promise<number> {
    return this.countNotCharged('bot_id', botId, window);
  }

  private async countNotCharged(column: 'owner_id' | 'bot_id', id: number, window: TimeWindow): Promise<number> {
    const rows: Array<{ n: string }> = await this.dataSource.query(
      `SELECT COUNT(*)::bigint AS n
         FROM usage_events
        WHERE ${column} = $1 AND created_at >= $2 AND created_at < $3 AND not_charged_reason IS NOT NULL`,
      [id, window.from, window.to],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Days of the window that have at least one answered message, over all the owner's bots (deleted ones too). */
  dailyOwnerUsage(ownerId: number, window: TimeWindow): Promise<DailyUsageRow[]> {
    return this.daily('owner_id', ownerId, window);
  }

  dailyBotUsage(botId: number, window: TimeWindow): Promise<DailyUsageRow[]> {
    return this.daily('bot_id', botId, window);
  }

  private async daily(column: 'owner_id' | 'bot_id', id: number, window: TimeWindow): Promise<DailyUsageRow[]> {
    const rows: Array<{ day: string; messages: string; tokens: string; cents: string }> = await this.dataSource.query(
      `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, d.messages, d.tokens, d.cents
         FROM (SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day,
                      COUNT(*)::bigint AS messages,
                      COALESCE(SUM(total_tokens), 0)::bigint AS tokens,
                      COALESCE(SUM(price_cents), 0)::bigint AS cents
                 FROM usage_events
                WHERE ${column} = $1 AND created_at >= $2 AND created_at < $3
                GROUP BY 1) AS d
        ORDER BY d.day`,
      [id, window.from, window.to],
    );
    return rows.map((r) => ({
      day: r.day,
      messages: Number(r.messages),
      tokens: Number(r.tokens),
      cents: Number(r.cents),
    }));
  }

  /** Visitors' messages per UTC day (messages_owner_idx: owner, created_at). */
  async dailyOwnerVisitorMessages(ownerId: number, window: TimeWindow): Promise<DailyCountRow[]> {
    return this.dailyCounts(
      `SELECT to_char(date_trunc('day', m.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, COUNT(*)::bigint AS n
         FROM messages m
        WHERE m.owner_id = $1 AND m.role = 'user' AND m.created_at >= $2 AND m.created_at < $3
        GROUP BY 1`,
      [ownerId, window.from, window.to],
    );
  }

  /**
   * One bot's visitors' messages per UTC day: its conversations active since the window opened
   * (conversations_bot_recent_idx), then their messages (messages_conversation_idx).
   */
  async dailyBotVisitorMessages(ownerId: number, botId: number, window: TimeWindow): Promise<DailyCountRow[]> {
    return this.dailyCounts(
      `SELECT to_char(date_trunc('day', m.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, COUNT(*)::bigint AS n
         FROM conversations c JOIN messages m ON m.conversation_id = c.id
        WHERE c.bot_id = $1 AND c.owner_id = $2 AND c.last_message_at >= $3
          AND m.role = 'user' AND m.created_at >= $3 AND m.created_at < $4
        GROUP BY 1`,
      [botId, ownerId, window.from, window.to],
    );
  }

  private async dailyCounts(sql: string, parameters: unknown[]): Promise<DailyCountRow[]> {
    const rows: Array<{ day: string; n: string }> = await this.dataSource.query(sql, parameters);
    return rows.map((r) => ({ day: r.day, count: Number(r.n) }));
  }

  /**
   * Cents per bot and UTC day in the window (bot null: a deleted bot's answers), for the spend
   * forecast; one pass over the owner's (owner, time) index.
   */
  async dailySpendByBot(
    ownerId: number,
    window: TimeWindow,
  ): Promise<Array<{ botId: number | null; day: string; cents: number }>> {
    const rows: Array<{ bot_id: number | null; day: string; cents: string }> = await this.dataSource.query(
      `SELECT bot_id, to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
              SUM(price_cents) AS cents
         FROM usage_events
        WHERE owner_id = $1 AND created_at >= $2 AND created_at < $3
        GROUP BY 1, 2`,
      [ownerId, window.from, window.to],
    );
    return rows.map((r) => ({
      botId: r.bot_id === null ? null : Number(r.bot_id),
      day: r.day,
      cents: Number(r.cents),
    }));
  }

  /** The owner's bots with their monthly budgets (0: none), oldest first. */
  async ownerBotBudgets(ownerId: number): Promise<Array<{ id: number; name: string; usageLimitDollars: number }>> {
    const rows: Array<{ id: number; name: string; usage_limit_dollars: number }> = await this.dataSource.query(
      `SELECT id, name, usage_limit_dollars FROM bots WHERE owner_id = $1 ORDER BY id`,
      [ownerId],
    );
    return rows.map((r) => ({ id: Number(r.id), name: r.name, usageLimitDollars: Number(r.usage_limit_dollars) }));
  }

  async findOwnedBot(ownerId: number, botId: number): Promise<OwnedBotUsageRow | null> {
    const rows: Array<{ id: number; usage_limit_dollars: number }> = await this.dataSource.query(
      `SELECT id, usage_limit_dollars FROM bots WHERE id = $1 AND owner_id = $2`,
      [botId, ownerId],
    );
    const row = rows[0];
    return row ? { id: Number(row.id), usageLimitDollars: Number(row.usage_limit_dollars) } : null;
  }

  /** True when the owner has at least one logged message (any bot, deleted bots included). */
  async ownerHasMessages(ownerId: number): Promise<boolean> {
    const rows: Array<{ found: boolean }> = await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM messages WHERE owner_id = $1) AS found`,
      [ownerId],
    );
    return rows[0]?.found === true;
  }

  async botHasMessages(ownerId: number, botId: number): Promise<boolean> {
    const rows: Array<{ found: boolean }> = await this.dataSource.query(
      `SELECT EXISTS (
                SELECT 1
                  FROM conversations c
                 WHERE c.bot_id = $1 AND c.owner_id = $2
                   AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id)
              ) AS found`,
      [botId, ownerId],
    );
    return rows[0]?.found === true;
  }

  /**
   * The next `limit` messages of the owner's log in (created_at, id) order after `after`.
   * Keyset pagination over the (owner_id, created_at) index: each batch is one short query, so a
   * large export never holds a connection (the embedded database has only one) between batches.
   */
  async findLogBatch(ownerId: number, after: LogCursor | null, limit: number): Promise<LogRow[]> {
    const params: unknown[] = [ownerId, limit];
    let keyset = '';
    if (after) {
      params.push(after.cursorAt, after.id);
      keyset = `AND m.created_at >= $3::timestamptz AND (m.created_at, m.id) > ($3::timestamptz, $4)`;
    }
    const rows: Array<{
      id: number;
      created_at: Date;
      cursor_at: string;
      bot_id: number | null;
      bot_name: string;
      conversation_id: number;
      role: string;
      content: string;
      model: string | null;
      tokens: number;
      cost_cents: number;
    }> = await this.dataSource.query(
      `SELECT m.id, m.created_at, m.created_at::text AS cursor_at, c.bot_id, c.bot_name, m.conversation_id,
              m.role, m.content, m.model, m.tokens, m.cost_cents
         FROM messages m
         JOIN conversations c ON c.id = m.conversation_id AND c.owner_id = m.owner_id
        WHERE m.owner_id = $1 ${keyset}
        ORDER BY m.created_at, m.id
        LIMIT $2`,
      params,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      createdAt: new Date(r.created_at),
      cursorAt: r.cursor_at,
      botId: r.bot_id === null ? null : Number(r.bot_id),
      botName: r.bot_name,
      conversationId: Number(r.conversation_id),
      role: r.role,
      content: r.content,
      model: r.model,
      tokens: Number(r.tokens),
      costCents: Number(r.cost_cents),
    }));
  }
}
