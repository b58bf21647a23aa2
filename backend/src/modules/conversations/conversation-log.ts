import { Injectable } from '@nestjs/common';
import {
  partsOf,
  StatementRunner,
  type SqlValue,
  type Statement,
  type StatementRow,
} from '../../database/statement.js';
import type { Transaction } from '../../database/transaction.js';
import {
  ConversationLogRepository,
  type AgentMessageRow,
  type ConversationKey,
  type LoggedActionCall,
  type LoggedMessage,
} from './conversation-log.repository.js';
import { FeedbackRepository, type AnswerRating, type RatedAnswer } from './feedback.repository.js';
import type { MessageRole } from './message.entity.js';

export type { AgentMessageRow, AnswerRating, ConversationKey, LoggedActionCall, LoggedMessage, RatedAnswer };

/** One turn of a conversation as it is logged: the visitor's message, and what they were told. */
export interface TurnRecord {
  conversation: ConversationKey;
  messages: LoggedMessage[];
  /**
   * Who the visitor is, stored with an accepted message, never a refusal: display only, unless
   * `verified` (the owner's server vouched for them, docs/product.md#verified-visitors).
   */
  visitor?: { name?: string; email?: string; verified?: boolean } | null;
  /** The calls the answer (the turn's last message) made to the bot's actions. */
  actionCalls?: readonly LoggedActionCall[];
}

/** A turn recorded as part of a statement (ConversationLog.recordIn). */
export interface LoggedTurn {
  /** The turn's last message (the answer), for the statement's other parts. */
  answerId: SqlValue;
  read(row: StatementRow): { conversationId: number; messageIds: number[] };
}

/**
 * What the chat engine (chat/) may do with the conversation log, which conversations/ owns: record
 * a turn, read a visitor's conversation (handoff, agent messages, the transcript), a visitor's
 * rating and deletion. The chat engine imports this and the log's types only (the dependency rule
 * `chat-uses-conversation-log`); the inbox and the owner's replies use the repositories directly.
 */
@Injectable()
export class ConversationLog {
  constructor(
    private readonly log: ConversationLogRepository,
    private readonly feedback: FeedbackRepository,
    private readonly statements: StatementRunner,
  ) {}

  /**
   * Appends a turn to the visitor's conversation with the bot (created on first use), in the
   * caller's transaction; the messages' ids in order. Called under the visitor's in-flight lock.
   */
  async record(tx: Transaction, turn: TurnRecord): Promise<{ conversationId: number; messageIds: number[] }> {
    const statement = this.statements.begin();
    const logged = this.recordIn(statement, turn);
    return logged.read(await this.statements.run(statement, tx));
  }

  /**
   * As `record`, as parts of a statement that may also charge the answer
   * (docs/decisions/0016-chat-path-cost.md): offers the answer's id (the turn's last message) to
   * the statement's other parts; `read` gives what `record` returns, from the statement's row.
   * `after`: a part's value the turn waits for (the owner's lock of the answer's charge, which must
   * come before these inserts share-lock the owner's row); when it is false, nothing is logged.
   */
  recordIn(statement: Statement, turn: TurnRecord, after?: SqlValue): LoggedTurn {
    const parts = partsOf(statement);
    const logged = this.log.addTurn(parts, turn.conversation, turn.messages, turn.visitor, after);
    if (turn.actionCalls?.length) {
      this.log.addActionCalls(parts, turn.conversation, logged.conversationId, logged.answerId, turn.actionCalls);
    }
    return { answerId: logged.answerId, read: (row) => logged.read(row) };
  }

  /**
   * A lead hands the visitor's conversation (created on first use) to a person, in the caller's
   * transaction; `startedHandoff`: a person was not handling it yet.
   */
  async handOffForLead(
    tx: Transaction,
    conversation: ConversationKey,
    at: Date,
    preview: string | null,
  ): Promise<{ conversationId: number; startedHandoff: boolean }> {
    const conversationId = await this.log.conversationFor(tx, conversation);
    const startedHandoff = await this.log.markHandoff(tx, conversationId, at, preview);
    return { conversationId, startedHandoff };
  }

  /** Whether a person handles the visitor's conversation with the bot (the bot stays quiet), as a part of a statement. */
  isHandedOffIn(statement: Statement, botId: number, visitorId: string): { read(row: StatementRow): boolean } {
    return this.log.addHandoffRead(partsOf(statement), botId, visitorId);
  }

  /** The visitor's messages in their handed-off conversation since `since`, counted up to `cap`. */
  handoffMessagesSince(botId: number, visitorId: string, since: Date, cap: number): Promise<number> {
    return this.log.handoffMessagesSince(botId, visitorId, since, cap);
  }

  /** The agent messages of the visitor's current conversation after `afterId` (see the repository). */
  agentMessagesOf(
    botId: number,
    visitorId: string,
    afterId: number,
    limit: number,
  ): Promise<{ exists: boolean; handoff: boolean; latestId: number; messages: AgentMessageRow[] }> {
    return this.log.agentMessagesOf(botId, visitorId, afterId, limit);
  }

  /** The last `limit` messages of a conversation, oldest first (the transcript mailed with a lead). */
  history(
    conversationId: number,
    limit: number,
  ): Promise<Array<{ role: MessageRole; content: string; createdAt: Date }>> {
    return this.log.recentMessages(conversationId, limit);
  }

  /** A visitor rates an answer of their own conversation; null when there is no such answer. */
  rate(rating: AnswerRating): Promise<RatedAnswer | null> {
    return this.feedback.rate(rating);
  }

  /** Deletes the visitor's conversations with the bot (with messages and ratings); how many. */
  deleteVisitorConversations(botId: number, visitorId: string): Promise<number> {
    return this.log.deleteVisitorConversations(botId, visitorId);
  }
}
