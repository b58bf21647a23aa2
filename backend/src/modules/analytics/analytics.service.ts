import { Injectable } from '@nestjs/common';
import {
  ANALYTICS_LIMITS,
  CONVERSATION_OUTCOMES,
  type AnalyticsQuery,
  type AnalyticsResponse,
  type AnalyticsTopic,
  type ConversationOutcome,
  type OutcomeFigure,
} from '@botsmith/contract';
import { AppError } from '../../common/app-error.js';
import { isUnknownTimeZone } from '../../common/postgres-errors.js';
import { BotsService } from '../bots/bots.service.js';
import { questionTopics } from '../corrections/question-groups.js';
import { inQuarterHours, periodStarts, resolvePeriod, TIME_ZONE_REFUSED } from './analytics-period.js';
import { AnalyticsRepository, type AnalyticsScope, type FirstQuestion } from './analytics.repository.js';

const noOutcomes = (): Record<ConversationOutcome, number> =>
  Object.fromEntries(CONVERSATION_OUTCOMES.map((o) => [o, 0])) as Record<ConversationOutcome, number>;

/** A share rounded to 4 decimals (0 when there is nothing to share). */
const rate = (count: number, of: number) => (of === 0 ? 0 : Math.round((count / of) * 10_000) / 10_000);
/** Cents per item, to the hundredth of a cent; null when there is nothing to divide by. */
const per = (cents: number, items: number) => (items === 0 ? null : Math.round((cents / items) * 100) / 100);

/**
 * What the owner's money bought over a period (docs/product.md#analytics): conversations and
 * their outcomes, spend and what it cost per conversation and per resolved one, the series by
 * day or week and the busiest hours. Only the owner's bots: another's is 404, like a missing one.
 */
@Injectable()
export class AnalyticsService {
  constructor(
    private readonly repository: AnalyticsRepository,
    private readonly bots: BotsService,
  ) {}

  async analytics(ownerId: number, ask: AnalyticsQuery, now = new Date()): Promise<AnalyticsResponse> {
    try {
      return await this.figures(ownerId, ask, now);
    } catch (error) {
      // Intl knew the name (resolvePeriod checked it), the database's zone list does not.
      if (isUnknownTimeZone(error)) throw AppError.badRequest(TIME_ZONE_REFUSED, 'INVALID_RANGE');
      throw error;
    }
  }

  private async figures(ownerId: number, ask: AnalyticsQuery, now: Date): Promise<AnalyticsResponse> {
    const period = resolvePeriod(ask, now);
    const botId = ask.botId === undefined ? null : Number(ask.botId);
    if (botId !== null) {
      // Past the largest id no bot exists (and PostgreSQL would refuse the number): the same 404.
      if (botId > 2_147_483_647) throw AppError.notFound('Bot not found.', 'BOT_NOT_FOUND');
      await this.bots.assertOwned(ownerId, botId);
    }
    const scope: AnalyticsScope = { ownerId, botId };
    // The queries do not depend on each other: they run at once, each on its own pooled
    // connection (docs/decisions/0019-analytics-at-a-million-messages.md); one connection (PGlite)
    // runs them in turn. Only the sources wait for the conversations whose citations they count.
    // Counts and spend come from the rollup when the zone's days are whole UTC quarter hours
    // (every zone's today); the rows are counted only for a period where it was not.
    const [{ cells, spendCells, hourCells }, visitors, leads, [firstQuestions, sources]] = await Promise.all([
      inQuarterHours(period)
        ? this.repository
            .fromQuarters(scope, period)
            .then(({ cells, spend, hours }) => ({ cells, spendCells: spend, hourCells: hours }))
        : Promise.all([
            this.repository.conversationCells(scope, period),
            this.repository.spendCells(scope, period),
            this.repository.hours(scope, period),
          ]).then(([cells, spendCells, hourCells]) => ({ cells, spendCells, hourCells })),
      this.repository.visitors(scope, period),
      this.repository.leads(scope, period),
      this.repository
        .firstQuestions(scope, period, ANALYTICS_LIMITS.topicConversationsMax)
        .then(async (questions) => [questions, await this.sourcesCited(scope, questions)] as const),
    ]);

    const series = new Map(
      periodStarts(period).map((start) => [start, { start, conversations: 0, outcomes: noOutcomes(), spendCents: 0 }]),
    );
    const outcomes = noOutcomes();
    let conversations = 0;
    let messages = 0;
    let undecided = 0;
    let thumbsUp = 0;
    let thumbsDown = 0;
    for (const cell of cells) {
      const slot = series.get(cell.start);
      conversations += cell.conversations;
      messages += cell.messages;
      thumbsUp += cell.up;
      thumbsDown += cell.down;
      if (slot) slot.conversations += cell.conversations;
      if (cell.outcome === null) {
        undecided += cell.conversations;
      } else {
        outcomes[cell.outcome] += cell.conversations;
        if (slot) slot.outcomes[cell.outcome] += cell.conversations;
      }
    }
    let spendCents = 0;
    for (const cell of spendCells) {
      spendCents += cell.spendCents;
      const slot = series.get(cell.start);
      if (slot) slot.spendCents += cell.spendCents;
    }
    const decided = conversations - undecided;
    const hours = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
    for (const cell of hourCells) hours[cell.weekday - 1][cell.hour] = cell.n;

    return {
      botId,
      from: period.from,
      to: period.to,
      groupBy: period.groupBy,
      timeZone: period.timeZone,
      totals: {
        conversations,
        messages,
        visitors,
        outcomes: Object.fromEntries(
          CONVERSATION_OUTCOMES.map((o) => [o, { count: outcomes[o], rate: rate(outcomes[o], decided) }]),
        ) as Record<ConversationOutcome, OutcomeFigure>,
        undecided,
        thumbsUp,
        thumbsDown,
        leads,
        spendCents,
        costPerConversationCents: per(spendCents, conversations),
        costPerResolvedCents: per(spendCents, outcomes.resolved),
      },
      series: [...series.values()],
      hours,
      topics: topicsOf(firstQuestions),
      topicConversations: firstQuestions.length,
      sources,
    };
  }

  /** The sources the answers of these conversations cited most, and the owner's sources never cited. */
  private async sourcesCited(scope: AnalyticsScope, conversations: readonly FirstQuestion[]) {
    const counts = await this.repository.citationCounts(conversations.map((c) => c.conversationId));
    const all = await this.repository.sources(scope);
    return {
      cited: all
        .filter((source) => counts.has(source.sourceId))
        .map((source) => ({ ...source, citations: counts.get(source.sourceId)! }))
        .sort((a, b) => b.citations - a.citations || a.sourceId - b.sourceId)
        .slice(0, ANALYTICS_LIMITS.citedSourcesMax),
      neverCited: all.filter((source) => !counts.has(source.sourceId)),
    };
  }
}

/** The first questions grouped as the unanswered-questions report groups them, with each group's resolution rate. */
function topicsOf(questions: readonly FirstQuestion[]): AnalyticsTopic[] {
  const outcomeOf = new Map(questions.map((q) => [q.conversationId, q.outcome]));
  return questionTopics(questions)
    .slice(0, ANALYTICS_LIMITS.topicsMax)
    .map((topic) => {
      const decided = topic.rows.map((row) => outcomeOf.get(row.conversationId)).filter((o) => o != null);
      const resolved = decided.filter((o) => o === 'resolved').length;
      return {
        text: topic.text,
        conversations: topic.rows.length,
        // Not 0 % while every conversation of it is still under way: nothing is known yet.
        resolutionRate: decided.length === 0 ? null : rate(resolved, decided.length),
      };
    });
}
