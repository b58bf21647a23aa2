import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';

/** Where the previous page ended: its last lead's exact created_at (microseconds) and id. */
export interface LeadCursor {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
  at: string;
  id: number;
}

/** A lead as a visitor left it (absent fields null). */
export interface NewLead {
  ownerId: number;
  botId: number;
  botName: string;
  conversationId: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  message: string | null;
  createdAt: Date;
}

export interface LeadRow {
  id: number;
  botId: number | null;
  botName: string;
  conversationId: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  message: string | null;
  createdAt: Date;
  cursorAt: string;
}

interface RawLead {
  id: number;
  bot_id: number | null;
  bot_name: string;
  conversation_id: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  message: string | null;
  created_at: Date;
  cursor_at: string;
}

const LEAD_COLUMNS = `l.id, l.bot_id, l.bot_name, l.conversation_id, l.name, l.email, l.phone, l.message, l.created_at,
  to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at`;

function toRow(r: RawLead): LeadRow {
  return {
    id: Number(r.id),
    botId: r.bot_id === null ? null : Number(r.bot_id),
    botName: r.bot_name,
    conversationId: Number(r.conversation_id),
    name: r.name,
    email: r.email,
    phone: r.phone,
    message: r.message,
    createdAt: new Date(r.created_at),
    cursorAt: r.cursor_at,
  };
}

/**
 * The only writer of `leads` (docs/product.md#leads-and-handoff). A lead goes with its
 * conversation (ON DELETE CASCADE), with its owner's account, and by age with the owner's
 * conversation retention. Every owner-side read and write is scoped by owner.
 */
@Injectable()
export class LeadsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(tx: Transaction, lead: NewLead): Promise<LeadRow> {
    const rows: RawLead[] = await entityManagerOf(tx).query(
      `INSERT INTO leads AS l (owner_id, bot_id, bot_name, conversation_id, name, email, phone, message, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       RETURNING ${LEAD_COLUMNS}`,
      [
        lead.ownerId,
        lead.botId,
        lead.botName.slice(0, 100),
        lead.conversationId,
        lead.name,
        lead.email,
        lead.phone,
        lead.message,
        lead.createdAt,
      ],
    );
    return toRow(rows[0]);
  }

  async ownerHasBot(ownerId: number, botId: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM bots WHERE id = $1 AND owner_id = $2`, [
      botId,
      ownerId,
    ]);
    return rows.length > 0;
  }

  /** Up to `limit` of the owner's leads (of one bot, or all) after `after`, newest first. */
  async findPage(ownerId: number, botId: number | null, after: LeadCursor | null, limit: number): Promise<LeadRow[]> {
    const params: unknown[] = [ownerId];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = ['l.owner_id = $1'];
    if (botId !== null) where.push(`l.bot_id = ${param(botId)}`);
    if (after) {
      const at = param(after.at);
      // The plain bound lets the index range start at the cursor; the row comparison breaks ties by id.
      where.push(`l.created_at <= ${at}::timestamptz`);
      where.push(`(l.created_at, l.id) < (${at}::timestamptz, ${param(after.id)}::integer)`);
    }
    const rows: RawLead[] = await this.dataSource.query(
      `SELECT ${LEAD_COLUMNS} FROM leads l WHERE ${where.join(' AND ')}
        ORDER BY l.created_at DESC, l.id DESC LIMIT ${param(limit)}`,
      params,
    );
    return rows.map(toRow);
  }

  /** The e-mail address of the newest lead with one in the owner's conversation, or null. */
  async latestEmailOf(ownerId: number, conversationId: number): Promise<string | null> {
    const rows: Array<{ email: string }> = await this.dataSource.query(
      `SELECT email FROM leads WHERE owner_id = $1 AND conversation_id = $2 AND email IS NOT NULL
        ORDER BY created_at DESC, id DESC LIMIT 1`,
      [ownerId, conversationId],
    );
    return rows[0]?.email ?? null;
  }

  /** False when the lead is not the owner's (or does not exist). */
  async deleteOwned(ownerId: number, id: number): Promise<boolean> {
    // Counted by a SELECT: TypeORM answers a bare DELETE ... RETURNING with [rows, affected].
    const [row] = await this.dataSource.query<Array<{ deleted: number }>>(
      `WITH gone AS (DELETE FROM leads WHERE id = $1 AND owner_id = $2 RETURNING id)
       SELECT COUNT(*)::int AS deleted FROM gone`,
      [id, ownerId],
    );
    return Number(row?.deleted ?? 0) > 0;
  }

  /**
   * Deletes up to `limit` leads older than their owner's conversation retention at `now` (owners
   * who keep conversations forever have NULL and are never matched); returns how many.
   */
  async deleteExpired(tx: Transaction, now: Date, limit: number): Promise<number> {
    const [row] = await entityManagerOf(tx).query<Array<{ deleted: number }>>(
      `WITH doomed AS (
         SELECT l.id FROM leads l
           JOIN users u ON u.id = l.owner_id
          WHERE u.conversation_retention_days IS NOT NULL
            AND l.created_at < $1::timestamptz - u.conversation_retention_days * interval '1 day'
          ORDER BY l.id
          LIMIT $2
            FOR UPDATE OF l SKIP LOCKED
       ), gone AS (
         DELETE FROM leads l USING doomed WHERE l.id = doomed.id RETURNING l.id
       )
       SELECT COUNT(*)::int AS deleted FROM gone`,
      [now, limit],
    );
    return Number(row?.deleted ?? 0);
  }

  /** The owner's leads, removed at account deletion inside its transaction. */
  async deleteAllOf(ownerId: number, tx: Transaction): Promise<void> {
    await entityManagerOf(tx).query(`DELETE FROM leads WHERE owner_id = $1`, [ownerId]);
  }
}
