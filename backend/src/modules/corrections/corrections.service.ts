import type { QuestionPeriod, QuestionsReport } from '@botsmith/contract';
import { Injectable } from '@nestjs/common';
import { BotsService } from '../bots/bots.service.js';
import type { SourceResponse } from '../knowledge/knowledge.dto.js';
import { KnowledgeService } from '../knowledge/knowledge.service.js';
import { SourcesRepository } from '../knowledge/sources.repository.js';
import type { QuestionFilter } from './corrections.dto.js';
import { groupQuestions, withoutCorrected, type QuestionRow } from './question-groups.js';
import { QuestionsRepository } from './questions.repository.js';

/**
 * The report reads at most this many questions (the latest), so one request stays bounded
 * however busy the bot; the corrections it checks them against are the bot's latest.
 */
export const QUESTIONS_REPORT_LIMITS = { questionsRead: 5000, correctionsRead: 1000 } as const;

const PERIOD_DAYS: Record<QuestionPeriod, number> = { '7d': 7, '30d': 30, '90d': 90 };

/**
 * Closing the loop from "the bot missed this" to "now it knows": what visitors asked that the
 * bot could not answer, grouped (docs/product.md#unanswered-questions), and the owner's
 * corrections (docs/product.md#corrections). Only the bot's owner sees or changes either (404
 * BOT_NOT_FOUND for anyone else).
 */
@Injectable()
export class CorrectionsService {
  constructor(
    private readonly bots: BotsService,
    private readonly knowledge: KnowledgeService,
    private readonly sources: SourcesRepository,
    private readonly questions: QuestionsRepository,
  ) {}

  /** A correction is a written answer marked as one: ready at once, counted in the quota. */
  create(ownerId: number, botId: number, question: string, answer: string): Promise<SourceResponse> {
    return this.knowledge.addCorrection(ownerId, botId, question, answer);
  }

  /** A correction edited: its passages are replaced at once (404 for a source that is not one). */
  update(ownerId: number, botId: number, sourceId: number, question: string, answer: string): Promise<SourceResponse> {
    return this.knowledge.updateCorrection(ownerId, botId, sourceId, question, answer);
  }

  /**
   * The visitor questions of the period (the question before each answer flagged unanswered, or
   * before every answer for 'all'), grouped, most asked first. An unanswered question a correction
   * written after it now answers is left out: it is fixed.
   */
  async report(
    ownerId: number,
    botId: number,
    filter: QuestionFilter = 'unanswered',
    period: QuestionPeriod = '30d',
    now = new Date(),
  ): Promise<QuestionsReport> {
    await this.bots.assertOwned(ownerId, botId);
    const since = new Date(now.getTime() - PERIOD_DAYS[period] * 24 * 60 * 60 * 1000);
    const unansweredOnly = filter === 'unanswered';
    let rows: QuestionRow[] = await this.questions.questionsBefore(
      botId,
      since,
      unansweredOnly,
      QUESTIONS_REPORT_LIMITS.questionsRead,
    );
    let fixed: QuestionRow[] = [];
    if (unansweredOnly && rows.length > 0) {
      const open = withoutCorrected(
        rows,
        await this.sources.correctionsOfBot(botId, QUESTIONS_REPORT_LIMITS.correctionsRead),
      );
      const stillOpen = new Set(open);
      // What a correction answers stays listed, marked fixed, after what is still open.
      fixed = rows.filter((row) => !stillOpen.has(row));
      rows = open;
    }
    return {
      questions: [
        ...groupQuestions(rows).map((question) => ({ ...question, fixed: false })),
        ...groupQuestions(fixed).map((question) => ({ ...question, fixed: true })),
      ],
    };
  }

  /**
   * The `count` questions the owner's bots could not answer most often in [since, until), over all
   * bots, grouped like the report (a question a correction now answers is left out): for the
   * monthly report (docs/product.md#monthly-report).
   */
  async mostAskedUnanswered(
    ownerId: number,
    since: Date,
    until: Date,
    count: number,
  ): Promise<Array<{ botId: number; botName: string; text: string; count: number }>> {
    const found: Array<{ botId: number; botName: string; text: string; count: number; lastAskedAt: string }> = [];
    for (const bot of await this.questions.botsWithUnanswered(ownerId, since, until)) {
      const rows = await this.questions.questionsBefore(
        bot.botId,
        since,
        true,
        QUESTIONS_REPORT_LIMITS.questionsRead,
        until,
      );
      const open = withoutCorrected(
        rows,
        await this.sources.correctionsOfBot(bot.botId, QUESTIONS_REPORT_LIMITS.correctionsRead),
      );
      for (const group of groupQuestions(open).slice(0, count)) {
        found.push({
          botId: bot.botId,
          botName: bot.name,
          text: group.text,
          count: group.count,
          lastAskedAt: group.lastAskedAt,
        });
      }
    }
    return found
      .sort((a, b) => b.count - a.count || Date.parse(b.lastAskedAt) - Date.parse(a.lastAskedAt))
      .slice(0, count)
      .map(({ botId, botName, text, count: asked }) => ({ botId, botName, text, count: asked }));
  }
}
