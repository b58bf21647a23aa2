import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { beginPipeline, sendPipelined, type Pipeline, type PipelinedResult } from '../../database/pipeline.js';
import { queryPrepared } from '../../database/prepared.js';
import { partsOf, runParts, StatementParts, type Statement, type StatementRow } from '../../database/statement.js';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import { BotEntity } from '../bots/bot.entity.js';
import { isoDate } from '../../common/billing-period.js';
import { MODEL_TIERS, priceOf, type ModelTier } from '../../common/constants.js';
import { hasActionsSql } from '../actions/actions.repository.js';
import { subscribedEventsSql } from '../webhooks/webhooks.repository.js';
import { nextMessageFitsSql } from '../usage/budget.js';
import { toOwnerBillingRow, type OwnerBillingColumns, type OwnerBillingRow } from '../usage/usage-ledger.repository.js';

/** A bot as chat serves it (findServableBot). */
export interface ServableBot {
  bot: BotEntity;
  ownerIsSystem: boolean;
  /** The bot row's version: any write to the row changes it. */
  version: string;
}

/**
 * What holdIn found: the lock (null while another message of the visitor is in flight), the owner's
 * billing row, whether the bot has actions and the webhook event types the owner subscribes to.
 */
export type HeldMessage =
  | {
      current: true;
      reservationId: string | null;
      owner: OwnerBillingRow;
      hasActions: boolean;
      webhookEvents: readonly string[];
    }
  | { current: false };

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
   * A bot whose owner account still exists, whether that owner is the system account, and the
   * bot row's version (its `xmin`: every write to the row changes it, whoever makes it); null for
   * unknown bots. The row is read as plain columns named after the entity's properties (the
   * select list is built once from its metadata), without TypeORM's query builder and hydration
   * (docs/decisions/0016-chat-path-cost.md). A chat message may use a copy read earlier
   * (ServableBots): `holdIn` checks its version in the statement that takes the visitor's lock.
   */
  async findServableBot(botId: number): Promise<ServableBot | null> {
    this.servableBotSql ??= `SELECT ${this.dataSource
      .getMetadata(BotEntity)
      .columns.map((c) => `b.${c.databaseName} AS "${c.propertyName}"`)
      .join(', ')}, b.xmin::text AS "${EXTRA_PREFIX}version", u.is_system AS "${EXTRA_PREFIX}ownerIsSystem"
       FROM bots b JOIN users u ON u.id = b.owner_id AND u.deleted_at IS NULL
      WHERE b.id = $1`;
    const rows = await queryPrepared<Record<string, unknown>>(this.dataSource, this.servableBotSql, [botId]);
    const row = rows[0];
    if (!row) return null;
    const version = String(row[`${EXTRA_PREFIX}version`]);
    const ownerIsSystem = row[`${EXTRA_PREFIX}ownerIsSystem`] === true;
    delete row[`${EXTRA_PREFIX}version`];
    delete row[`${EXTRA_PREFIX}ownerIsSystem`];
    return { bot: Object.assign(new BotEntity(), row), ownerIsSystem, version };
  }

  /**
   * A chat message's first write, as a part of a statement (with what admit reads beside it): the
   * visitor's lock for the bot (as `acquireInFlight`), taken only while the bot and its owner's
   * account exist and, given a `version`, only while the bot row is still that version; and,
   * read on the same snapshot, the owner's billing row (the message's gate decides from it),
   * whether the bot has actions and which webhook events the owner's endpoints take (an event of
   * the answer nobody takes is not queued: no statement for it). `current` false: the bot is gone, or was written since the copy
   * was read, and no lock was taken.
   */
  holdIn(
    statement: Statement,
    hold: { botId: number; visitorId: string; ttlMs: number; version: string | null },
  ): { reservationId: string; read(row: StatementRow): HeldMessage } {
    const parts = partsOf(statement);
    const botId = parts.param(hold.botId, 'integer');
    parts.with(
      'servable',
      `SELECT b.xmin::text AS version, ${OWNER_COLUMNS.map((c) => `u.${c}`).join(', ')},
              ${hasActionsSql('b.id')} AS has_actions, ${subscribedEventsSql('u.id')} AS webhook_events
         FROM bots b JOIN users u ON u.id = b.owner_id AND u.deleted_at IS NULL
        WHERE b.id = ${botId}`,
    );
    const version = parts.param(hold.version, 'text');
    const current = `EXISTS (SELECT 1 FROM servable WHERE ${version} IS NULL OR servable.version = ${version})`;
    const reservationId = randomUUID();
    const acquired = this.addInFlight(parts, reservationId, hold.botId, hold.visitorId, hold.ttlMs, current);
    parts.select('servable_current', current);
    parts.select('servable_owner', `(SELECT row_to_json(servable) FROM servable)`);
    return {
      reservationId,
      read: (row) => {
        const servable = row.servable_owner as
          (OwnerBillingColumns & { has_actions: boolean; webhook_events: string[] | null }) | null;
        if (row.servable_current !== true || !servable) return { current: false };
        return {
          current: true,
          reservationId: acquired.read(row),
          owner: toOwnerBillingRow(servable),
          hasActions: servable.has_actions === true,
          webhookEvents: servable.webhook_events ?? [],
        };
      },
    };
  }

  /**
   * Everything the widget's public face is decided from, in one round trip: the bot (null for
   * unknown bots and bots whose owner account is deleted, as `findServableBot`), its owner's
   * billing row, and, for a bot with a monthly limit, what its answered messages cost in the
   * period that starts at `periodStart` (0 without a limit). A read for display only: the budget
   * check that must be atomic is `runHoldingBudget`.
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
    const acquired = this.addInFlight(parts, randomUUID(), botId, visitorId, ttlMs);
    return acquired.read(await runParts(this.dataSource, parts));
  }

  private addInFlight(
    parts: StatementParts,
    reservationId: string,
    botId: number,
    visitorId: string,
    ttlMs: number,
    onlyIf = 'true',
  ): { read(row: StatementRow): string | null } {
    parts.with(
      'in_flight',
      `INSERT INTO chat_reservations (id, bot_id, visitor_id, expires_at)
       SELECT ${parts.param(reservationId, 'uuid')}, ${parts.param(botId, 'integer')}, ${parts.param(visitorId, 'varchar')},
              now() + ${parts.param(ttlMs, 'integer')} * interval '1 millisecond'
        WHERE ${onlyIf}
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
   * Runs a statement that holds a message (holdIn, with `reservationId` the reservation it takes)
   * and reserves the price of the bot's tier from its monthly budget for that message, or
   * refuses, in one transaction and one round trip (docs/decisions/0016-chat-path-cost.md): a
   * simple-protocol batch of the statement, the bot row's lock (FOR NO KEY UPDATE: it still lets
   * rows referencing the bot be inserted), then the reservation as its own statement (READ
   * COMMITTED: its snapshot is taken after the lock was granted, so it holds every reservation and
   * ledger row committed before), then what a refusal needs to say why. Budget checks of one bot
   * thus run one at a time and each sees every reservation committed before it: concurrent
   * messages cannot overshoot the budget. The sum is the period's ledger plus the live
   * reservations of other messages. The batch carries no outside text: the statement's values are
   * written in by StatementParts.toInlinedSql (ids, numbers and dates only), and the others are
   * an integer, a date and a UUID checked here. When the statement took no lock, the reservation
   * finds no row and refuses; holdIn's reading says why. With a `pipeline`, the batch goes with
   * its other statements (the question's retrieval: database/pipeline.ts).
   */
  async runHoldingBudget(
    statement: Statement,
    reservationId: string,
    botId: number,
    periodStart: Date,
    pipeline: Pipeline = beginPipeline(this.dataSource),
  ): Promise<{ row: StatementRow; budget: BudgetDecision }> {
    if (!Number.isSafeInteger(botId) || !UUID.test(reservationId) || Number.isNaN(periodStart.getTime())) {
      throw new Error('runHoldingBudget: a bot id, a reservation UUID and a period start are required');
    }
    const values = [
      String(botId),
      `'${periodStart.toISOString()}'::timestamptz`,
      `'${isoDate(periodStart)}'`,
      `'${reservationId}'::uuid`,
    ];
    const reserve = RESERVE_BATCH.replace(/\$([1-4])\b/g, (_, n: string) => values[Number(n) - 1]);
    const sql = `BEGIN;\n${partsOf(statement).toInlinedSql()};\n${reserve}`;
    // A failed statement leaves the batch's transaction open and aborted: the pipeline closes
    // that connection rather than return it to the pool.
    const results = (await sendPipelined(pipeline, { text: sql })) as PipelinedResult[];
    // BEGIN, the statement's row, the lock, the reservation, the state, COMMIT.
    const [, held, , reserved, state] = results as [
      unknown,
      { rows: StatementRow[] },
      unknown,
      { rows: Array<{ model: ModelTier }> },
      { rows: Array<{ limit_dollars: number | null; mine: boolean }> },
    ];
    return { row: held.rows[0] ?? {}, budget: budgetDecision(reserved.rows, state.rows[0]) };
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

/** What findServableBot reads beside the bot's columns, each under this prefix. */
const EXTRA_PREFIX = '__servable_';

/** The owner's billing columns (OwnerBillingColumns) holdIn reads. */
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
const RESERVE_BATCH = `SELECT id FROM bots WHERE id = $1 FOR NO KEY UPDATE;
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

/** What the batch's reservation and state say (RESERVE_BATCH). */
function budgetDecision(
  reserved: Array<{ model: ModelTier }>,
  state: { limit_dollars: number | null; mine: boolean },
): BudgetDecision {
  if (reserved.length === 1) return { reserved: true, tier: reserved[0].model };
  if (state.limit_dollars === null) return { reserved: false, reason: 'GONE', limitCents: 0 };
  const limitCents = Number(state.limit_dollars) * 100;
  return { reserved: false, reason: state.mine ? 'BUDGET' : 'GONE', limitCents };
}
