import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { queryPrepared } from '../../database/prepared.js';
import { partsOf, runParts, StatementParts, type Statement, type StatementRow } from '../../database/statement.js';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import { BotEntity } from '../bots/bot.entity.js';
import { isoDate } from '../../common/billing-period.js';
import { MODEL_TIERS, priceOf, type ModelTier } from '../../common/constants.js';
import { hasActionsSql } from '../actions/actions.repository.js';
import { nextMessageFitsSql } from '../usage/budget.js';
import { toOwnerBillingRow, type OwnerBillingColumns, type OwnerBillingRow } from '../usage/usage-ledger.repository.js';

export type BudgetDecision =
  { reserved: true; tier: ModelTier } | { reserved: false; reason: 'BUDGET' | 'GONE'; limitCents: number };

/**
 * The chat engine's data: the bot as chat sees it and the messages in flight (chat_reservations:
 * the per-visitor lock and the per-bot budget reservation). The conversation log is conversations/'s
 * (ConversationLog); chat/ writes it only through that interface.
 *
 * The bot's period spend is read from the usage ledger here, inside the budget transaction that
 * holds the bot row's lock — the one place where reading it elsewhere would not be atomic.
 */
@Injectable()
export class ChatRepository {
  /** findServableBot's statement, built from the entity's metadata on first use. */
  private servableBotSql?: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A bot whose owner account still exists (whether that owner is the system account, and the
   * owner's billing row, which the message's gate decides from); null for unknown bots. Every chat
   * message starts here, so the row is read as plain columns named after the entity's properties
   * (the select list is built once from its metadata), without TypeORM's query builder and
   * hydration, and the owner's billing columns ride along instead of a query of their own
   * (docs/decisions/0016-chat-path-cost.md). Whether the bot has actions rides along too, so a bot
   * without any costs its messages no query for them.
   */
  async findServableBot(
    botId: number,
  ): Promise<{ bot: BotEntity; ownerIsSystem: boolean; owner: OwnerBillingRow; hasActions: boolean } | null> {
    this.servableBotSql ??= `SELECT ${this.dataSource
      .getMetadata(BotEntity)
      .columns.map((c) => `b.${c.databaseName} AS "${c.propertyName}"`)
      .join(', ')}, ${OWNER_COLUMNS.map((c) => `u.${c} AS "${OWNER_PREFIX}${c}"`).join(', ')},
            ${hasActionsSql('b.id')} AS "${OWNER_PREFIX}hasActions"
       FROM bots b JOIN users u ON u.id = b.owner_id AND u.deleted_at IS NULL
      WHERE b.id = $1`;
    const rows = await queryPrepared<Record<string, unknown>>(this.dataSource, this.servableBotSql, [botId]);
    const row = rows[0];
    if (!row) return null;
    const ownerColumns: Record<string, unknown> = {};
    for (const column of OWNER_COLUMNS) {
      ownerColumns[column] = row[OWNER_PREFIX + column];
      delete row[OWNER_PREFIX + column];
    }
    const hasActions = row[`${OWNER_PREFIX}hasActions`] === true;
    delete row[`${OWNER_PREFIX}hasActions`];
    const owner = toOwnerBillingRow(ownerColumns as unknown as OwnerBillingColumns);
    return { bot: Object.assign(new BotEntity(), row), ownerIsSystem: owner.isSystem, owner, hasActions };
  }

