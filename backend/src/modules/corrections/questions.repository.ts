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
   * flagged unanswered when `unansweredOnly`), newest answer first, at most `limit`. The bot's
   * conversations are found by their (bot_id, last_message_at) index, their answers by
   * (conversation_id, id).
   */
  async questionsBefore(botId: number, since: Date, unansweredOnly: boolean, limit: number): Promise<AskedQuestion[]> {
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
          ORDER BY a.id DESC
          LIMIT $4`,
        [botId, since, unansweredOnly, limit],
      );
    return rows.map((row) => ({
      text: row.content,
      lexemes: row.lexemes,
      askedAt: new Date(row.created_at),
      conversationId: Number(row.conversation_id),
    }));
  }
}
