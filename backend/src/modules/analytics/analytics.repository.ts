import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CONVERSATION_OUTCOMES, type ConversationOutcome } from '@botsmith/contract';
import type { DataSource } from 'typeorm';
import type { AnalyticsPeriodQuery } from './analytics-period.js';

/** Whose figures: one owner, one of their bots or all of them. */
export interface AnalyticsScope {
  ownerId: number;
  botId: number | null;
}

/** Conversations started in one day or week with one outcome (null: not decided yet). */
export interface ConversationCell {
  start: string;
  outcome: ConversationOutcome | null;
  conversations: number;
  messages: number;
  up: number;
  down: number;
}

/** A conversation's first visitor question, for the topics. */
export interface FirstQuestion {
  conversationId: number;
  outcome: ConversationOutcome | null;
  text: string;
  lexemes: string[];
  askedAt: Date;
}

/** Conversations started on a weekday (1 Monday … 7 Sunday) at an hour, in the asked time zone. */
export interface HourCell {
  weekday: number;
  hour: number;
  n: number;
}

export interface SpendCell {
  start: string;
  spendCents: number;
}

/**
 * Reads the figures of GET /api/analytics (docs/product.md#analytics). A read model: it reads
 * the tables of conversations/, leads/ and usage/ in its own queries, as the retention job reads
 * the users columns it needs, and writes nothing. Conversations count on the day they started,
 * answers' spend on the day they were charged, both in the asked time zone; every query reads
 * one owner's rows through an (owner, time) or (bot, time) index.
 *
 * Parameters of the period's queries: $1 owner, $2 bot (NULL: all), $3 first day, $4 last day, $5 time zone.
 */