  /**
   * Everything the widget's public face is decided from, in one round trip: the bot (null for
   * unknown bots and bots whose owner account is deleted, as `findServableBot`), its owner's
   * billing row, and, for a bot with a monthly limit, what its answered messages cost in the
   * period that starts at `periodStart` (0 without a limit). A read for display only: the budget
   * check that must be atomic is `reserveBudget`.
   */
  async findPublicBotInputs(
    botId: number,
    periodStart: Date,
  ): Promise<{ bot: BotEntity; owner: OwnerBillingRow; periodSpendCents: number } | null> {
    const { entities, raw } = await this.dataSource
      .getRepository(BotEntity)
      .createQueryBuilder('b')
      .innerJoin('users', 'u', 'u.id = b.owner_id AND u.deleted_at IS NULL')
      .addSelect('u.credits_cents', 'credits_cents')
      .addSelect('u.has_paid', 'has_paid')
      .addSelect('u.subscription_item_id', 'subscription_item_id')
      .addSelect('u.is_system', 'is_system')
      .addSelect('u.deleted_at', 'deleted_at')
      .addSelect(
        `CASE WHEN b.usage_limit_dollars > 0 THEN
           (SELECT COALESCE(SUM(e.price_cents), 0) FROM usage_events e
             WHERE e.bot_id = b.id AND e.created_at >= :periodStart AND e.period_start = CAST(:period AS date))
         ELSE 0 END`,
        'period_spend',
      )
      .where('b.id = :botId', { botId, periodStart, period: isoDate(periodStart) })
      .getRawAndEntities<OwnerBillingColumns & { period_spend: string | number }>();
    const bot = entities[0];
    const row = raw[0];
    if (!bot || !row) return null;
    return { bot, owner: toOwnerBillingRow(row), periodSpendCents: Number(row.period_spend) };
  }

  /**
   * Takes the visitor's lock for this bot: a new row, or the row of a message whose lock expired
   * (its instance died). Null while another message of the visitor is in flight.
   */
  async acquireInFlight(botId: number, visitorId: string, ttlMs: number): Promise<string | null> {
    const parts = new StatementParts();
    const acquired = this.addInFlight(parts, botId, visitorId, ttlMs);
    return acquired.read(await runParts(this.dataSource, parts));
  }

  /** `acquireInFlight` as a part of a statement (a chat message's first write, with what admit reads). */
  acquireInFlightIn(
    statement: Statement,
    botId: number,
    visitorId: string,
    ttlMs: number,
  ): { read(row: StatementRow): string | null } {
    return this.addInFlight(partsOf(statement), botId, visitorId, ttlMs);
  }

  private addInFlight(
    parts: StatementParts,
    botId: number,
    visitorId: string,
    ttlMs: number,
  ): { read(row: StatementRow): string | null } {
    parts.with(
      'in_flight',
      `INSERT INTO chat_reservations (id, bot_id, visitor_id, expires_at)
       VALUES (${parts.param(randomUUID(), 'uuid')}, ${parts.param(botId, 'integer')}, ${parts.param(visitorId, 'varchar')},
               now() + ${parts.param(ttlMs, 'integer')} * interval '1 millisecond')
       ON CONFLICT (bot_id, visitor_id) DO UPDATE
          SET id = EXCLUDED.id, amount_cents = 0, period_start = NULL, created_at = now(),
              expires_at = EXCLUDED.expires_at
        WHERE chat_reservations.expires_at < now()
       RETURNING id`,
    );
    parts.select('in_flight_id', '(SELECT id FROM in_flight)');
    return { read: (row) => (typeof row.in_flight_id === 'string' ? row.in_flight_id : null) };
  }

  /** `releaseInFlight` as a part of a statement (the answer's record and charge). */
  releaseInFlightIn(statement: Statement, reservationId: string): void {
    const parts = partsOf(statement);
    parts.with('in_flight_released', `DELETE FROM chat_reservations WHERE id = ${parts.param(reservationId, 'uuid')}`);
  }

  async releaseInFlight(reservationId: string, tx?: Transaction): Promise<void> {
    const manager = tx && entityManagerOf(tx);
    await (manager ?? this.dataSource).query(`DELETE FROM chat_reservations WHERE id = $1`, [reservationId]);
  }

