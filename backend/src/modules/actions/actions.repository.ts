import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { affectedCount, returnedRows } from '../../database/query-results.js';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import type { ActionFields, ActionRow } from './action.js';

interface RawAction {
  id: number;
  bot_id: number;
  name: string;
  description: string;
  parameters: ActionRow['parameters'];
  method: ActionRow['method'];
  url: string;
  headers: ActionRow['headers'];
  visitor_fields: string[];
  requires_verified_visitor: boolean;
  timeout_ms: number;
  answer_fields: string[];
  visitor_match: ActionRow['visitorMatch'];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, bot_id, name, description, parameters, method, url, headers, visitor_fields,
  requires_verified_visitor, timeout_ms, answer_fields, visitor_match, created_at, updated_at`;

function row(raw: RawAction): ActionRow {
  return {
    id: raw.id,
    botId: raw.bot_id,
    name: raw.name,
    description: raw.description,
    parameters: raw.parameters,
    method: raw.method,
    url: raw.url,
    headers: raw.headers,
    visitorFields: raw.visitor_fields,
    requiresVerifiedVisitor: raw.requires_verified_visitor,
    timeoutMs: raw.timeout_ms,
    answerFields: raw.answer_fields,
    visitorMatch: raw.visitor_match ?? null,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
  };
}

function values(fields: ActionFields): unknown[] {
  return [
    fields.name,
    fields.description,
    JSON.stringify(fields.parameters),
    fields.method,
    fields.url,
    JSON.stringify(fields.headers),
    JSON.stringify(fields.visitorFields),
    fields.requiresVerifiedVisitor,
    fields.timeoutMs,
    JSON.stringify(fields.answerFields),
    fields.visitorMatch === null ? null : JSON.stringify(fields.visitorMatch),
  ];
}

/**
 * Whether the bot `botIdSql` names has actions, as a SQL expression: the chat reads it with the
 * bot (chat.repository.ts), so a bot without actions costs its messages no query for them.
 */
export function hasActionsSql(botIdSql: string): string {
  return `EXISTS (SELECT 1 FROM bot_actions WHERE bot_id = ${botIdSql})`;
}

/**
 * `bot_actions`. The service checks the bot's owner first (BotsService); writes run in the
 * transaction that holds the bot's row, so the count per bot and the unique names hold.
 */
@Injectable()
export class ActionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(botId: number): Promise<ActionRow[]> {
    const rows: RawAction[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM bot_actions WHERE bot_id = $1 ORDER BY id`,
      [botId],
    );
    return rows.map(row);
  }

  /**
   * Each action's calls since `since` (the Actions tab's counters): one lateral aggregate per
   * action, read through action_calls_action_idx (action_id, created_at). Calls of deleted actions
   * (action_id null) count for none.
   */
  async stats(
    botId: number,
    since: Date,
  ): Promise<Array<{ actionId: number; calls: number; failures: number; p95Ms: number | null }>> {
    const rows: Array<{ action_id: number; calls: number; failures: number; p95: number | string | null }> =
      await this.dataSource.query(
        `SELECT a.id AS action_id, s.calls, s.failures, s.p95
           FROM bot_actions a
           CROSS JOIN LATERAL (
             SELECT count(*)::int AS calls, (count(*) FILTER (WHERE ac.failed))::int AS failures,
                    percentile_cont(0.95) WITHIN GROUP (ORDER BY ac.duration_ms) AS p95
               FROM action_calls ac
              WHERE ac.action_id = a.id AND ac.created_at >= $2) s
          WHERE a.bot_id = $1
          ORDER BY a.id`,
        [botId, since],
      );
    return rows.map((r) => ({
      actionId: Number(r.action_id),
      calls: Number(r.calls),
      failures: Number(r.failures),
      p95Ms: r.p95 === null ? null : Math.round(Number(r.p95)),
    }));
  }

  async find(botId: number, id: number, tx?: Transaction): Promise<ActionRow | null> {
    const runner = tx ? entityManagerOf(tx) : this.dataSource;
    const rows: RawAction[] = await runner.query(`SELECT ${COLUMNS} FROM bot_actions WHERE bot_id = $1 AND id = $2`, [
      botId,
      id,
    ]);
    return rows[0] ? row(rows[0]) : null;
  }

  async count(tx: Transaction, botId: number): Promise<number> {
    const [{ count }] = await entityManagerOf(tx).query<Array<{ count: string | number }>>(
      `SELECT count(*) AS count FROM bot_actions WHERE bot_id = $1`,
      [botId],
    );
    return Number(count);
  }

  async nameTaken(tx: Transaction, botId: number, name: string, exceptId: number | null): Promise<boolean> {
    const rows: unknown[] = await entityManagerOf(tx).query(
      `SELECT 1 FROM bot_actions WHERE bot_id = $1 AND name = $2 AND id <> $3`,
      [botId, name, exceptId ?? 0],
    );
    return rows.length > 0;
  }

  async insert(tx: Transaction, botId: number, fields: ActionFields): Promise<ActionRow> {
    const rows: RawAction[] = await entityManagerOf(tx).query(
      `INSERT INTO bot_actions (bot_id, name, description, parameters, method, url, headers, visitor_fields,
         requires_verified_visitor, timeout_ms, answer_fields, visitor_match)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11::jsonb, $12::jsonb)
       RETURNING ${COLUMNS}`,
      [botId, ...values(fields)],
    );
    return row(rows[0]);
  }

  async update(tx: Transaction, botId: number, id: number, fields: ActionFields): Promise<ActionRow | null> {
    const result: unknown = await entityManagerOf(tx).query(
      `UPDATE bot_actions SET name = $3, description = $4, parameters = $5::jsonb, method = $6, url = $7,
         headers = $8::jsonb, visitor_fields = $9::jsonb, requires_verified_visitor = $10, timeout_ms = $11,
         answer_fields = $12::jsonb, visitor_match = $13::jsonb, updated_at = now()
       WHERE bot_id = $1 AND id = $2
       RETURNING ${COLUMNS}`,
      [botId, id, ...values(fields)],
    );
    const rows = returnedRows<RawAction>(result);
    return rows[0] ? row(rows[0]) : null;
  }

  async delete(botId: number, id: number): Promise<boolean> {
    const result: unknown = await this.dataSource.query(`DELETE FROM bot_actions WHERE bot_id = $1 AND id = $2`, [
      botId,
      id,
    ]);
    return affectedCount(result) > 0;
  }
}
