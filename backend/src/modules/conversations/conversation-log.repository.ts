import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import { sqlOf, sqlValue, StatementParts, type SqlValue, type StatementRow } from '../../database/statement.js';
import type { MessageRole, StoredCitation } from './message.entity.js';

/** Who a conversation belongs to and where it happened. */
export interface ConversationKey {
  ownerId: number;
  botId: number;
  botName: string;
  visitorId: string;
  pageUrl: string | null;
}

export interface LoggedMessage {
  role: MessageRole;
  content: string;
  model?: string | null;
  tokens?: number;
  costCents?: number;
  createdAt: Date;
  /** An answer the bot could not give (see docs/product.md#conversations). */
  unanswered?: boolean;
  citations?: StoredCitation[] | null;
  /** Agent messages: the display name the visitor is shown. */
  agentName?: string | null;
}

/** A call an answer made to one of the bot's actions (docs/product.md#actions), logged with that answer. */
export interface LoggedActionCall {
  /** null when the action was deleted while the message was answered. */
  actionId: number | null;
  actionName: string;
  /** The parameters the model gave (checked ones, or the refused raw text under `raw`). */
  parameters: Record<string, unknown>;
  /** The API's HTTP status; null when no request was made or no answer came. */
  status: number | null;
  durationMs: number;
  /** The filtered answer (JSON text, at most 4 KB), when there was one. */
  answer: string | null;
  /** Why the call failed (refused, unreachable, timed out, an error status); null when it worked. */
  error: string | null;
  /**
   * The owner's API failed (an error status, a timeout, an unreachable address): what the inbox's
   * "Action failed" filter and the counters count. Absent: whenever there is an `error`. The chat
   * says false for a call refused before any request (no verified visitor, invalid parameters) and
   * for an answer about someone else.
   */
  failed?: boolean;
  createdAt: Date;
}

/** A conversation the owner may reply in, locked for the reply's transaction. */
export interface ReplyTarget {
  id: number;
  /** null once the bot is deleted. */
  botId: number | null;
  botName: string;
  pageUrl: string | null;
  handoffAt: Date | null;
}

/** An agent message as the visitor's widget receives it. */
export interface AgentMessageRow {
  id: number;
  content: string;
  name: string;
  createdAt: Date;
}

/** A turn added to a statement (ConversationLogRepository.addTurn). */
export interface LoggedTurnPart {
  /** The conversation the turn is logged in. */
  conversationId: SqlValue;
  /** The turn's last message: the answer, when it has one. */
  answerId: SqlValue;
  /** The conversation and the messages' ids in order, from the statement's row. */
  read(row: StatementRow): { conversationId: number; messageIds: number[] };
}

/** A message's stored columns after its keys, in the order both inserts list them. */
function messageValues(m: LoggedMessage): unknown[] {
  return [
    m.role,
    m.content,
    m.model ?? null,
    m.tokens ?? 0,
    m.costCents ?? 0,
    m.createdAt,
    m.unanswered ?? false,
    m.citations?.length ? JSON.stringify(m.citations) : null,
    m.agentName ?? null,
  ];
}

/**
 * The conversation log's writes and the chat engine's reads of it (conversations, messages):
 * conversations/ is the one module that writes these tables. The chat engine reaches it through
 * ConversationLog (conversation-log.ts), the inbox and the owner's replies directly.
 */
