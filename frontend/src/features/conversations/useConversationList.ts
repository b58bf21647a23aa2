import type { ConversationSummary, ConversationsPage } from '@botsmith/contract';
import { useCallback } from 'react';
import { conversationsApi, type ConversationQuery } from '../../api';
import { useApiPages } from '../../hooks/useApiPages';

export interface ConversationList {
  status: 'loading' | 'ready' | 'error';
  conversations: ConversationSummary[];
  /** More pages exist. */
  hasMore: boolean;
  loadingMore: boolean;
  /** The last "Load more" failed; the list so far stays. */
  moreFailed: boolean;
  loadMore: () => void;
  reload: () => void;
  /** Takes a deleted conversation out of the list. */
  removed: (id: number) => void;
  /** Shows a conversation's new state in its row (a reply or a handback in the transcript). */
  changed: (conversation: ConversationSummary) => void;
}

const appendConversations = (shown: ConversationsPage, next: ConversationsPage): ConversationsPage => {
  // A conversation that moved between pages (a new message) is listed once.
  const seen = new Set(shown.conversations.map((c) => c.id));
  return {
    conversations: [...shown.conversations, ...next.conversations.filter((c) => !seen.has(c.id))],
    nextCursor: next.nextCursor,
  };
};

/**
 * The inbox list for `query`: the first page whenever the query changes (a late answer for an
 * old query is dropped), then further pages through the server's cursor on "Load more"
 * (useApiPages: its abort, stale-answer and billing-gate rules).
 */
export function useConversationList(query: ConversationQuery): ConversationList {
  const key = JSON.stringify(query);
  const loadPage = useCallback(
    (cursor: string | null, signal: AbortSignal) =>
      conversationsApi.list(JSON.parse(key) as ConversationQuery, cursor, signal),
    [key],
  );
  const list = useApiPages(loadPage, appendConversations);
  const { update } = list;

  const removed = useCallback(
    (id: number) => update((shown) => ({ ...shown, conversations: shown.conversations.filter((c) => c.id !== id) })),
    [update],
  );

  const changed = useCallback(
    (conversation: ConversationSummary) =>
      update((shown) =>
        shown.conversations.some((c) => c.id === conversation.id)
          ? {
              ...shown,
              conversations: shown.conversations.map((c) => (c.id === conversation.id ? conversation : c)),
            }
          : shown,
      ),
    [update],
  );

  return {
    status: list.status,
    conversations: list.status === 'ready' ? list.data.conversations : [],
    hasMore: list.hasMore,
    loadingMore: list.loadingMore,
    moreFailed: list.moreError !== null,
    loadMore: list.showMore,
    reload: list.reload,
    removed,
    changed,
  };
}
