import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ConversationFilter } from '@botsmith/contract';
import type { MessageRating, MessageRole, StoredCitation } from './message.entity.js';

/** Where the previous page ended: its last conversation's exact last_message_at (microseconds) and id. */
export interface ConversationCursor {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
  at: string;
  id: number;
}

/** Which of the owner's conversations: every filter already checked by ConversationsService. */
export interface ConversationSelection {
  ownerId: number;
  /** A bot the owner has (checked before). */
  botId: number | null;
  /** Words for websearch_to_tsquery('english', …); null: no search. */
  search: string | null;
  /** last_message_at >= from. */
  from: Date | null;
  /** last_message_at < before. */
  before: Date | null;
  filter: ConversationFilter;
}

export interface ConversationRow {
  id: number;
  botId: number | null;
  botName: string;
  startedAt: Date;
  lastMessageAt: Date;
  cursorAt: string;
  messageCount: number;
  preview: string;
  pageUrl: string | null;
  unansweredCount: number;
  upCount: number;
  downCount: number;
  handoff: boolean;
  visitorName: string | null;
  visitorEmail: string | null;
  visitorVerified: boolean;
  leadName: string | null;
  leadEmail: string | null;
  waiting: boolean;
}

/** A call an answer made to one of the bot's actions (written by ConversationLogRepository.addActionCalls). */
export interface ActionCallRow {
  id: number;
  messageId: number;
  actionId: number | null;
  actionName: string;
  parameters: Record<string, string | number | boolean | null>;
  status: number | null;
  durationMs: number;
  answer: string | null;
  error: string | null;
  failed: boolean;
  createdAt: Date;
}

export interface MessageRow {
  id: number;
  role: MessageRole;
  content: string;
  createdAt: Date;
  citations: StoredCitation[] | null;
  rating: MessageRating | null;
  unanswered: boolean;
  /** Agent messages: the display name the visitor saw. */
  agentName: string | null;
}

/** One row of the export: a message with its conversation (message null for a conversation without any). */
export interface ExportRow {
  conversation: ConversationRow;
  message: MessageRow | null;
}

/** The most matching messages a search lists by id (see searchHits). */
export const SEARCH_HITS_MAX = 2000;

type RawConversation = {
  id: number;
  bot_id: number | null;
  bot_name: string;
  created_at: Date;
  last_message_at: Date;
  cursor_at: string;
  message_count: number;
  preview: string | null;
  page_url: string | null;
  unanswered_count: number;
  up_count: number;
  down_count: number;
  handoff: boolean;
  visitor_name: string | null;
  visitor_email: string | null;
  visitor_verified: boolean;
  lead_name: string | null;
  lead_email: string | null;
  waiting: boolean;
};

type RawMessage = {
  message_id: number | null;
  role: MessageRole;
  content: string;
  message_created_at: Date;
  citations: StoredCitation[] | string | null;
  rating: MessageRating | null;
  unanswered: boolean;
  agent_name: string | null;
};

/**
 * Handed off, and the newest message is the visitor's: the owner owes a reply. The newest message
 * is one probe of messages_conversation_idx (conversation_id, id); the handed-off conversations
 * of an owner are found through conversations_owner_handoff_idx (migration 1798750000000).
 */
const WAITING = `c.handoff_at IS NOT NULL
  AND (SELECT m.role FROM messages m WHERE m.conversation_id = c.id ORDER BY m.id DESC LIMIT 1) = 'user'`;

const CONVERSATION_COLUMNS = `
  c.id, c.bot_id, COALESCE(b.name, c.bot_name) AS bot_name, c.created_at, c.last_message_at,
  to_char(c.last_message_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at,
  c.message_count, c.preview, c.page_url, c.unanswered_count, c.up_count, c.down_count,
  c.handoff_at IS NOT NULL AS handoff, c.visitor_name, c.visitor_email, c.visitor_verified,
  (SELECT l.name FROM leads l WHERE l.conversation_id = c.id AND NULLIF(l.name, '') IS NOT NULL
    ORDER BY l.id DESC LIMIT 1) AS lead_name,
  (SELECT l.email FROM leads l WHERE l.conversation_id = c.id AND NULLIF(l.email, '') IS NOT NULL
    ORDER BY l.id DESC LIMIT 1) AS lead_email,
  (${WAITING}) AS waiting`;

