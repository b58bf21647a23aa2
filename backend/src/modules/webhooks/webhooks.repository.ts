import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { WebhookDeliveryStatus, WebhookEventType } from '@botsmith/contract';
import { returnedRows } from '../../database/query-results.js';
import { waitForAdvisoryLock } from '../../database/advisory-locks.js';
import { entityManagerOf, transactionOf, type Transaction } from '../../database/transaction.js';

export interface EndpointRow {
  id: number;
  url: string;
  events: WebhookEventType[];
  createdAt: Date;
  failingSince: Date | null;
  disabledAt: Date | null;
}

/** An endpoint that an attempt's failure has just disabled, and whom to tell. */
export interface DisabledEndpoint {
  endpointId: number;
  url: string;
  ownerEmail: string;
}

export interface DeliveryRow {
  id: number;
  endpointId: number;
  eventId: string;
  type: string;
  status: WebhookDeliveryStatus;
  statusCode: number | null;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  createdAt: Date;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
}

/** A delivery claimed for one attempt: what to send, where, and with which secret. */
export interface ClaimedDelivery {
  id: number;
  endpointId: number;
  /** The endpoint's lease: it is busy (no other attempt to it) until then or until released. */
  leaseUntil: Date;
  type: string;
  url: string;
  secret: string;
  payload: string;
  /** Where its retry window starts: the event, or the endpoint's re-enabling if later. */
  windowStart: Date;
  /** Attempts including this one. */
  attempts: number;
}

export interface NewEvent {
  id: string;
  type: string;
  payload: string;
  createdAt: Date;
}

interface RawDelivery {
  id: string | number;
  endpoint_id: number;
  event_id: string;
  type: string;
  status: WebhookDeliveryStatus;
  status_code: number | null;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  created_at: Date;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
}

interface RawEndpoint {
  id: number;
  url: string;
  events: WebhookEventType[];
  created_at: Date;
  failing_since: Date | null;
  disabled_at: Date | null;
}

const ENDPOINT_COLUMNS = `e.id, e.url, e.events, e.created_at, e.failing_since, e.disabled_at`;

function endpoint(row: RawEndpoint): EndpointRow {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    createdAt: row.created_at,
    failingSince: row.failing_since,
    disabledAt: row.disabled_at,
  };
}

interface RawClaimed {
  id: string;
  endpoint_id: number;
  type: string;
  url: string;
  secret: string;
  payload: string;
  window_start: Date;
  attempts: number;
}

/** pg_advisory_xact_lock(namespace, owner id) around a claim: one claim per owner at a time. */
const CLAIM_LOCK_NAMESPACE = 1798620;

