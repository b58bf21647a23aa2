/**
 * The conversations inbox, visitor feedback, the unanswered-questions report and corrections
 * (docs/product.md#conversations): what the API answers and accepts, shared by the dashboard.
 */
import type { Citation } from './chat.js';

export const MESSAGE_RATINGS = ['up', 'down'] as const;
export type MessageRating = (typeof MESSAGE_RATINGS)[number];

/** POST /api/chat/feedback: the visitor rates one answer of their own conversation; last one wins. */
export interface FeedbackRequest {
  botId: number;
  messageId: number;
  rating: MessageRating;
  comment?: string;
}
export const FEEDBACK_COMMENT_MAX_CHARS = 1000;

/**
 * `waiting`: handed off to a person, and the visitor wrote last (docs/product.md#conversations);
 * `action`: an answer called one of the bot's actions; `action_failed`: one of those calls failed
 * (docs/product.md#actions).
 */
export const CONVERSATION_FILTERS = ['all', 'unanswered', 'negative', 'waiting', 'action', 'action_failed'] as const;
export type ConversationFilter = (typeof CONVERSATION_FILTERS)[number];

/** GET /api/conversations: page sizes and the longest search the server accepts. */
export const CONVERSATIONS_PAGE = { defaultLimit: 25, maxLimit: 100, queryMaxChars: 200 } as const;

/** One row of the inbox list. */
export interface ConversationSummary {
  id: number;
  /** null once the bot is deleted (its conversations stay until deleted themselves). */
  botId: number | null;
  botName: string;
  startedAt: string;
  lastMessageAt: string;
  messageCount: number;
  /** The visitor's first message, cut to 200 characters. */
  preview: string;
  pageUrl: string | null;
  /** Any answer in it the bot could not give. */
  unanswered: boolean;
  /** 'down' if any answer was rated down, else 'up' if any was rated up, else null. */
  rating: MessageRating | null;
  /** A person handles it (a lead was left or the owner replied): the bot stays quiet until handed back. */
  handoff: boolean;
  /**
   * Who the visitor is (the latest given), else null: display only and unverified unless
   * `visitorVerified` (docs/product.md#verified-visitors).
   */
  visitorName: string | null;
  visitorEmail: string | null;
  /** The owner's server signed this visitor in (an identity token or userHash checked with the bot's secret). */
  visitorVerified: boolean;
  /** What the visitor typed in the conversation's newest lead (their own words, not the host page's), else null. */
  leadName: string | null;
  leadEmail: string | null;
  /** Handed off to a person and the visitor's message is the last: waiting for the owner's reply. */
  waiting: boolean;
}

/** GET /api/onboarding: the dashboard's "Next steps" for a new account, each from real state. */
export interface OnboardingState {
  /** One of the owner's bots has a knowledge source (not a failed one, not a correction). */
  hasKnowledge: boolean;
  /** A conversation exists with one of the owner's bots (the preview counts). */
  hasConversation: boolean;
  /** A conversation came from a page outside Botsmith's own origin: the widget is on a site. */
  onSite: boolean;
}

/** GET /api/conversations/waiting-count: how many conversations wait for the owner (the sidebar's count). */
export interface WaitingCountResponse {
  count: number;
}

/** GET /api/conversations: newest first; pass nextCursor back as `cursor` for the next page. */
export interface ConversationsPage {
  conversations: ConversationSummary[];
  nextCursor: string | null;
}

export interface TranscriptMessage {
  id: number;
  role: 'user' | 'assistant' | 'error' | 'agent';
  content: string;
  createdAt: string;
  citations: Citation[];
  rating: MessageRating | null;
  unanswered: boolean;
  /** Agent messages only: the display name the visitor was shown (the owner's `agentName` at the time). */
  name?: string;
}

/**
 * A call an answer made to one of the bot's actions (docs/product.md#actions), as the owner sees
 * it in the transcript: shown just before the answer it served (`messageId`).
 */
