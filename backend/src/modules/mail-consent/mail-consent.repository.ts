import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

export type ConsentKind = 'lead_notice' | 'owner_reply';

export interface ConsentRow {
  id: number;
  ownerId: number;
  kind: ConsentKind;
  email: string;
  conversationId: number | null;
  requestedAt: Date | null;
  confirmedAt: Date | null;
}

interface RawConsent {
  id: number;
  owner_id: number;
  kind: ConsentKind;
  email: string;
  conversation_id: number | null;
  requested_at: Date | null;
  confirmed_at: Date | null;
}

const CONSENT_COLUMNS = 'id, owner_id, kind, email, conversation_id, requested_at, confirmed_at';

function toConsent(r: RawConsent): ConsentRow {
  return {
    id: Number(r.id),
    ownerId: Number(r.owner_id),
    kind: r.kind,
    email: r.email,
    conversationId: r.conversation_id === null ? null : Number(r.conversation_id),
    requestedAt: r.requested_at === null ? null : new Date(r.requested_at),
    confirmedAt: r.confirmed_at === null ? null : new Date(r.confirmed_at),
  };
}

/** A lead of a digest, with the address it goes to. */
export interface DigestRow {
  ownerId: number;
  to: string;
  botName: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  message: string | null;
  createdAt: Date;
}

export interface AgentReplyRow {
  agentName: string | null;
  content: string;
  createdAt: Date;
}

/**
 * The only writer of `mail_consents`, `lead_notice_windows` and
 * `lead_digest_items` (docs/product.md#mail-consent). Every claim is one statement, so two
 * instances (or two requests) never send the same mail twice.
 */