const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.event_id, d.type, d.status, d.status_code, d.attempts,
  d.next_attempt_at, d.last_error, d.created_at, d.last_attempt_at, d.delivered_at`;

function delivery(row: RawDelivery): DeliveryRow {
  return {
    id: Number(row.id),
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    type: row.type,
    status: row.status,
    statusCode: row.status_code,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    lastAttemptAt: row.last_attempt_at,
    deliveredAt: row.delivered_at,
  };
}

/**
 * The event types any of the owner's endpoints subscribes to, as a SQL expression (a text array,
 * empty without endpoints): a chat message reads it with its lock, so an event nobody subscribes
 * to costs no statement to queue (`enqueue` would insert no row).
 */
export function subscribedEventsSql(ownerIdSql: string): string {
  return `(SELECT COALESCE(array_agg(DISTINCT t), '{}') FROM webhook_endpoints e, unnest(e.events) AS t
            WHERE e.owner_id = ${ownerIdSql})`;
}

/** `webhook_endpoints` and `webhook_deliveries` (the queue and the delivery log). */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(ownerId: number): Promise<Array<EndpointRow & { lastDelivery: DeliveryRow | null }>> {
    const rows: Array<RawEndpoint & { last: RawDelivery | null }> = await this.dataSource.query(
      `SELECT ${ENDPOINT_COLUMNS},
                (SELECT row_to_json(x) FROM (SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
                  WHERE d.endpoint_id = e.id ORDER BY d.id DESC LIMIT 1) x) AS last
           FROM webhook_endpoints e WHERE e.owner_id = $1 ORDER BY e.id`,
      [ownerId],
    );
    return rows.map((row) => ({
      ...endpoint(row),
      lastDelivery: row.last ? delivery(reviveDates(row.last)) : null,
    }));
  }

  async find(ownerId: number, id: number): Promise<EndpointRow | null> {
    const rows: RawEndpoint[] = await this.dataSource.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e WHERE e.id = $1 AND e.owner_id = $2`,
      [id, ownerId],
    );
    return rows[0] ? endpoint(rows[0]) : null;
  }

  /**
   * Enables the owner's endpoint again (false when there is no such endpoint): its failure streak
   * starts over, and the deliveries that waited while it was disabled are due at once, each with a
   * new 24-hour window from `at`.
   */
  async enable(ownerId: number, id: number, at: Date): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const rows = returnedRows<{ id: number }>(
        await manager.query(
          `UPDATE webhook_endpoints
              SET reenabled_at = CASE WHEN disabled_at IS NULL THEN reenabled_at ELSE $3 END,
                  disabled_at = NULL, failing_since = NULL
            WHERE id = $1 AND owner_id = $2 RETURNING id`,
          [id, ownerId, at],
        ),
      );
      if (rows.length === 0) return false;
      await manager.query(
        `UPDATE webhook_deliveries SET next_attempt_at = $2
          WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at > $2
            AND next_attempt_at IS DISTINCT FROM (SELECT busy_until FROM webhook_endpoints WHERE id = $1)`,
        [id, at],
      );
      return true;
    });
  }

  /**
   * Adds an endpoint unless the owner already has `limit`; null then. The owner's row is locked
   * for the count and the insert, so two requests at once cannot both take the last place.
   */
  async create(
    ownerId: number,
    endpoint: { url: string; events: WebhookEventType[]; secret: string },
    limit: number,
  ): Promise<EndpointRow | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [ownerId]);
      const counted: Array<{ n: string }> = await manager.query(
        `SELECT count(*) AS n FROM webhook_endpoints WHERE owner_id = $1`,
        [ownerId],
      );
      if (Number(counted[0].n) >= limit) return null;
      const rows: Array<{ id: number; created_at: Date }> = await manager.query(
        `INSERT INTO webhook_endpoints (owner_id, url, events, secret) VALUES ($1, $2, $3::text[], $4)
         RETURNING id, created_at`,
        [ownerId, endpoint.url, endpoint.events, endpoint.secret],
      );
      return {
        id: rows[0].id,
        url: endpoint.url,
        events: endpoint.events,
        createdAt: rows[0].created_at,
        failingSince: null,
        disabledAt: null,
      };
    });
  }

  /** Deletes the endpoint and its deliveries; false when the owner has no such endpoint. */
  async delete(ownerId: number, id: number): Promise<boolean> {
    const rows = returnedRows(
      await this.dataSource.query(`DELETE FROM webhook_endpoints WHERE id = $1 AND owner_id = $2 RETURNING id`, [
        id,
        ownerId,
      ]),
    );
    return rows.length > 0;
  }

  /** Every endpoint of an account being deleted, inside the deletion's transaction. */
  async deleteAllOf(ownerId: number, tx: Transaction): Promise<void> {
    await entityManagerOf(tx).query(`DELETE FROM webhook_endpoints WHERE owner_id = $1`, [ownerId]);
  }

  /**
   * Queues the event for each of the owner's endpoints that wants `type` (or only `endpointId`),
   * due at once; an event already queued for an endpoint is left alone (once per endpoint).
   * Returns the new deliveries' ids.
   */
  async enqueue(ownerId: number, event: NewEvent, endpointId?: number): Promise<number[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, type, payload, event_created_at, next_attempt_at, created_at)
       SELECT e.id, $2, $3, $4, $5, $5, $5 FROM webhook_endpoints e
        WHERE e.owner_id = $1 AND ${endpointId === undefined ? '$3 = ANY(e.events)' : 'e.id = $6'}
       ON CONFLICT (endpoint_id, event_id) DO NOTHING
       RETURNING id`,
      [
        ownerId,
        event.id,
        event.type,
        event.payload,
        event.createdAt,
        ...(endpointId === undefined ? [] : [endpointId]),
      ],
    );
    return rows.map((r) => Number(r.id));
  }

  /**
   * Claims up to `limit` deliveries due at `now`, for one attempt each, fairly: one per owner per
   * round, owners served longest ago first (round-robin), only from endpoints that are enabled and
   * free, and from owners with fewer than `perOwner` endpoints busy. Each claimed endpoint is busy
   * until `leaseUntil` (or until `release`), so it never has two requests in flight, whichever
   * instance sends; a worker that dies leaves it free, and the delivery due, when the lease ends.
   * Called again, the next round serves each owner's next endpoint.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number, perOwner: number): Promise<ClaimedDelivery[]> {
    const candidates: Array<{ endpoint_id: number }> = await this.dataSource.query(
      `SELECT c.endpoint_id FROM (
         SELECT DISTINCT ON (e.owner_id) e.owner_id, e.id AS endpoint_id, d.next_attempt_at
           FROM webhook_endpoints e
           JOIN webhook_deliveries d ON d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= $1
          WHERE e.disabled_at IS NULL AND (e.busy_until IS NULL OR e.busy_until <= $1)
            AND (SELECT count(*) FROM webhook_endpoints b WHERE b.owner_id = e.owner_id AND b.busy_until > $1) < $3
          ORDER BY e.owner_id, e.last_claimed_at ASC NULLS FIRST, d.next_attempt_at, d.id) c
        ORDER BY (SELECT max(o.last_claimed_at) FROM webhook_endpoints o WHERE o.owner_id = c.owner_id) ASC NULLS FIRST,
                 c.next_attempt_at
        LIMIT $2`,
      [now, limit, perOwner],
    );
    const claimed: ClaimedDelivery[] = [];
    for (const { endpoint_id: endpointId } of candidates) {
      const one = await this.claimOnEndpoint(endpointId, now, leaseUntil, { skipDisabled: true, perOwner });
      if (one) claimed.push(one);
    }
    return claimed;
  }

  /**
   * Claims one given delivery (a test event) if its endpoint is free, disabled or not (an owner
   * may test a disabled endpoint before enabling it); null when another attempt holds it.
   */
  async claimDelivery(deliveryId: number, now: Date, leaseUntil: Date): Promise<ClaimedDelivery | null> {
    const rows: Array<{ endpoint_id: number }> = await this.dataSource.query(
      `SELECT endpoint_id FROM webhook_deliveries WHERE id = $1 AND status = 'pending'`,
      [deliveryId],
    );
    if (!rows[0]) return null;
    return this.claimOnEndpoint(rows[0].endpoint_id, now, leaseUntil, { skipDisabled: false, deliveryId });
  }

  /**
   * Takes the endpoint's lease and its oldest due delivery (or `deliveryId`), in one transaction
   * under the owner's advisory lock: the count of the owner's busy endpoints and the lease are
   * decided together, so `perOwner` holds across instances too. The conditional UPDATE is the
   * endpoint's lock: of two claimers at once, the second finds it busy.
   */
  private async claimOnEndpoint(
    endpointId: number,
    now: Date,
    leaseUntil: Date,
    options: { skipDisabled: boolean; perOwner?: number; deliveryId?: number },
  ): Promise<ClaimedDelivery | null> {
    return this.dataSource.transaction(async (manager) => {
      const owners: Array<{ owner_id: number }> = await manager.query(
        `SELECT owner_id FROM webhook_endpoints WHERE id = $1`,
        [endpointId],
      );
      if (!owners[0]) return null;
      await waitForAdvisoryLock(transactionOf(manager), CLAIM_LOCK_NAMESPACE, owners[0].owner_id);
      const due: Array<{ id: string }> = await manager.query(
        `SELECT id FROM webhook_deliveries
          WHERE endpoint_id = $1 AND status = 'pending'
            AND ${options.deliveryId === undefined ? 'next_attempt_at <= $2' : 'id = $2'}
          ORDER BY next_attempt_at, id LIMIT 1
          FOR UPDATE SKIP LOCKED`,
        [endpointId, options.deliveryId ?? now],
      );
      if (!due[0]) return null;
      const taken = returnedRows<{ id: number }>(
        await manager.query(
          `UPDATE webhook_endpoints e SET busy_until = $3, last_claimed_at = $2
            WHERE e.id = $1 AND (e.busy_until IS NULL OR e.busy_until <= $2)
              ${options.skipDisabled ? 'AND e.disabled_at IS NULL' : ''}
              ${
                options.perOwner === undefined
                  ? ''
                  : `AND (SELECT count(*) FROM webhook_endpoints b
                           WHERE b.owner_id = e.owner_id AND b.busy_until > $2) < ${Number(options.perOwner)}`
              }
            RETURNING e.id`,
          [endpointId, now, leaseUntil],
        ),
      );
      if (taken.length === 0) return null;
      const rows = returnedRows<RawClaimed>(
        await manager.query(
          `UPDATE webhook_deliveries d
              SET next_attempt_at = $2, attempts = d.attempts + 1
             FROM webhook_endpoints e
            WHERE e.id = d.endpoint_id AND d.id = $1
          RETURNING d.id, d.endpoint_id, d.type, e.url, e.secret, d.payload,
                    GREATEST(d.event_created_at, e.reenabled_at) AS window_start, d.attempts`,
          [due[0].id, leaseUntil],
        ),
      );
      const row = rows[0];
      return {
        id: Number(row.id),
        endpointId: row.endpoint_id,
        leaseUntil,
        type: row.type,
        url: row.url,
        secret: row.secret,
        payload: row.payload,
        windowStart: row.window_start,
        attempts: row.attempts,
      };
    });
  }

  /** Frees the endpoint for the next attempt, unless its lease ended and another took it since. */
  async release(endpointId: number, leaseUntil: Date): Promise<void> {
    await this.dataSource.query(`UPDATE webhook_endpoints SET busy_until = NULL WHERE id = $1 AND busy_until = $2`, [
      endpointId,
      leaseUntil,
    ]);
  }

  /**
   * Frees the endpoint after an attempt and keeps its failure streak: a success ends it; a failure
   * starts it, or, when it began at or before `disableIfFailingSince`, disables the endpoint.
   * Answers the endpoint when this very failure disabled it (so its owner is told once).
   */
  async settleEndpoint(
    endpointId: number,
    leaseUntil: Date,
    outcome: { ok: boolean; at: Date; disableIfFailingSince: Date },
  ): Promise<DisabledEndpoint | null> {
    await this.release(endpointId, leaseUntil);
    if (outcome.ok) {
      await this.dataSource.query(`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1`, [endpointId]);
      return null;
    }
    await this.dataSource.query(
      `UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1 AND failing_since IS NULL`,
      [endpointId, outcome.at],
    );
    // Only the update that finds it still enabled disables it: the owner is told once.
    const rows = returnedRows<{ id: number; url: string; email: string | null }>(
      await this.dataSource.query(
        `UPDATE webhook_endpoints e SET disabled_at = $2
          WHERE e.id = $1 AND e.disabled_at IS NULL AND e.failing_since <= $3
        RETURNING e.id, e.url, (SELECT u.email FROM users u WHERE u.id = e.owner_id) AS email`,
        [endpointId, outcome.at, outcome.disableIfFailingSince],
      ),
    );
    const row = rows[0];
    return row?.email ? { endpointId: row.id, url: row.url, ownerEmail: row.email } : null;
  }

  /** Records an attempt's outcome: delivered, due again at `nextAttemptAt`, or failed for good. */
  async recordAttempt(
    id: number,
    outcome: {
      at: Date;
      status: WebhookDeliveryStatus;
      statusCode: number | null;
      error: string | null;
      nextAttemptAt: Date | null;
    },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries
          SET status = $2, status_code = $3, last_error = $4, next_attempt_at = $5, last_attempt_at = $6,
              delivered_at = CASE WHEN $2 = 'delivered' THEN $6 ELSE delivered_at END
        WHERE id = $1`,
      [id, outcome.status, outcome.statusCode, outcome.error, outcome.nextAttemptAt, outcome.at],
    );
  }

  async deliveries(endpointId: number, limit: number): Promise<DeliveryRow[]> {
    const rows: RawDelivery[] = await this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.endpoint_id = $1 ORDER BY d.id DESC LIMIT $2`,
      [endpointId, limit],
    );
    return rows.map(delivery);
  }

  async deliveryById(id: number): Promise<DeliveryRow | null> {
    const rows: RawDelivery[] = await this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.id = $1`,
      [id],
    );
    return rows[0] ? delivery(rows[0]) : null;
  }
}

/** row_to_json gives times as strings. */
function reviveDates(row: RawDelivery): RawDelivery {
  const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));
  return {
    ...row,
    next_attempt_at: date(row.next_attempt_at),
    created_at: date(row.created_at)!,
    last_attempt_at: date(row.last_attempt_at),
    delivered_at: date(row.delivered_at),
  };
}