export interface TranscriptActionCall {
  id: number;
  /** The answer (an assistant or error message) the call served. */
  messageId: number;
  /** The action's name when it was called (kept after the action is deleted). */
  actionName: string;
  /** null once the action is deleted. */
  actionId: number | null;
  /** The parameters the model gave (scalars; refused ones as their raw text under `raw`). */
  parameters: Record<string, string | number | boolean | null>;
  /** The API's HTTP status; null when no request was made or no answer came. */
  status: number | null;
  durationMs: number;
  /** The filtered answer as JSON text (what the model read), else null. */
  answer: string | null;
  /** Why the call failed, else null. */
  error: string | null;
  failed: boolean;
  createdAt: string;
}

/** GET /api/conversations/{id}. */
export interface ConversationTranscript {
  conversation: ConversationSummary;
  messages: TranscriptMessage[];
  /** The action calls, in the order made; each belongs before the message `messageId`. */
  actionCalls: TranscriptActionCall[];
}

/** POST /api/conversations/{id}/reply: the owner answers the visitor in person. */
export interface OwnerReplyRequest {
  content: string;
}
/** 201 of POST /api/conversations/{id}/reply: the stored agent message, as the transcript shows it. */
export interface OwnerReplyResponse {
  message: TranscriptMessage & { role: 'agent'; name: string };
}

/**
 * Owner replies and handoff (docs/product.md#owner-replies): the reply's length, the display
 * name's length and default, and how many replies an owner may send a minute.
 */
export const OWNER_REPLY_LIMITS = { contentMaxChars: 4000, agentNameMaxChars: 60, perMinute: 30 } as const;
/** The name agent messages carry when the owner never chose one. */
export const DEFAULT_AGENT_NAME = 'Support';

/**
 * A person's reply as the visitor's widget receives it: each `event: message` of
 * GET /api/chat/conversations/current/events, and each item of the poll route.
 */
export interface AgentMessage {
  id: number;
  role: 'agent';
  content: string;
  /** The display name chosen by the owner (Settings). */
  name: string;
  createdAt: string;
}

/** GET /api/chat/conversations/current/messages?botId=&after=: the widget's poll where SSE is blocked. */
export interface AgentMessagesResponse {
  messages: AgentMessage[];
  /** A person handles the visitor's conversation (false when there is no conversation yet). */
  handoff: boolean;
}

/** GET /api/bots/{id}/questions: similar visitor questions grouped, most asked first. */
export interface UnansweredQuestion {
  text: string;
  count: number;
  lastAskedAt: string;
  conversationIds: number[];
  /** A correction answers it now (it was asked before the correction was written): listed after the open ones. */
  fixed: boolean;
}
export interface QuestionsReport {
  questions: UnansweredQuestion[];
}
export const QUESTION_PERIODS = ['7d', '30d', '90d'] as const;
export type QuestionPeriod = (typeof QUESTION_PERIODS)[number];

/** POST /api/bots/{id}/corrections: the owner's answer to a question, used first from then on. */
export interface CorrectionRequest {
  question: string;
  answer: string;
}
export const CORRECTION_LIMITS = { questionMaxChars: 1000, answerMaxChars: 4000 } as const;

/**
 * The sentence the model is told to answer with when the bot's knowledge does not hold the
 * answer; an answer starting with it is flagged unanswered.
 */
export const CANNOT_ANSWER_SENTENCE = "I'm sorry, I couldn't find that in what I know.";

/**
 * The inbox's filters as query parameters (GET /api/conversations and its export): a bot's id as
 * digits, a search, ISO dates (`2026-11-25` or with a time) and a filter. Empty means absent.
 */
export interface ConversationFiltersQuery {
  botId?: string;
  q?: string;
  from?: string;
  to?: string;
  filter?: ConversationFilter;
}
/** GET /api/conversations: the filters, where the previous page ended and how many (as digits). */
export interface ConversationsPageQuery extends ConversationFiltersQuery {
  cursor?: string;
  limit?: string;
}

/** Which visitor questions the report lists: those the bot could not answer (default), or all. */
export const QUESTION_FILTERS = ['unanswered', 'all'] as const;
export type QuestionFilter = (typeof QUESTION_FILTERS)[number];
/** GET /api/bots/{id}/questions?filter=&period= */
export interface QuestionsQuery {
  filter?: QuestionFilter;
  period?: QuestionPeriod;
}