function toConversation(r: RawConversation): ConversationRow {
  return {
    id: Number(r.id),
    botId: r.bot_id === null ? null : Number(r.bot_id),
    botName: r.bot_name,
    startedAt: new Date(r.created_at),
    lastMessageAt: new Date(r.last_message_at),
    cursorAt: r.cursor_at,
    messageCount: Number(r.message_count),
    preview: r.preview ?? '',
    pageUrl: r.page_url,
    unansweredCount: Number(r.unanswered_count),
    upCount: Number(r.up_count),
    downCount: Number(r.down_count),
    handoff: r.handoff === true,
    visitorName: r.visitor_name ?? null,
    visitorEmail: r.visitor_email ?? null,
    visitorVerified: r.visitor_verified === true,
    leadName: r.lead_name ?? null,
    leadEmail: r.lead_email ?? null,
    waiting: r.waiting === true,
  };
}

function toMessage(r: RawMessage & { message_id: number }): MessageRow {
  const citations = typeof r.citations === 'string' ? (JSON.parse(r.citations) as StoredCitation[]) : r.citations;
  return {
    id: Number(r.message_id),
    role: r.role,
    content: r.content,
    createdAt: new Date(r.message_created_at),
    citations,
    rating: r.rating,
    unanswered: r.unanswered === true,
    agentName: r.agent_name ?? null,
  };
}

/** The selection's conditions on conversations `c` (all but the owner and the search), their values added to `params`. */
function conversationFilters(selection: ConversationSelection, params: unknown[]): string[] {
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (selection.botId !== null) where.push(`c.bot_id = ${param(selection.botId)}`);
  if (selection.filter === 'unanswered') where.push('c.unanswered_count > 0');
  if (selection.filter === 'negative') where.push('c.down_count > 0');
  if (selection.filter === 'waiting') where.push(`(${WAITING})`);
  // Served by action_calls_conversation_idx; action_calls rows go with their conversation.
  if (selection.filter === 'action')
    where.push('EXISTS (SELECT 1 FROM action_calls ac WHERE ac.conversation_id = c.id)');
  if (selection.filter === 'action_failed') {
    where.push('EXISTS (SELECT 1 FROM action_calls ac WHERE ac.conversation_id = c.id AND ac.failed)');
  }
  if (selection.from) where.push(`c.last_message_at >= ${param(selection.from)}`);
  if (selection.before) where.push(`c.last_message_at < ${param(selection.before)}`);
  return where;
}

/**
 * The owner's conversations and their messages, for the inbox (docs/product.md#conversations).
 *
 * The list never aggregates messages: each conversation carries its running totals
 * (ConversationLogRepository.logMessages keeps them). It is read newest first by keyset over
 * (last_message_at, id), which the (owner_id | bot_id, last_message_at DESC, id DESC) indexes
 * serve, with partial ones for the "unanswered" and "negative" filters (their predicates are
 * written here exactly as in migration 1797600000000, so the planner can use them). The search
 * matches a conversation when any of its messages matches (messages.search_vector, GIN; see
 * searchHits for how rare and common words are served; bench/conversations.mjs measures both).
 * Every query is scoped by owner.
 */
