/**
 * Outcomes and analytics (docs/product.md#outcomes, docs/product.md#analytics): what each
 * conversation came to, and the owner's figures over a period. Shared by the API and the dashboard.
 */

/** What a conversation came to, decided once it has been quiet for 30 minutes. */
export const CONVERSATION_OUTCOMES = ['resolved', 'handed_off', 'unanswered', 'abandoned', 'rated_down'] as const;
export type ConversationOutcome = (typeof CONVERSATION_OUTCOMES)[number];

export const ANALYTICS_GROUP_BY = ['day', 'week'] as const;
export type AnalyticsGroupBy = (typeof ANALYTICS_GROUP_BY)[number];

/** Bounds of GET /api/analytics. */
export const ANALYTICS_LIMITS = {
  /** The longest period asked at once, in days (both ends included). */
  rangeDaysMax: 366,
  /** The period when none is given: the last 30 days, today included. */
  defaultRangeDays: 30,
  /** Topics and sources are read from the period's latest conversations, at most this many. */
  topicConversationsMax: 2000,
  /** Topics listed, most asked first. */
  topicsMax: 10,
  /** Sources listed as cited, most cited first. */
  citedSourcesMax: 10,
} as const;

/** GET /api/analytics: which bot (all of the owner's when absent), which days, how the series is grouped. */
export interface AnalyticsQuery {
  botId?: string;
  /** First day, YYYY-MM-DD in the owner's time zone. */
  from?: string;
  /** Last day (included), YYYY-MM-DD in the owner's time zone. */
  to?: string;
  groupBy?: AnalyticsGroupBy;
  /** The IANA time zone days and hours are counted in; default UTC (the dashboard sends the browser's). */
  timeZone?: string;
}

/** An outcome's count, and its share of the period's decided conversations (0 to 1; 0 when none). */
export interface OutcomeFigure {
  count: number;
  rate: number;
}

export interface AnalyticsTotals {
  conversations: number;
  /** Messages of both sides (the visitor's, the bot's answers, a person's replies). */
  messages: number;
  /** Distinct visitors who started a conversation. */
  visitors: number;
  outcomes: Record<ConversationOutcome, OutcomeFigure>;
  /** Conversations not decided yet (less than 30 minutes quiet): in no outcome's rate. */
  undecided: number;
  thumbsUp: number;
  thumbsDown: number;
  leads: number;
  /** What the period's answers cost, in cents (the ledger's prices, credits included). */
  spendCents: number;
  /** Spend per conversation, and per resolved one; null when there are none to divide by. */
  costPerConversationCents: number | null;
  costPerResolvedCents: number | null;
}

/** One day or week (its first day) of the series. */
export interface AnalyticsPeriod {
  start: string;
  conversations: number;
  outcomes: Record<ConversationOutcome, number>;
  spendCents: number;
}

/** A group of similar first questions (as the unanswered-questions report groups them). */
export interface AnalyticsTopic {
  /** The wording most asked in the group. */
  text: string;
  conversations: number;
  /** Resolved among the group's decided conversations (0 to 1); null while none is decided yet. */
  resolutionRate: number | null;
}

export interface AnalyticsSource {
  sourceId: number;
  name: string;
  botId: number;
}

export interface AnalyticsResponse {
  botId: number | null;
  from: string;
  to: string;
  groupBy: AnalyticsGroupBy;
  /** The IANA time zone days and hours are counted in (the owner's setting, else UTC). */
  timeZone: string;
  totals: AnalyticsTotals;
  /** Every day or week of the period in order, empty ones included. */
  series: AnalyticsPeriod[];
  /** Conversations started per weekday (0 Monday … 6 Sunday) and hour (0–23). */
  hours: number[][];
  /**
   * What the period's latest conversations (at most ANALYTICS_LIMITS.topicConversationsMax; how
   * many in `topicConversations`) asked first, grouped, most asked first.
   */
  topics: AnalyticsTopic[];
  topicConversations: number;
  /** The knowledge sources their answers cited most (with how often), and those never cited. */
  sources: { cited: Array<AnalyticsSource & { citations: number }>; neverCited: AnalyticsSource[] };
}