@Injectable()
export class ConversationLogRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Locks the owner's row first thing in an owner reply's transaction, the order the chat's
   * record-and-charge statement takes too (its credit spend locks the row before the conversation
   * is looked up, docs/decisions/0016-chat-path-cost.md): taken after inserts whose foreign keys
   * share-lock the same row, or after the conversation's lock, the two would deadlock.
   */
  async lockOwner(tx: Transaction, ownerId: number): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.query(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [ownerId]);
  }

  /**
   * The visitor's conversation with the bot (one per visitor id and bot), created on first use.
   * Only called while the visitor's in-flight lock is held, so one visitor never creates two.
   * The found row is key-share locked until the transaction ends, so the retention job cannot
   * delete it under the messages about to be logged (it skips locked rows; had it deleted the
   * row first, the lock finds nothing and a new conversation starts).
   */
  async conversationFor(tx: Transaction, key: ConversationKey): Promise<number> {
    const manager = entityManagerOf(tx);
    const rows: Array<{ id: number }> = await manager.query(
      `WITH found AS (
         SELECT id FROM conversations WHERE bot_id = $2::integer AND visitor_id = $4::varchar
          ORDER BY id DESC LIMIT 1 FOR KEY SHARE
       ), created AS (
         INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id, page_url)
         SELECT $1::integer, $2::integer, $3::varchar, $4::varchar, $5::varchar WHERE NOT EXISTS (SELECT 1 FROM found)
         RETURNING id
       )
       SELECT id FROM found UNION ALL SELECT id FROM created`,
      [key.ownerId, key.botId, key.botName.slice(0, 100), key.visitorId, key.pageUrl?.slice(0, 2048) ?? null],
    );
    return Number(rows[0].id);
  }

  /**
   * Stores who the host page says the visitor is (`Botsmith.identify`, display only): the given
   * fields replace the stored ones, absent ones leave them. Called in the transaction that logs
   * the visitor's message, after `conversationFor` (whose key-share lock this update is compatible with).
   */
  async setVisitorIdentity(
    tx: Transaction,
    conversationId: number,
    identity: { name?: string; email?: string },
  ): Promise<void> {
    if (identity.name === undefined && identity.email === undefined) return;
    await entityManagerOf(tx).query(
      `UPDATE conversations
          SET visitor_name = COALESCE($2::varchar, visitor_name),
              visitor_email = COALESCE($3::varchar, visitor_email)
        WHERE id = $1`,
      [conversationId, identity.name ?? null, identity.email ?? null],
    );
  }

  /**
   * Appends messages to a conversation and moves its running totals (last message, count,
   * preview, unanswered answers) in the same transaction; returns the messages' ids in order.
   */
  async logMessages(
    tx: Transaction,
    conversationId: number,
    ownerId: number,
    messages: LoggedMessage[],
  ): Promise<number[]> {
    const manager = entityManagerOf(tx);
    const params: unknown[] = [];
    const rows = messages.map((m) => {
      params.push(conversationId, ownerId, ...messageValues(m));
      const n = params.length;
      const p = (i: number) => `$${n - 10 + i}`;
      return `(${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}::jsonb, ${p(10)})`;
    });
    const firstQuestion = messages.find((m) => m.role === 'user')?.content.slice(0, 200) ?? null;
    const lastAt = messages.reduce((at, m) => (m.createdAt > at ? m.createdAt : at), messages[0].createdAt);
    const n = params.length;
    params.push(conversationId, lastAt, messages.length, firstQuestion, messages.filter((m) => m.unanswered).length);
    // One statement (docs/decisions/0016-chat-path-cost.md): the insert and the totals' update are
    // both data-modifying parts of it, each run once.
    const inserted: Array<{ id: number }> = await manager.query(
      `WITH totals AS (
         UPDATE conversations
            SET last_message_at = GREATEST(last_message_at, $${n + 2}::timestamptz),
                message_count = message_count + $${n + 3}::integer,
                preview = COALESCE(preview, $${n + 4}::varchar),
                unanswered_count = unanswered_count + $${n + 5}::integer
          WHERE id = $${n + 1}
       )
       INSERT INTO messages (conversation_id, owner_id, role, content, model, tokens, cost_cents, created_at, unanswered, citations, agent_name)
       VALUES ${rows.join(', ')} RETURNING id`,
      params,
    );
    // Serial ids are drawn row by row in VALUES order.
    return inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
  }

  /**
   * Adds a turn to a statement (docs/decisions/0016-chat-path-cost.md): what `conversationFor`,
   * `setVisitorIdentity` and `logMessages` do one after another, as data-modifying parts. Called
   * under the visitor's in-flight lock. The visitor's conversation is found (key-share locked, as
   * `conversationFor`) and its totals and the visitor's identity updated, or it is created with
   * them already set (a row created by the statement cannot be updated by it); the messages are
   * inserted into it. Offers the conversation's id and the last message's (the answer's) to the
   * statement's other parts; `read` gives the conversation and the messages' ids in order.
   */
  addTurn(
    parts: StatementParts,
    key: ConversationKey,
    messages: LoggedMessage[],
    identity?: { name?: string; email?: string; verified?: boolean } | null,
    after?: SqlValue,
  ): LoggedTurnPart {
    // An uncorrelated condition is checked once, before the conversation is looked up and locked:
    // the part it reads runs first (PostgreSQL runs it as an init plan).
    const gate = after ? `AND ${sqlOf(after)}` : '';
    const firstQuestion = messages.find((m) => m.role === 'user')?.content.slice(0, 200) ?? null;
    const lastAt = messages.reduce((at, m) => (m.createdAt > at ? m.createdAt : at), messages[0].createdAt);
    const owner = parts.param(key.ownerId, 'integer');
    const bot = parts.param(key.botId, 'integer');
    const visitor = parts.param(key.visitorId, 'varchar');
    const name = parts.param(identity?.name ?? null, 'varchar');
    const email = parts.param(identity?.email ?? null, 'varchar');
    const at = parts.param(lastAt, 'timestamptz');
    const count = parts.param(messages.length, 'integer');
    const preview = parts.param(firstQuestion, 'varchar');
    const unanswered = parts.param(messages.filter((m) => m.unanswered).length, 'integer');
    const verified = parts.param(identity?.verified === true, 'boolean');
    const rows = messages.map((m, ordinal) => {
      const [role, content, model, tokens, cost, createdAt, isUnanswered, citations, agentName] = messageValues(m);
      return `(${[
        parts.param(ordinal, 'integer'),
        parts.param(role, 'varchar'),
        parts.param(content, 'text'),
        parts.param(model, 'varchar'),
        parts.param(tokens, 'integer'),
        parts.param(cost, 'integer'),
        parts.param(createdAt, 'timestamptz'),
        parts.param(isUnanswered, 'boolean'),
        parts.param(citations, 'jsonb'),
        parts.param(agentName, 'varchar'),
      ].join(', ')})`;
    });
    parts.with(
      'turn_found',
      `SELECT id FROM conversations WHERE bot_id = ${bot} AND visitor_id = ${visitor} ${gate}
        ORDER BY id DESC LIMIT 1 FOR KEY SHARE`,
    );
    // A new conversation's last_message_at starts from its default (now()), as when it was
    // created first and its totals moved after.
    parts.with(
      'turn_created',
      `INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id, page_url, visitor_name, visitor_email,
                                  last_message_at, message_count, preview, unanswered_count, visitor_verified)
       SELECT ${owner}, ${bot}, ${parts.param(key.botName.slice(0, 100), 'varchar')}, ${visitor},
              ${parts.param(key.pageUrl?.slice(0, 2048) ?? null, 'varchar')}, ${name}, ${email},
              GREATEST(now(), ${at}), ${count}, ${preview}, ${unanswered}, ${verified}
        WHERE NOT EXISTS (SELECT 1 FROM turn_found) ${gate}
       RETURNING id`,
    );
    parts.with(
      'turn_updated',
      `UPDATE conversations
          SET last_message_at = GREATEST(last_message_at, ${at}),
              message_count = message_count + ${count},
              preview = COALESCE(preview, ${preview}),
              unanswered_count = unanswered_count + ${unanswered},
              visitor_name = COALESCE(${name}, visitor_name),
              visitor_email = COALESCE(${email}, visitor_email),
              visitor_verified = visitor_verified OR ${verified}
        WHERE id = (SELECT id FROM turn_found)`,
    );
    parts.with('turn_conversation', `SELECT id FROM turn_found UNION ALL SELECT id FROM turn_created`);
    // Serial ids are drawn in the SELECT's order.
    parts.with(
      'turn_messages',
      `INSERT INTO messages (conversation_id, owner_id, role, content, model, tokens, cost_cents, created_at, unanswered,
                             citations, agent_name)
       SELECT c.id, ${owner}, v.role, v.content, v.model, v.tokens, v.cost_cents, v.created_at, v.unanswered,
              v.citations, v.agent_name
         FROM turn_conversation c
        CROSS JOIN (VALUES ${rows.join(', ')})
              AS v(ordinal, role, content, model, tokens, cost_cents, created_at, unanswered, citations, agent_name)
        ORDER BY v.ordinal
       RETURNING id, conversation_id`,
    );
    parts.select('turn_conversation_id', '(SELECT id FROM turn_conversation)');
    parts.select('turn_message_ids', 'ARRAY(SELECT id FROM turn_messages ORDER BY id)');
    return {
      conversationId: sqlValue('(SELECT id FROM turn_conversation)'),
      answerId: sqlValue('(SELECT max(id) FROM turn_messages)'),
      read: (row) => ({
        conversationId: Number(row.turn_conversation_id),
        messageIds: (row.turn_message_ids as Array<number | string>).map(Number),
      }),
    };
  }

  /** Adds the calls an answer made to the bot's actions to a statement, with that answer's ids. */
  addActionCalls(
    parts: StatementParts,
    key: ConversationKey,
    conversationId: SqlValue,
    messageId: SqlValue,
    calls: readonly LoggedActionCall[],
  ): void {
    if (calls.length === 0) return;
    const logged = calls.map((c) => ({
      action_id: c.actionId,
      action_name: c.actionName.slice(0, 64),
      parameters: c.parameters,
      status: c.status,
      duration_ms: Math.max(0, Math.round(c.durationMs)),
      answer: c.answer,
      error: c.error,
      failed: c.failed ?? null,
      created_at: c.createdAt.toISOString(),
    }));
    parts.with(
      'turn_action_calls',
      `INSERT INTO action_calls (conversation_id, message_id, bot_id, action_id, action_name, parameters, status,
                                 duration_ms, answer, error, failed, created_at)
       SELECT ${sqlOf(conversationId)}, ${sqlOf(messageId)}, ${parts.param(key.botId, 'integer')}, c.action_id,
              c.action_name, c.parameters, c.status, c.duration_ms, c.answer, c.error,
              COALESCE(c.failed, c.error IS NOT NULL), c.created_at
         FROM jsonb_to_recordset(${parts.param(JSON.stringify(logged), 'jsonb')}) AS c(action_id integer,
              action_name varchar, parameters jsonb, status integer, duration_ms integer, answer text, error text,
              failed boolean, created_at timestamptz)`,
    );
  }

  /**
   * Adds to a statement whether a person handles the visitor's conversation with the bot (its
   * `handoff_at` is set): the bot then stays quiet. Read with the visitor's in-flight lock.
   */
  addHandoffRead(parts: StatementParts, botId: number, visitorId: string): { read(row: StatementRow): boolean } {
    parts.with(
      'handoff',
      `SELECT handoff_at IS NOT NULL AS handoff FROM conversations
        WHERE bot_id = ${parts.param(botId, 'integer')} AND visitor_id = ${parts.param(visitorId, 'varchar')}
        ORDER BY id DESC LIMIT 1`,
    );
    parts.select('handed_off', 'COALESCE((SELECT handoff FROM handoff), false)');
    return { read: (row) => row.handed_off === true };
  }

  /**
   * The visitor's messages in their handed-off conversation with the bot since `since` (and since
   * the handoff), counted up to `cap`: what the per-conversation daily cap is checked against.
   */
  async handoffMessagesSince(botId: number, visitorId: string, since: Date, cap: number): Promise<number> {
    const rows: Array<{ n: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM (
         SELECT 1 FROM messages m
           JOIN conversations c ON c.id = m.conversation_id
          WHERE c.id = (SELECT id FROM conversations WHERE bot_id = $1::integer AND visitor_id = $2::varchar
                         ORDER BY id DESC LIMIT 1)
            AND m.role = 'user' AND m.created_at >= GREATEST($3::timestamptz, c.handoff_at)
          LIMIT $4::integer) counted`,
      [botId, visitorId, since, cap],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * The owner's conversation, row-locked for a reply (after `lockOwner`, the order the chat's
   * charge takes too, so the two cannot deadlock); null when the owner has no such conversation.
   */
  async lockReplyTarget(tx: Transaction, ownerId: number, conversationId: number): Promise<ReplyTarget | null> {
    const manager = entityManagerOf(tx);
    const rows: Array<{
      id: number;
      bot_id: number | null;
      bot_name: string;
      page_url: string | null;
      handoff_at: Date | null;
    }> = await manager.query(
      `SELECT id, bot_id, bot_name, page_url, handoff_at FROM conversations
          WHERE id = $1 AND owner_id = $2 FOR UPDATE`,
      [conversationId, ownerId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: Number(row.id),
      botId: row.bot_id === null ? null : Number(row.bot_id),
      botName: row.bot_name,
      pageUrl: row.page_url,
      handoffAt: row.handoff_at === null ? null : new Date(row.handoff_at),
    };
  }

  /** A person starts handling the conversation (kept if already set). */
  async startHandoff(tx: Transaction, conversationId: number, at: Date): Promise<void> {
    await entityManagerOf(tx).query(
      `UPDATE conversations SET handoff_at = COALESCE(handoff_at, $2::timestamptz) WHERE id = $1`,
      [conversationId, at],
    );
  }

  /** The bot answers again; false when the owner has no such conversation. */
  async endHandoff(ownerId: number, conversationId: number): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.dataSource.query(
      `UPDATE conversations SET handoff_at = NULL WHERE id = $1 AND owner_id = $2`,
      [conversationId, ownerId],
    );
    return count > 0;
  }

  /**
   * The visitor's current conversation with the bot (the newest): whether a person handles it,
   * and its agent messages with an id above `afterId` (at most `limit`, oldest first). `latestId`
   * is its newest agent message id (0 without one), where a new listener starts: replies to one
   * conversation are written one at a time (the conversation's row lock), so they commit in id order
   * and none can appear later below an id already seen.
   */
  async agentMessagesOf(
    botId: number,
    visitorId: string,
    afterId: number,
    limit: number,
  ): Promise<{ exists: boolean; handoff: boolean; latestId: number; messages: AgentMessageRow[] }> {
    const rows: Array<{
      handoff: boolean;
      latest_id: number | null;
      id: number | null;
      content: string | null;
      agent_name: string | null;
      created_at: Date | null;
    }> = await this.dataSource.query(
      `WITH c AS (
         SELECT id, handoff_at FROM conversations
          WHERE bot_id = $1::integer AND visitor_id = $2::varchar ORDER BY id DESC LIMIT 1
       )
       SELECT c.handoff_at IS NOT NULL AS handoff,
              (SELECT MAX(x.id) FROM messages x WHERE x.conversation_id = c.id AND x.role = 'agent') AS latest_id,
              m.id, m.content, m.agent_name, m.created_at
         FROM c
         LEFT JOIN LATERAL (
           SELECT id, content, agent_name, created_at FROM messages
            WHERE conversation_id = c.id AND role = 'agent' AND id > $3::integer
            ORDER BY id LIMIT $4::integer
         ) m ON true
        ORDER BY m.id`,
      [botId, visitorId, afterId, limit],
    );
    if (rows.length === 0) return { exists: false, handoff: false, latestId: 0, messages: [] };
    return {
      exists: true,
      handoff: rows[0].handoff === true,
      latestId: Number(rows[0].latest_id ?? 0),
      messages: rows
        .filter((r) => r.id !== null)
        .map((r) => ({
          id: Number(r.id),
          content: r.content ?? '',
          name: r.agent_name ?? '',
          createdAt: new Date(r.created_at!),
        })),
    };
  }

  /**
   * A person takes over the conversation (docs/product.md#leads-and-handoff): the handoff time is
   * set if not yet (the bot stays quiet), the conversation counts as active now (retention and the inbox's
   * order), and a conversation without a visitor message yet shows the lead's message as preview.
   * True when this started the handoff (a person was not handling it yet).
   */
  async markHandoff(tx: Transaction, conversationId: number, at: Date, preview: string | null): Promise<boolean> {
    const rows: Array<{ started: boolean }> = await entityManagerOf(tx).query(
      // Read through a SELECT: TypeORM answers a bare UPDATE ... RETURNING with [rows, affected].
      `WITH before AS (SELECT handoff_at FROM conversations WHERE id = $1 FOR UPDATE),
       updated AS (
         UPDATE conversations c
            SET handoff_at = COALESCE(c.handoff_at, $2::timestamptz),
                last_message_at = GREATEST(c.last_message_at, $2::timestamptz),
                preview = COALESCE(c.preview, $3::varchar)
           FROM before
          WHERE c.id = $1
         RETURNING before.handoff_at IS NULL AS started
       )
       SELECT started FROM updated`,
      [conversationId, at, preview?.slice(0, 200) ?? null],
    );
    return rows[0]?.started === true;
  }

  /** The last `limit` messages of a conversation, oldest first (the transcript mailed with a lead). */
  async recentMessages(
    conversationId: number,
    limit: number,
  ): Promise<Array<{ role: MessageRole; content: string; createdAt: Date }>> {
    const rows: Array<{ role: MessageRole; content: string; created_at: Date }> = await this.dataSource.query(
      `SELECT role, content, created_at FROM messages WHERE conversation_id = $1 ORDER BY id DESC LIMIT $2`,
      [conversationId, limit],
    );
    return rows.reverse().map((r) => ({ role: r.role, content: r.content, createdAt: new Date(r.created_at) }));
  }

  /**
   * Deletes the visitor's conversations with the bot, with their messages and ratings (ON DELETE
   * CASCADE; the usage ledger keeps its rows, no longer pointing at them); returns how many. A
   * message being logged holds the conversation's key-share lock, so this waits for it.
   */
  async deleteVisitorConversations(botId: number, visitorId: string): Promise<number> {
    // Counted by a SELECT: TypeORM answers a bare DELETE ... RETURNING with [rows, affected].
    const [row] = await this.dataSource.query<Array<{ deleted: number }>>(
      `WITH gone AS (
         DELETE FROM conversations WHERE bot_id = $1::integer AND visitor_id = $2::varchar RETURNING id
       )
       SELECT COUNT(*)::int AS deleted FROM gone`,
      [botId, visitorId],
    );
    return Number(row?.deleted ?? 0);
  }

  /**
   * The owner's chat log, removed at account deletion inside its transaction. The usage ledger
   * (`usage_events`) is NOT touched: the period's billable usage is still billed on the 3rd (its
   * message_id becomes NULL).
   */
  async deleteAllOf(ownerId: number, tx: Transaction): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.query(`DELETE FROM conversations WHERE owner_id = $1`, [ownerId]);
    await manager.query(`DELETE FROM messages WHERE owner_id = $1`, [ownerId]);
  }
}
