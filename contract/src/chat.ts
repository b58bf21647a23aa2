import type { ApiErrorBody } from './errors.js';

/**
 * What POST /api/chat accepts: a longer prompt or history is refused with 400. The widget sends
 * the most recent messages that fit, so a long conversation never gets stuck.
 */
export const CHAT_REQUEST_LIMITS = {
  promptMaxChars: 2000,
  historyMaxItems: 50,
  historyItemMaxChars: 4000,
  historyTotalMaxChars: 50_000,
} as const;

/**
 * POST /api/chat's optional `visitor`: who the host page says the visitor is (`Botsmith.identify`).
 * Shown in the owner's inbox only, never used to send mail: anyone on the page can set it.
 */
export interface ChatVisitor {
  name?: string;
  email?: string;
  /**
   * Verified visitors (docs/product.md#verified-visitors): a JWT (HS256) the owner's server signed
   * with the bot's identity secret, or `userId` with `userHash`, the hex HMAC-SHA256 of `userId`
   * under that secret. A proof the server refuses makes an anonymous visitor, never an error.
   */
  token?: string;
  userId?: string;
  userHash?: string;
}
/** The longest visitor name and e-mail address the server accepts (after trimming). */
export const CHAT_VISITOR_LIMITS = { nameMaxChars: 100, emailMaxChars: 254 } as const;

/**
 * Where a passage of an answer comes from, as the API returns it (the JSON answer, the stream's
 * `done` event, the inbox's transcript). A visitor's widget shows the name, the page or the address.
 */
export interface Citation {
  sourceId: number;
  /** The source's name (a file's name, a written answer's title, a page's title). */
  name: string;
  /** The PDF page the passage starts on; null for sources without pages. */
  page: number | null;
  /** A website page's address; null for files and written answers. */
  url: string | null;
}

/** A message of a conversation as POST /api/chat takes its history: the model's turns only. */
export interface ChatHistoryItem {
  role: 'user' | 'assistant';
  content: string;
}

/** POST /api/chat (docs/chat-api.md): one visitor message, with the conversation so far. */
export interface ChatRequest {
  /** The bot: a whole number, or its digits as text (the widget's data attribute). */
  botId: number | string;
  prompt: string;
  /** The most recent turns that fit CHAT_REQUEST_LIMITS, oldest first. */
  chatHistory?: ChatHistoryItem[];
  /** Accepted for the widget's sake and never used: the bot's own model answers. */
  model?: string;
  /** Absent or `{}`: nothing is stored or changed. */
  visitor?: ChatVisitor;
}

/** What POST /api/chat answers as JSON (the SSE final event carries the same messageId). */
export interface ChatAnswerResponse {
  /** The answer ('' during a handoff). */
  message: string;
  /** The answer's id, for POST /api/chat/feedback; null when a person handles the conversation (handoff). */
  messageId: number | null;
  citations: Citation[];
  /**
   * true when a person handles the conversation: the visitor's message was logged for them, the
   * bot stayed quiet (`message` is '', nothing charged). Absent otherwise.
   */
  handoff?: true;
  /**
   * true when the answer is flagged unanswered (the bot said it cannot answer, or nothing it knows
   * was relevant): a widget whose bot offers its lead form then may offer it. Absent otherwise.
   */
  unanswered?: true;
}

/** The stream's last event when the answer is complete: the JSON answer and what it cost. */
export interface ChatDoneEvent extends ChatAnswerResponse {
  /** What the answer cost the owner, in cents (0 during a handoff). */
  costCents: number;
}

/**
 * The server-sent events of POST /api/chat with `Accept: text/event-stream`, by event name: any
 * number of `token` (and `action` when the bot calls one of its actions), then one `done`, or one
 * `error` when the answer fails after the stream began (a refusal before it starts is an ordinary
 * HTTP error).
 */
export interface ChatStreamEvents {
  token: { text: string };
  /**
   * One of the bot's actions started (docs/product.md#actions): `subject` is what it checks, its
   * name made readable ("order" for order_status), for a line like "Checking your order…".
   */
  action: { subject: string };
  done: ChatDoneEvent;
  error: ApiErrorBody;
}
export type ChatStreamEventName = keyof ChatStreamEvents;

/** DELETE /api/chat/conversations/current: which bot the visitor's conversation is with. */
export interface DeleteConversationRequest {
  botId: number | string;
}

/**
 * GET /api/chat/conversations/current/events and …/messages (query): the bot, and the last
 * agent message the widget has (a message id; 0 or absent: none).
 */
export interface AgentMessagesQuery {
  botId: number | string;
  after?: number | string;
}