@Injectable()
export class AnalyticsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private params(scope: AnalyticsScope, period: AnalyticsPeriodQuery): unknown[] {
    return [scope.ownerId, scope.botId, period.from, period.to, period.timeZone];
  }

  /** `alias.column` within the period ($3 to $4 included, as days in $5). */
  private static within(column: string): string {
    return `${column} >= ($3::date)::timestamp AT TIME ZONE $5
        AND ${column} < ($4::date + 1)::timestamp AT TIME ZONE $5`;
  }

  /** A conversation counts as decided when its outcome is not older than its last message. */
  async conversationCells(scope: AnalyticsScope, period: AnalyticsPeriodQuery): Promise<ConversationCell[]> {
    const unit = period.groupBy === 'week' ? 'week' : 'day';
    const rows = await this.dataSource.query<
      Array<{
        start: string;
        outcome: ConversationOutcome | null;
        n: number;
        messages: number;
        up: number;
        down: number;
      }>
    >(
      `SELECT to_char(date_trunc('${unit}', c.created_at AT TIME ZONE $5), 'YYYY-MM-DD') AS start,
              CASE WHEN c.outcome_at >= c.last_message_at THEN c.outcome END AS outcome,
              COUNT(*)::int AS n, SUM(c.message_count)::int AS messages,
              SUM(c.up_count)::int AS up, SUM(c.down_count)::int AS down
         FROM conversations c
        WHERE c.owner_id = $1 AND ($2::int IS NULL OR c.bot_id = $2)
          AND ${AnalyticsRepository.within('c.created_at')}
        GROUP BY 1, 2`,
      this.params(scope, period),
    );
    return rows.map((r) => ({
      start: r.start,
      outcome: r.outcome,
      conversations: Number(r.n),
      messages: Number(r.messages),
      up: Number(r.up),
      down: Number(r.down),
    }));
  }

  /**
   * Different visitors cannot be added up from quarter hours: counted from the period's conversations,
   * read in visitor order from conversations_owner_visitor_idx or, for one bot,
   * conversations_bot_visitor_idx (index only) so equal ones come together. The planner would
   * rather hash or sort them, 55-100 ms for a year's 50,000-100,000 conversations against 15-45 ms
   * in index order: hashing is turned off for this one query (in its own transaction). One bot's
   * are found by the bot alone (its owner was checked, and is its conversations' owner): the
   * owner's column is not in that index.
   */
  async visitors(scope: AnalyticsScope, period: AnalyticsPeriodQuery): Promise<number> {
    // $1 stays typed in both forms: PostgreSQL refuses a parameter it cannot type.
    const whose =
      scope.botId === null ? 'c.owner_id = $1 AND $2::int IS NULL' : 'c.bot_id = $2 AND $1::int IS NOT NULL';
    const [row] = await this.dataSource.transaction(async (manager) => {
      await manager.query(`SET LOCAL enable_hashagg = off`);
      return manager.query<Array<{ n: number }>>(
        `SELECT COUNT(*)::int AS n FROM (
           SELECT DISTINCT c.visitor_id FROM conversations c
            WHERE ${whose} AND ${AnalyticsRepository.within('c.created_at')}
         ) v`,
        this.params(scope, period),
      );
    });
    return Number(row?.n ?? 0);
  }

  /** Conversations started per weekday (1 Monday … 7 Sunday) and hour, where there were any. */
  async hours(scope: AnalyticsScope, period: AnalyticsPeriodQuery): Promise<HourCell[]> {
    const rows = await this.dataSource.query<Array<{ weekday: number; hour: number; n: number }>>(
      `SELECT EXTRACT(ISODOW FROM c.created_at AT TIME ZONE $5)::int AS weekday,
              EXTRACT(HOUR FROM c.created_at AT TIME ZONE $5)::int AS hour, COUNT(*)::int AS n
         FROM conversations c
        WHERE c.owner_id = $1 AND ($2::int IS NULL OR c.bot_id = $2)
          AND ${AnalyticsRepository.within('c.created_at')}
        GROUP BY 1, 2`,
      this.params(scope, period),
    );
    return rows.map((r) => ({ weekday: Number(r.weekday), hour: Number(r.hour), n: Number(r.n) }));
  }

  async leads(scope: AnalyticsScope, period: AnalyticsPeriodQuery): Promise<number> {
    const [row] = await this.dataSource.query<Array<{ n: number }>>(
      `SELECT COUNT(*)::int AS n FROM leads l
        WHERE l.owner_id = $1 AND ($2::int IS NULL OR l.bot_id = $2)
          AND ${AnalyticsRepository.within('l.created_at')}`,
      this.params(scope, period),
    );
    return Number(row?.n ?? 0);
  }

  /**
   * The conversation cells, the spend and the busiest hours of the period from the rollup
   * (analytics_quarters, kept by triggers: see its migrations), for a time zone in whole quarter
   * hours (inQuarterHours), whose local days and hours are then made of whole UTC quarters: one row
   * per quarter hour of the owner's (bot -1) or the bot's figures, where the rows themselves would
   * be every conversation and ledger row. Grouped by day or week and, in the same pass, by
   * weekday and hour.
   */
  async fromQuarters(
    scope: AnalyticsScope,
    period: AnalyticsPeriodQuery,
  ): Promise<{ cells: ConversationCell[]; spend: SpendCell[]; hours: HourCell[] }> {
    const unit = period.groupBy === 'week' ? 'week' : 'day';
    const rows = await this.dataSource.query<
      Array<{
        start: string | null;
        weekday: number | null;
        hour: number | null;
        n: number;
        resolved: number;
        handed_off: number;
        unanswered: number;
        abandoned: number;
        rated_down: number;
        messages: number;
        up: number;
        down: number;
        cents: number;
      }>
    >(
      // The quarters are added up into local hours first (a year: 35,000 quarters, 8,800 hours),
      // so the day's or week's label and the weekday are worked out once an hour, not once a
      // quarter: grouped in one level, a year's 35,000 quarters were sorted (on disk at the
      // default work_mem), 40-60 ms against 25 ms.
      `SELECT to_char(date_trunc('${unit}', h.at), 'YYYY-MM-DD') AS start,
              EXTRACT(ISODOW FROM h.at)::int AS weekday, EXTRACT(HOUR FROM h.at)::int AS hour,
              SUM(h.n)::int AS n, SUM(h.resolved)::int AS resolved,
              SUM(h.handed_off)::int AS handed_off, SUM(h.unanswered)::int AS unanswered,
              SUM(h.abandoned)::int AS abandoned, SUM(h.rated_down)::int AS rated_down,
              SUM(h.messages)::int AS messages, SUM(h.up)::int AS up, SUM(h.down)::int AS down,
              SUM(h.cents)::int AS cents
         FROM (
           SELECT date_trunc('hour', q.quarter AT TIME ZONE $5) AS at,
                  SUM(q.conversations) AS n, SUM(q.resolved) AS resolved, SUM(q.handed_off) AS handed_off,
                  SUM(q.unanswered) AS unanswered, SUM(q.abandoned) AS abandoned, SUM(q.rated_down) AS rated_down,
                  SUM(q.messages) AS messages, SUM(q.up_count) AS up, SUM(q.down_count) AS down,
                  SUM(q.spend_cents) AS cents
             FROM analytics_quarters q
            WHERE q.owner_id = $1 AND q.bot_id = COALESCE($2::int, -1)
              AND ${AnalyticsRepository.within('q.quarter')}
            GROUP BY 1
         ) h
        GROUP BY GROUPING SETS ((1), (2, 3))`,
      this.params(scope, period),
    );
    const cells: ConversationCell[] = [];
    const spend: SpendCell[] = [];
    const hours: HourCell[] = [];
    for (const r of rows) {
      if (r.start === null) {
        if (Number(r.n) > 0) hours.push({ weekday: Number(r.weekday), hour: Number(r.hour), n: Number(r.n) });
        continue;
      }
      spend.push({ start: r.start, spendCents: Number(r.cents) });
      const decided = CONVERSATION_OUTCOMES.map((outcome) => [outcome, Number(r[outcome])] as const);
      const undecided = Number(r.n) - decided.reduce((sum, [, n]) => sum + n, 0);
      // The messages and ratings are the day's, whatever the outcomes: carried by one cell.
      const totals = { messages: Number(r.messages), up: Number(r.up), down: Number(r.down) };
      cells.push({ start: r.start, outcome: null, conversations: undecided, ...totals });
      for (const [outcome, n] of decided) {
        cells.push({ start: r.start, outcome, conversations: n, messages: 0, up: 0, down: 0 });
      }
    }
    return { cells, spend, hours };
  }

  /** What answers cost (credits and billed), per day or week; the ledger is never deleted. */
  async spendCells(scope: AnalyticsScope, period: AnalyticsPeriodQuery): Promise<SpendCell[]> {
    const unit = period.groupBy === 'week' ? 'week' : 'day';
    const rows = await this.dataSource.query<Array<{ start: string; cents: number }>>(
      `SELECT to_char(date_trunc('${unit}', u.created_at AT TIME ZONE $5), 'YYYY-MM-DD') AS start,
              SUM(u.credits_cents + u.billable_cents)::int AS cents
         FROM usage_events u
        WHERE u.owner_id = $1 AND ($2::int IS NULL OR u.bot_id = $2)
          AND ${AnalyticsRepository.within('u.created_at')}
        GROUP BY 1`,
      this.params(scope, period),
    );
    return rows.map((r) => ({ start: r.start, spendCents: Number(r.cents) }));
  }

  /**
   * The latest `limit` conversations of the period, each with its first visitor question (and
   * its full-text lexemes, as stored) and its decided outcome; found through the (owner, time)
   * index, their first question through (conversation_id, id).
   */
  async firstQuestions(scope: AnalyticsScope, period: AnalyticsPeriodQuery, limit: number): Promise<FirstQuestion[]> {
    const rows = await this.dataSource.query<
      Array<{ id: number; outcome: ConversationOutcome | null; content: string; lexemes: string[]; created_at: Date }>
    >(
      `SELECT c.id, CASE WHEN c.outcome_at >= c.last_message_at THEN c.outcome END AS outcome,
              q.content, tsvector_to_array(q.search_vector) AS lexemes, q.created_at
         FROM conversations c
        CROSS JOIN LATERAL (
          SELECT u.content, u.search_vector, u.created_at FROM messages u
           WHERE u.conversation_id = c.id AND u.role = 'user'
           ORDER BY u.id
           LIMIT 1
        ) q
        WHERE c.owner_id = $1 AND ($2::int IS NULL OR c.bot_id = $2)
          AND ${AnalyticsRepository.within('c.created_at')}
        ORDER BY c.created_at DESC
        LIMIT $6`,
      [...this.params(scope, period), limit],
    );
    return rows.map((r) => ({
      conversationId: Number(r.id),
      outcome: r.outcome,
      text: r.content,
      lexemes: r.lexemes,
      askedAt: new Date(r.created_at),
    }));
  }

  /** How often the answers in these conversations cited each source. */
  async citationCounts(conversationIds: readonly number[]): Promise<Map<number, number>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.dataSource.query<Array<{ source_id: number; n: number }>>(
      // Each conversation's messages through messages_conversation_idx: a plain join let the
      // planner (which guesses few cited answers) hash the whole messages table instead, 60-90 ms
      // at a million messages. OFFSET 0 keeps the lateral subquery from being flattened into a join.
      `SELECT (cited->>'sourceId')::int AS source_id, COUNT(*)::int AS n
         FROM unnest($1::int[]) AS c(id)
        CROSS JOIN LATERAL (
          SELECT m.citations FROM messages m
           WHERE m.conversation_id = c.id AND m.role = 'assistant' AND jsonb_typeof(m.citations) = 'array'
          OFFSET 0
        ) m
        CROSS JOIN LATERAL jsonb_array_elements(m.citations) cited
        GROUP BY 1`,
      [conversationIds],
    );
    return new Map(rows.map((r) => [Number(r.source_id), Number(r.n)]));
  }

  /** The knowledge sources of the owner's bots (of one of them), corrections left out. */
  async sources(scope: AnalyticsScope): Promise<Array<{ sourceId: number; name: string; botId: number }>> {
    const rows = await this.dataSource.query<Array<{ id: number; name: string; bot_id: number }>>(
      `SELECT s.id, s.name, s.bot_id FROM bot_sources s JOIN bots b ON b.id = s.bot_id
        WHERE b.owner_id = $1 AND ($2::int IS NULL OR s.bot_id = $2) AND NOT s.is_correction
        ORDER BY s.id`,
      [scope.ownerId, scope.botId],
    );
    return rows.map((r) => ({ sourceId: Number(r.id), name: r.name, botId: Number(r.bot_id) }));
  }
}