@Injectable()
export class ConversationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async ownerHasBot(ownerId: number, botId: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM bots WHERE id = $1 AND owner_id = $2`, [
      botId,
      ownerId,
    ]);
    return rows.length > 0;
  }

  /** Up to `limit` conversations after `after`, newest first. */
  async findPage(
    selection: ConversationSelection,
    after: ConversationCursor | null,
    limit: number,
  ): Promise<ConversationRow[]> {
    const hits = await this.searchHits(selection);
    if (hits?.length === 0) return [];
    const rows = await this.runPage<RawConversation>(selection, hits, this.pageQuery(selection, hits, after, limit));
    return rows.map(toConversation);
  }

  /**
   * The export's next batch: up to `limit` conversations after `after` (as findPage), each with
   * all its messages in order; a conversation without messages comes as one row with message null.
   */
  async findExportBatch(
    selection: ConversationSelection,
    after: ConversationCursor | null,
    limit: number,
  ): Promise<ExportRow[]> {
    const hits = await this.searchHits(selection);
    if (hits?.length === 0) return [];
    const page = this.pageQuery(selection, hits, after, limit);
    const rows = await this.runPage<RawConversation & RawMessage>(selection, hits, {
      sql: `SELECT p.*, m.id AS message_id, m.role, m.content, m.created_at AS message_created_at, m.citations,
              m.rating, m.unanswered, m.agent_name
         FROM (${page.sql}) p
         LEFT JOIN messages m ON m.conversation_id = p.id AND m.owner_id = $1
        ORDER BY p.last_message_at DESC, p.id DESC, m.created_at, m.id`,
      params: page.params,
    });
    return rows.map((r) => ({
      conversation: toConversation(r),
      message: r.message_id === null ? null : toMessage({ ...r, message_id: r.message_id }),
    }));
  }

  /** How many of the owner's conversations wait for a reply (the same rule as the 'waiting' filter). */
  async countWaiting(ownerId: number): Promise<number> {
    const rows: Array<{ n: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM conversations c WHERE c.owner_id = $1 AND ${WAITING}`,
      [ownerId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async findOne(ownerId: number, conversationId: number): Promise<ConversationRow | null> {
    const rows: RawConversation[] = await this.dataSource.query(
      `SELECT ${CONVERSATION_COLUMNS}
         FROM conversations c LEFT JOIN bots b ON b.id = c.bot_id
        WHERE c.id = $1 AND c.owner_id = $2`,
      [conversationId, ownerId],
    );
    return rows[0] ? toConversation(rows[0]) : null;
  }

  /**
   * The e-mail address the visitor left in a lead for this conversation (the newest), if any:
   * where the owner's replies are mailed. Leads are written by the leads module; read here.
   */
  async visitorEmailOf(ownerId: number, conversationId: number): Promise<string | null> {
    const rows: Array<{ email: string }> = await this.dataSource.query(
      `SELECT email FROM leads
        WHERE conversation_id = $1 AND owner_id = $2 AND email IS NOT NULL AND email <> ''
        ORDER BY id DESC LIMIT 1`,
      [conversationId, ownerId],
    );
    return rows[0]?.email ?? null;
  }

  /** The conversation's messages, oldest first (the order they were logged). */
  async findMessages(ownerId: number, conversationId: number): Promise<MessageRow[]> {
    const rows: Array<RawMessage & { message_id: number }> = await this.dataSource.query(
      `SELECT m.id AS message_id, m.role, m.content, m.created_at AS message_created_at, m.citations, m.rating,
              m.unanswered, m.agent_name
         FROM messages m
        WHERE m.conversation_id = $1 AND m.owner_id = $2
        ORDER BY m.created_at, m.id`,
      [conversationId, ownerId],
    );
    return rows.map(toMessage);
  }

  /**
   * The conversation's action calls in the order made. action_calls has no owner column: the
   * conversation's owner is checked in the same statement.
   */
  async findActionCalls(ownerId: number, conversationId: number): Promise<ActionCallRow[]> {
    const rows: Array<{
      id: number;
      message_id: number;
      action_id: number | null;
      action_name: string;
      parameters: ActionCallRow['parameters'] | string;
      status: number | null;
      duration_ms: number;
      answer: string | null;
      error: string | null;
      failed: boolean;
      created_at: Date | string;
    }> = await this.dataSource.query(
      `SELECT a.id, a.message_id, a.action_id, a.action_name, a.parameters, a.status, a.duration_ms, a.answer,
              a.error, a.failed, a.created_at
         FROM action_calls a JOIN conversations c ON c.id = a.conversation_id
        WHERE a.conversation_id = $1 AND c.owner_id = $2
        ORDER BY a.created_at, a.id`,
      [conversationId, ownerId],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      messageId: Number(r.message_id),
      actionId: r.action_id === null ? null : Number(r.action_id),
      actionName: r.action_name,
      parameters: (typeof r.parameters === 'string'
        ? JSON.parse(r.parameters)
        : r.parameters) as ActionCallRow['parameters'],
      status: r.status === null ? null : Number(r.status),
      durationMs: Number(r.duration_ms),
      answer: r.answer,
      error: r.error,
      failed: r.failed === true,
      createdAt: new Date(r.created_at),
    }));
  }

  /**
   * Deletes the conversation and (ON DELETE CASCADE) its messages; the usage ledger keeps its
   * rows (usage_events.message_id is ON DELETE SET NULL). False when the owner has no such conversation.
   */
  async delete(ownerId: number, conversationId: number): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM conversations WHERE id = $1 AND owner_id = $2`,
      [conversationId, ownerId],
    );
    return count > 0;
  }

  /**
   * The conversations a search matches, when its words are rare enough to list them all: at most
   * SEARCH_HITS_MAX matching messages, found through the GIN index. Null when there are more (or
   * no search): then the page walks the conversations newest first and checks each one's messages,
   * which finds a page of a common word's matches quickly (the filters narrow the walk, not the
   * density of matches in it). Either way the page is exact; deciding by the actual count, not the
   * planner's estimate, keeps rare words off the walk (over every conversation of the owner) and
   * common words off the list (of a large part of the log).
   */
  private async searchHits(selection: ConversationSelection): Promise<number[] | null> {
    if (selection.search === null) return null;
    const rows: Array<{ conversation_id: number }> = await this.dataSource.query(
      `SELECT m.conversation_id FROM messages m
        WHERE m.owner_id = $1 AND m.search_vector @@ websearch_to_tsquery('english', $2)
        LIMIT $3`,
      [selection.ownerId, selection.search, SEARCH_HITS_MAX + 1],
    );
    if (rows.length > SEARCH_HITS_MAX) return null;
    return [...new Set(rows.map((r) => Number(r.conversation_id)))];
  }

  /**
   * Runs a page query. The walk of a common word's matches is run without parallel workers: the
   * planner's parallel plan has each worker find a page of its own and pays the workers' start,
   * about 200 ms on a busy server, for a page that one process finds in a few milliseconds.
   */
  private async runPage<T>(
    selection: ConversationSelection,
    hits: number[] | null,
    page: { sql: string; params: unknown[] },
  ): Promise<T[]> {
    if (selection.search === null || hits !== null) return this.dataSource.query(page.sql, page.params);
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SET LOCAL max_parallel_workers_per_gather = 0`);
      return manager.query(page.sql, page.params);
    });
  }

  private pageQuery(
    selection: ConversationSelection,
    hits: number[] | null,
    after: ConversationCursor | null,
    limit: number,
  ): { sql: string; params: unknown[] } {
    const params: unknown[] = [selection.ownerId];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = ['c.owner_id = $1', ...conversationFilters(selection, params)];
    if (after) {
      const at = param(after.at);
      // The plain bound lets the index range start at the cursor; the row comparison breaks ties by id.
      where.push(`c.last_message_at <= ${at}::timestamptz`);
      where.push(`(c.last_message_at, c.id) < (${at}::timestamptz, ${param(after.id)}::integer)`);
    }
    if (hits !== null) {
      where.push(`c.id = ANY(${param(hits)}::integer[])`);
    } else if (selection.search !== null) {
      where.push(
        `c.id IN (SELECT m.conversation_id FROM messages m
                   WHERE m.owner_id = $1 AND m.search_vector @@ websearch_to_tsquery('english', ${param(selection.search)}))`,
      );
    }
    const sql = `SELECT ${CONVERSATION_COLUMNS}
         FROM conversations c LEFT JOIN bots b ON b.id = c.bot_id
        WHERE ${where.join(' AND ')}
        ORDER BY c.last_message_at DESC, c.id DESC
        LIMIT ${param(limit)}`;
    return { sql, params };
  }
}
