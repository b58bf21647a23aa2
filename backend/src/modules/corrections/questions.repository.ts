import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** One visitor question, as the unanswered-questions report reads it. */
export interface AskedQuestion {
  text: string;
  /** Its full-text lexemes (`to_tsvector('english', ...)`, as stored in `messages.search_vector`). */
  lexemes: string[];
  askedAt: Date;
  conversationId: number;
}

/**
 * Reads the chat log (written only by the conversations module) for the report: the
 * visitor's question before each answer of one bot.
 */
@Injectable()
export class QuestionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The visitor message before each of the bot's answers given since `since` (only the answers
   * flagged unanswered when `unansweredOnly`) and before `until` when given, newest answer first, at most `limit`. The bot's
   * conversations are found by their (bot_id, last_message_at) index, their answers by
   * (conversation_id, id).
   */
  async questionsBefore(
    botId: number,
    since: Date,
    unansweredOnly: boolean,
    limit: number,
    until: Date | null = null,
  ): Promise<AskedQuestion[]> {
    const rows: { content: string; lexemes: string[]; created_at: Date; conversation_id: number }[] =
      await this.dataSource.query(
        `SELECT q.content, tsvector_to_array(q.search_vector) AS lexemes, q.created_at, a.conversation_id
           FROM conversations c
           JOIN messages a ON a.conversation_id = c.id
           CROSS JOIN LATERAL (
             SELECT u.content, u.search_vector, u.created_at FROM messages u
              WHERE u.conversation_id = a.conversation_id AND u.id < a.id AND u.role = 'user'
              ORDER BY u.id DESC
              LIMIT 1
           ) q
          WHERE c.bot_id = $1 AND c.last_message_at >= $2
            AND a.role = 'assistant' AND a.created_at >= $2 AND (a.unanswered OR NOT $3)
            AND ($5::timestamptz IS NULL OR a.created_at < $5)
          ORDER BY a.id DESC
          LIMIT $4`,
        [botId, since, unansweredOnly, limit, until],
      );
    return rows.map((row) => ({
      text: row.content,
      lexemes: row.lexemes,
      askedAt: new Date(row.created_at),
      conversationId: Number(row.conversation_id),
    }));
  }

  /** The owner's bots that gave an answer flagged unanswered in [since, until), by id. */
  async botsWithUnanswered(ownerId: number, since: Date, until: Date): Promise<Array<{ botId: number; name: string }>> {
    const rows: Array<{ id: number; name: string }> = await this.dataSource.query(
      `SELECT b.id, b.name FROM bots b
        WHERE b.owner_id = $1
          AND EXISTS (
            SELECT 1 FROM conversations c JOIN messages a ON a.conversation_id = c.id
             WHERE c.bot_id = b.id AND c.last_message_at >= $2
               AND a.role = 'assistant' AND a.unanswered AND a.created_at >= $2 AND a.created_at < $3)
        ORDER BY b.id`,
      [ownerId, since, until],
    );
    return rows.map((r) => ({ botId: Number(r.id), name: r.name }));
  }
}