@Injectable()
export class MailConsentRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async leadNoticeConsents(ownerId: number, emails: string[]): Promise<Map<string, ConsentRow>> {
    if (emails.length === 0) return new Map();
    const rows: RawConsent[] = await this.dataSource.query(
      `SELECT ${CONSENT_COLUMNS} FROM mail_consents WHERE kind = 'lead_notice' AND owner_id = $1 AND email = ANY($2)`,
      [ownerId, emails],
    );
    return new Map(rows.map((r) => [r.email, toConsent(r)]));
  }

  async replyConsent(conversationId: number, email: string): Promise<ConsentRow | null> {
    const rows: RawConsent[] = await this.dataSource.query(
      `SELECT ${CONSENT_COLUMNS} FROM mail_consents WHERE kind = 'owner_reply' AND conversation_id = $1 AND email = $2`,
      [conversationId, email],
    );
    return rows[0] ? toConsent(rows[0]) : null;
  }

  async findByTokenHash(tokenHash: string): Promise<ConsentRow | null> {
    const rows: RawConsent[] = await this.dataSource.query(
      `SELECT ${CONSENT_COLUMNS} FROM mail_consents WHERE token_hash = $1`,
      [tokenHash],
    );
    return rows[0] ? toConsent(rows[0]) : null;
  }

  /**
   * Claims the right to mail a confirmation request to a lead address: creates the row, or takes
   * one never asked (or asked before `askedBefore`), not confirmed and asked fewer than
   * `maxRequests` times. True for exactly one caller.
   */
  async claimLeadNoticeRequest(
    ownerId: number,
    email: string,
    tokenHash: string,
    at: Date,
    askedBefore: Date,
    maxRequests: number,
  ): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO mail_consents (owner_id, kind, email, token_hash, requested_at, requests)
         VALUES ($1, 'lead_notice', $2, $3, $4, 1)
       ON CONFLICT (owner_id, email) WHERE kind = 'lead_notice' DO UPDATE
         SET token_hash = EXCLUDED.token_hash, requested_at = EXCLUDED.requested_at,
             requests = mail_consents.requests + 1
         WHERE mail_consents.confirmed_at IS NULL AND mail_consents.requests < $6
           AND (mail_consents.requested_at IS NULL OR mail_consents.requested_at <= $5)
       RETURNING id`,
      [ownerId, email, tokenHash, at, askedBefore, maxRequests],
    );
    return rows.length > 0;
  }

  /** How many confirmation requests the owner's lead address was mailed. */
  async leadNoticeRequests(ownerId: number, email: string): Promise<number> {
    const rows: Array<{ requests: number }> = await this.dataSource.query(
      `SELECT requests FROM mail_consents WHERE kind = 'lead_notice' AND owner_id = $1 AND email = $2`,
      [ownerId, email],
    );
    return Number(rows[0]?.requests ?? 0);
  }

  /** The same claim for a visitor's address in one conversation (docs/product.md#mail-consent). */
  async claimReplyRequest(
    ownerId: number,
    conversationId: number,
    email: string,
    tokenHash: string,
    at: Date,
    askedBefore: Date,
  ): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO mail_consents (owner_id, kind, email, conversation_id, token_hash, requested_at)
         VALUES ($1, 'owner_reply', $2, $3, $4, $5)
       ON CONFLICT (conversation_id, email) WHERE kind = 'owner_reply' DO UPDATE
         SET token_hash = EXCLUDED.token_hash, requested_at = EXCLUDED.requested_at
         WHERE mail_consents.confirmed_at IS NULL
           AND (mail_consents.requested_at IS NULL OR mail_consents.requested_at <= $6)
       RETURNING id`,
      [ownerId, email, conversationId, tokenHash, at, askedBefore],
    );
    return rows.length > 0;
  }

  /** The request could not be mailed (the daily limit): the next lead or reply may ask again. */
  async unclaimRequest(tokenHash: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE mail_consents SET requested_at = NULL, requests = GREATEST(requests - 1, 0)
        WHERE token_hash = $1 AND confirmed_at IS NULL`,
      [tokenHash],
    );
  }

  async confirm(id: number, at: Date): Promise<void> {
    await this.dataSource.query(`UPDATE mail_consents SET confirmed_at = COALESCE(confirmed_at, $2) WHERE id = $1`, [
      id,
      at,
    ]);
  }

  /**
   * The owner's replies in the conversation, oldest first, the bot's name, and where the conversation
   * was held (its bot and page), which the reply page links back to.
   */
  async repliesOf(
    conversationId: number,
  ): Promise<{ botName: string; botId: number | null; pageUrl: string | null; replies: AgentReplyRow[] }> {
    const [conversation]: Array<{ bot_name: string; bot_id: number | null; page_url: string | null }> =
      await this.dataSource.query(`SELECT bot_name, bot_id, page_url FROM conversations WHERE id = $1`, [
        conversationId,
      ]);
    const rows: Array<{ agent_name: string | null; content: string; created_at: Date }> = await this.dataSource.query(
      `SELECT agent_name, content, created_at FROM messages
        WHERE conversation_id = $1 AND role = 'agent' ORDER BY created_at, id LIMIT 200`,
      [conversationId],
    );
    return {
      botName: conversation?.bot_name ?? '',
      botId: conversation?.bot_id ?? null,
      pageUrl: conversation?.page_url ?? null,
      replies: rows.map((r) => ({ agentName: r.agent_name, content: r.content, createdAt: new Date(r.created_at) })),
    };
  }

  /**
   * Counts a lead notice to an address in its window (a new window when the last one began
   * `windowMs` or more before `at`). Returns the window's start and this notice's place in it.
   */
  async countLeadNotice(
    ownerId: number,
    email: string,
    at: Date,
    windowMs: number,
  ): Promise<{ windowStart: Date; place: number }> {
    const rows: Array<{ window_start: Date; notices: number }> = await this.dataSource.query(
      `INSERT INTO lead_notice_windows (owner_id, email, window_start, notices) VALUES ($1, $2, $3, 1)
       ON CONFLICT (owner_id, email) DO UPDATE SET
         notices = CASE WHEN lead_notice_windows.window_start <= $4 THEN 1 ELSE lead_notice_windows.notices + 1 END,
         window_start = CASE WHEN lead_notice_windows.window_start <= $4 THEN $3 ELSE lead_notice_windows.window_start END
       RETURNING window_start, notices`,
      [ownerId, email, at, new Date(at.getTime() - windowMs)],
    );
    return { windowStart: new Date(rows[0].window_start), place: Number(rows[0].notices) };
  }

  async queueDigestItem(ownerId: number, email: string, leadId: number, dueAt: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO lead_digest_items (owner_id, email, lead_id, due_at) VALUES ($1, $2, $3, $4)`,
      [ownerId, email, leadId, dueAt],
    );
  }

  /**
   * Marks up to `limit` due digest items sent and returns them with their leads, by owner and
   * address: one instance takes each item (SKIP LOCKED), so a digest goes out once.
   */
  async claimDueDigestItems(now: Date, limit: number): Promise<DigestRow[]> {
    const rows: Array<{
      owner_id: number;
      to_email: string;
      bot_name: string;
      name: string | null;
      email: string | null;
      phone: string | null;
      message: string | null;
      created_at: Date;
    }> = await this.dataSource.query(
      `WITH claimed AS (
         UPDATE lead_digest_items SET sent_at = $1
          WHERE id IN (SELECT id FROM lead_digest_items WHERE sent_at IS NULL AND due_at <= $1
                        ORDER BY due_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING owner_id, email, lead_id)
       SELECT c.owner_id, c.email AS to_email, l.bot_name, l.name, l.email, l.phone, l.message, l.created_at
         FROM claimed c JOIN leads l ON l.id = c.lead_id
        ORDER BY c.owner_id, c.email, l.created_at, l.id`,
      [now, limit],
    );
    return rows.map((r) => ({
      ownerId: Number(r.owner_id),
      to: r.to_email,
      botName: r.bot_name,
      name: r.name,
      email: r.email,
      phone: r.phone,
      message: r.message,
      createdAt: new Date(r.created_at),
    }));
  }
}
