import { Injectable } from '@nestjs/common';
import {
  CONVERSATIONS_PAGE,
  DEFAULT_AGENT_NAME,
  type Citation,
  type ConversationSummary,
  type ConversationsPage,
  type ConversationTranscript,
  type TranscriptActionCall,
  type TranscriptMessage,
  type WaitingCountResponse,
} from '@botsmith/contract';
import { AppError } from '../../common/app-error.js';
import { boundedWebSearch } from '../../common/web-search.js';
import { decodeCursor, encodeCursor } from './conversation-cursor.js';
import type { ConversationFiltersDto, ConversationsPageQueryDto } from './conversations.dto.js';
import {
  ConversationsRepository,
  type ActionCallRow,
  type ConversationCursor,
  type ConversationRow,
  type ConversationSelection,
  type MessageRow,
} from './conversations.repository.js';

const NOT_FOUND = 'This conversation does not exist.';
const DAY_MS = 24 * 60 * 60 * 1000;

/** A date-only `YYYY-MM-DD` (whole UTC day) or a date-time; null when it names no real instant. */
function parseInstant(text: string): { at: Date; dateOnly: boolean } | null {
  const dateOnly = text.length === 10;
  const at = new Date(dateOnly ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(at.getTime())) return null;
  // Date rolls 2026-02-30 over to March 2: the calendar date must read back unchanged.
  if (dateOnly && at.toISOString().slice(0, 10) !== text) return null;
  return { at, dateOnly };
}

export function toSummary(row: ConversationRow): ConversationSummary {
  return {
    id: row.id,
    botId: row.botId,
    botName: row.botName,
    startedAt: row.startedAt.toISOString(),
    lastMessageAt: row.lastMessageAt.toISOString(),
    messageCount: row.messageCount,
    preview: row.preview,
    pageUrl: row.pageUrl,
    unanswered: row.unansweredCount > 0,
    rating: row.downCount > 0 ? 'down' : row.upCount > 0 ? 'up' : null,
    handoff: row.handoff,
    visitorName: row.visitorName,
    visitorEmail: row.visitorEmail,
    visitorVerified: row.visitorVerified,
    leadName: row.leadName,
    leadEmail: row.leadEmail,
    waiting: row.waiting,
  };
}

function toTranscriptMessage(row: MessageRow): TranscriptMessage {
  const citations: Citation[] = (row.citations ?? []).map((c) => ({
    sourceId: c.sourceId,
    name: c.name,
    page: c.page ?? null,
    url: c.url ?? null,
  }));
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    createdAt: row.createdAt.toISOString(),
    citations,
    rating: row.rating,
    unanswered: row.unanswered,
    ...(row.role === 'agent' ? { name: row.agentName ?? DEFAULT_AGENT_NAME } : {}),
  };
}

function toTranscriptActionCall(row: ActionCallRow): TranscriptActionCall {
  return {
    id: row.id,
    messageId: row.messageId,
    actionName: row.actionName,
    actionId: row.actionId,
    parameters: row.parameters,
    status: row.status,
    durationMs: row.durationMs,
    answer: row.answer,
    error: row.error,
    failed: row.failed,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The owner's conversations inbox (docs/product.md#conversations): filters checked and turned
 * into a selection, keyset pages with an opaque cursor, transcripts and deletion. Another
 * owner's conversation is 404 CONVERSATION_NOT_FOUND, another owner's bot 404 BOT_NOT_FOUND:
 * nothing tells whether it exists.
 */
@Injectable()
export class ConversationsService {
  constructor(private readonly conversations: ConversationsRepository) {}

  /** The filters as a selection of the owner's conversations; 400/404 for values that cannot be. */
  async select(ownerId: number, query: ConversationFiltersDto): Promise<ConversationSelection> {
    let botId: number | null = null;
    if (query.botId !== undefined) {
      botId = Number(query.botId);
      if (botId > 2_147_483_647 || !(await this.conversations.ownerHasBot(ownerId, botId))) {
        throw AppError.notFound('This chatbot does not exist.', 'BOT_NOT_FOUND');
      }
    }
    const from = query.from === undefined ? null : parseInstant(query.from);
    if (query.from !== undefined && from === null)
      throw AppError.badRequest('from is not a real date.', 'VALIDATION_FAILED');
    const to = query.to === undefined ? null : parseInstant(query.to);
    if (query.to !== undefined && to === null) throw AppError.badRequest('to is not a real date.', 'VALIDATION_FAILED');
    // A date-only `to` includes that whole day.
    const before = to === null ? null : to.dateOnly ? new Date(to.at.getTime() + DAY_MS) : to.at;
    if (from && before && from.at >= before) {
      throw AppError.badRequest('from must be before to.', 'VALIDATION_FAILED');
    }
    const search = query.q?.trim() ?? '';
    return {
      ownerId,
      botId,
      // Words to look for, even when only operators remain: those match nothing, as common words do.
      search: search === '' ? null : boundedWebSearch(search),
      from: from?.at ?? null,
      before,
      filter: query.filter ?? 'all',
    };
  }

  async list(ownerId: number, query: ConversationsPageQueryDto): Promise<ConversationsPage> {
    const limit = query.limit === undefined ? CONVERSATIONS_PAGE.defaultLimit : Number(query.limit);
    if (limit < 1 || limit > CONVERSATIONS_PAGE.maxLimit) {
      throw AppError.badRequest(
        `limit must be a whole number from 1 to ${CONVERSATIONS_PAGE.maxLimit}.`,
        'VALIDATION_FAILED',
      );
    }
    let after: ConversationCursor | null = null;
    if (query.cursor !== undefined) {
      after = decodeCursor(query.cursor);
      if (!after) {
        throw AppError.badRequest('This page link is not valid any more. Please reload the list.', 'INVALID_CURSOR');
      }
    }
    const selection = await this.select(ownerId, query);
    // One more than asked tells whether a next page exists without counting.
    const rows = await this.conversations.findPage(selection, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      conversations: page.map(toSummary),
      nextCursor: rows.length > limit && last ? encodeCursor({ at: last.cursorAt, id: last.id }) : null,
    };
  }

  /** GET /api/conversations/waiting-count: the sidebar's "waiting for you" count. */
  async countWaiting(ownerId: number): Promise<WaitingCountResponse> {
    return { count: await this.conversations.countWaiting(ownerId) };
  }

  async get(ownerId: number, conversationId: number): Promise<ConversationTranscript> {
    const conversation = await this.conversations.findOne(ownerId, conversationId);
    if (!conversation) throw AppError.notFound(NOT_FOUND, 'CONVERSATION_NOT_FOUND');
    const [messages, actionCalls] = await Promise.all([
      this.conversations.findMessages(ownerId, conversationId),
      this.conversations.findActionCalls(ownerId, conversationId),
    ]);
    return {
      conversation: toSummary(conversation),
      messages: messages.map(toTranscriptMessage),
      actionCalls: actionCalls.map(toTranscriptActionCall),
    };
  }

  async delete(ownerId: number, conversationId: number): Promise<void> {
    if (!(await this.conversations.delete(ownerId, conversationId))) {
      throw AppError.notFound(NOT_FOUND, 'CONVERSATION_NOT_FOUND');
    }
  }
}