  /**
   * Reserves the price of the bot's tier from its monthly budget for one message, or refuses. The
   * bot row is locked (FOR NO KEY UPDATE: it still lets rows referencing the bot be inserted), so
   * budget checks of one bot run one at a time, and each sees every reservation committed before
   * it: concurrent messages cannot overshoot the budget. The sum is the period's ledger plus the
   * live reservations of other messages.
   *
   * One round trip (docs/decisions/0016-chat-path-cost.md): the transaction's statements travel as
   * one simple-protocol batch, the lock first, then the reservation as its own statement (READ
   * COMMITTED: its snapshot is taken after the lock was granted, so it holds every reservation and
   * ledger row committed before), then what a refusal needs to say why. The batch carries no
   * outside text: every value is an integer, a date or a UUID checked here.
   */
  async reserveBudget(reservationId: string, botId: number, periodStart: Date): Promise<BudgetDecision> {
    if (!Number.isSafeInteger(botId) || !UUID.test(reservationId) || Number.isNaN(periodStart.getTime())) {
      throw new Error('reserveBudget: a bot id, a reservation UUID and a period start are required');
    }
    const values = [
      String(botId),
      `'${periodStart.toISOString()}'::timestamptz`,
      `'${isoDate(periodStart)}'`,
      `'${reservationId}'::uuid`,
    ];
    const sql = RESERVE_BATCH.replace(/\$([1-4])\b/g, (_, n: string) => values[Number(n) - 1]);
    const runner = this.dataSource.createQueryRunner();
    try {
      const client = (await runner.connect()) as { query(sql: string): Promise<Array<{ rows: unknown[] }>> };
      let results: Array<{ rows: unknown[] }>;
      try {
        results = await client.query(sql);
      } catch (error) {
        // A failed statement leaves the batch's transaction open and aborted: end it before the
        // connection goes back to the pool.
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      const reserved = results[2].rows as Array<{ model: ModelTier }>;
      if (reserved.length === 1) return { reserved: true, tier: reserved[0].model };
      const [state] = results[3].rows as Array<{ limit_dollars: number | null; mine: boolean }>;
      if (state.limit_dollars === null) return { reserved: false, reason: 'GONE', limitCents: 0 };
      const limitCents = Number(state.limit_dollars) * 100;
      return { reserved: false, reason: state.mine ? 'BUDGET' : 'GONE', limitCents };
    } finally {
      await runner.release();
    }
  }

  /** One more refused identity proof (docs/product.md#verified-visitors) for the bot on `day`. */
  async countIdentityRefusal(botId: number, day: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO identity_refusals (bot_id, day, count) VALUES ($1, $2::date, 1)
       ON CONFLICT (bot_id, day) DO UPDATE SET count = identity_refusals.count + 1`,
      [botId, day.toISOString().slice(0, 10)],
    );
  }
}

/** The owner's billing columns (OwnerBillingColumns) in findServableBot's row, each under this prefix. */
const OWNER_PREFIX = '__owner_';
const OWNER_COLUMNS: ReadonlyArray<keyof OwnerBillingColumns> = [
  'credits_cents',
  'has_paid',
  'subscription_item_id',
  'is_system',
  'deleted_at',
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The price of the locked bot's tier in SQL, as priceOf (an unknown tier costs its fallback's): `b` is the bot row. */
const TIER_PRICE_SQL = `CASE b.model ${MODEL_TIERS.map((tier) => `WHEN '${tier}' THEN ${priceOf(tier)}`).join(' ')} ELSE ${priceOf('' as ModelTier)} END`;

/**
 * The reservation as one batch ($1 bot, $2 period start, $3 its date, $4 the reservation): lock,
 * reserve (returning the tier), and, read after the reservation, the bot's budget and whether the
 * reservation is still live (a refusal's reason: GONE without either).
 */
const RESERVE_BATCH = `BEGIN;
SELECT id FROM bots WHERE id = $1 FOR NO KEY UPDATE;
UPDATE chat_reservations r SET amount_cents = ${TIER_PRICE_SQL}, period_start = $3::date
  FROM bots b
 WHERE r.id = $4 AND r.expires_at > now() AND b.id = $1
   AND ${nextMessageFitsSql({
     budgetCents: '(b.usage_limit_dollars * 100)::integer',
     spentCents: `((SELECT COALESCE(SUM(price_cents), 0) FROM usage_events
                     WHERE bot_id = $1 AND created_at >= $2 AND period_start = $3::date)
                  + (SELECT COALESCE(SUM(amount_cents), 0) FROM chat_reservations
                     WHERE bot_id = $1 AND period_start = $3::date AND expires_at > now() AND id <> $4))`,
     priceCents: `(${TIER_PRICE_SQL})`,
   })}
RETURNING b.model;
SELECT (SELECT usage_limit_dollars FROM bots WHERE id = $1) AS limit_dollars,
       EXISTS (SELECT 1 FROM chat_reservations WHERE id = $4 AND expires_at > now()) AS mine;
COMMIT`;
