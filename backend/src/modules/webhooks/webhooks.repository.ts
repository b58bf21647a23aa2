import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { WebhookDeliveryStatus, WebhookEventType } from '@botsmith/contract';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';

export interface EndpointRow {
  id: number;
  url: string;
  events: WebhookEventType[];
  createdAt: Date;
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
  type: string;
  url: string;
  secret: string;
  payload: string;
  eventCreatedAt: Date;
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

/** `webhook_endpoints` and `webhook_deliveries` (the queue and the delivery log). */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(ownerId: number): Promise<Array<EndpointRow & { lastDelivery: DeliveryRow | null }>> {
    const rows: Array<{
      id: number;
      url: string;
      events: WebhookEventType[];
      created_at: Date;
      last: RawDelivery | null;
    }> = await this.dataSource.query(
      `SELECT e.id, e.url, e.events, e.created_at,
                (SELECT row_to_json(x) FROM (SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
                  WHERE d.endpoint_id = e.id ORDER BY d.id DESC LIMIT 1) x) AS last
           FROM webhook_endpoints e WHERE e.owner_id = $1 ORDER BY e.id`,
      [ownerId],
    );
    return rows.map((row) => ({
      id: row.id,
      url: row.url,
      events: row.events,
      createdAt: row.created_at,
      lastDelivery: row.last ? delivery(reviveDates(row.last)) : null,
    }));
  }

  async find(ownerId: number, id: number): Promise<EndpointRow | null> {
    const rows: Array<{ id: number; url: string; events: WebhookEventType[]; created_at: Date }> =
      await this.dataSource.query(
        `SELECT id, url, events, created_at FROM webhook_endpoints WHERE id = $1 AND owner_id = $2`,
        [id, ownerId],
      );
    const row = rows[0];
    return row ? { id: row.id, url: row.url, events: row.events, createdAt: row.created_at } : null;
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
      return { id: rows[0].id, url: endpoint.url, events: endpoint.events, createdAt: rows[0].created_at };
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
   * Claims up to `limit` deliveries due at `now` (or only `onlyId`) for one attempt each: their
   * `next_attempt_at` moves to `leaseUntil`, so no other worker takes them while this one sends,
   * and a worker that dies leaves them due again when the lease ends. SKIP LOCKED lets several
   * instances claim at once without waiting on each other or taking the same row.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number, onlyId?: number): Promise<ClaimedDelivery[]> {
    const rows = returnedRows<{
      id: string;
      type: string;
      url: string;
      secret: string;
      payload: string;
      event_created_at: Date;
      attempts: number;
    }>(
      await this.dataSource.query(
        `UPDATE webhook_deliveries d
          SET next_attempt_at = $2, attempts = d.attempts + 1
         FROM webhook_endpoints e
        WHERE e.id = d.endpoint_id
          AND d.id IN (SELECT id FROM webhook_deliveries
                        WHERE status = 'pending' AND next_attempt_at <= $1
                          ${onlyId === undefined ? '' : 'AND id = $4'}
                        ORDER BY next_attempt_at LIMIT $3
                        FOR UPDATE SKIP LOCKED)
       RETURNING d.id, d.type, e.url, e.secret, d.payload, d.event_created_at, d.attempts`,
        [now, leaseUntil, limit, ...(onlyId === undefined ? [] : [onlyId])],
      ),
    );
    return rows.map((row) => ({
      id: Number(row.id),
      type: row.type,
      url: row.url,
      secret: row.secret,
      payload: row.payload,
      eventCreatedAt: row.event_created_at,
      attempts: row.attempts,
    }));
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

/** TypeORM answers an UPDATE or DELETE … RETURNING on PostgreSQL as [rows, affected count]. */
function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
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
