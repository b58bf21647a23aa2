import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageRating } from '@botsmith/contract';
import type { DataSource } from 'typeorm';

/** One visitor's rating of one answer. */
export interface AnswerRating {
  botId: number;
  visitorId: string;
  messageId: number;
  rating: MessageRating;
  comment: string | null;
  at: Date;
}

/** A rated answer; `flagged`: this rating flagged it unanswered (what the owner's webhook hears). */
export interface RatedAnswer {
  flagged: boolean;
  ownerId: number;
  botName: string;
  conversationId: number;
  question: string | null;
  answer: string;
}

/**
 * Visitors' ratings of answers (messages.rating, rating_comment, rated_at) and the conversation
 * totals they move (up_count, down_count, unanswered_count), kept together in one transaction.
 */
@Injectable()
export class FeedbackRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Rates an answer of the visitor's own conversation with the bot; null when there is no such
   * answer (another visitor's, another bot's, a visitor's own message, an unknown id). The last
   * rating wins: the conversation's counts move from the previous rating to the new one. A
   * rating down flags the answer unanswered (once: a later rating up leaves the flag).
   */
  async rate(rating: AnswerRating): Promise<RatedAnswer | null> {
    return this.dataSource.transaction(async (manager) => {
      // The row lock makes two ratings of one answer take turns, so each sees the other's result.
      const found: Array<{
        conversation_id: number;
        rating: MessageRating | null;
        unanswered: boolean;
        content: string;
        owner_id: number;
        bot_name: string;
        question: string | null;
      }> = await manager.query(
        `SELECT m.conversation_id, m.rating, m.unanswered, m.content, c.owner_id, c.bot_name,
                (SELECT q.content FROM messages q
                  WHERE q.conversation_id = m.conversation_id AND q.role = 'user' AND q.id < m.id
                  ORDER BY q.id DESC LIMIT 1) AS question
           FROM messages m JOIN conversations c ON c.id = m.conversation_id
            WHERE m.id = $1 AND m.role = 'assistant' AND c.bot_id = $2 AND c.visitor_id = $3
            FOR UPDATE OF m`,
        [rating.messageId, rating.botId, rating.visitorId],
      );
      const previous = found[0];
      if (!previous) return null;
      const flagged = rating.rating === 'down' && !previous.unanswered;
      await manager.query(
        `UPDATE messages SET rating = $2, rating_comment = $3, rated_at = $4, unanswered = unanswered OR $5
          WHERE id = $1`,
        [rating.messageId, rating.rating, rating.comment, rating.at, flagged],
      );
      const up = (rating.rating === 'up' ? 1 : 0) - (previous.rating === 'up' ? 1 : 0);
      const down = (rating.rating === 'down' ? 1 : 0) - (previous.rating === 'down' ? 1 : 0);
      if (up !== 0 || down !== 0 || flagged) {
        await manager.query(
          `UPDATE conversations
              SET up_count = up_count + $2::integer, down_count = down_count + $3::integer,
                  unanswered_count = unanswered_count + $4::integer
            WHERE id = $1`,
          [previous.conversation_id, up, down, flagged ? 1 : 0],
        );
      }
      return {
        flagged,
        ownerId: previous.owner_id,
        botName: previous.bot_name,
        conversationId: previous.conversation_id,
        question: previous.question,
        answer: previous.content,
      };
    });
  }
}
