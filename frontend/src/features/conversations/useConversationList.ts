import type { ConversationSummary } from '@botsmith/contract';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { conversationsApi, type ConversationQuery } from '../../api';
import { destinationForError } from '../../api/billingGate';

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

interface Loaded {
  key: string;
  attempt: number;
  status: 'ready' | 'error';
  conversations: ConversationSummary[];
  nextCursor: string | null;
}

/**
 * The inbox list for `query`: the first page whenever the query changes (a late answer for an
 * old query is dropped), then further pages through the server's cursor on "Load more".
 */
export function useConversationList(query: ConversationQuery): ConversationList {
  const navigate = useNavigate();
  const key = JSON.stringify(query);
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [more, setMore] = useState<{ key: string; loading: boolean; failed: boolean }>({
    key,
    loading: false,
    failed: false,
  });

  const fail = useCallback(
    (error: unknown) => {
      const destination = destinationForError(error);
      if (destination) void navigate(destination, { replace: true });
      return Boolean(destination);
    },
    [navigate],
  );

  useEffect(() => {
    const controller = new AbortController();
    conversationsApi.list(JSON.parse(key) as ConversationQuery, null, controller.signal).then(
      (page) => setLoaded({ key, attempt, status: 'ready', ...page }),
      (error: unknown) => {
        if (controller.signal.aborted || fail(error)) return;
        setLoaded({ key, attempt, status: 'error', conversations: [], nextCursor: null });
      },
    );
    return () => controller.abort();
  }, [key, attempt, fail]);

  const current = loaded && loaded.key === key && loaded.attempt === attempt ? loaded : null;
  const moreState = more.key === key ? more : { loading: false, failed: false };

  const nextCursor = current?.nextCursor ?? null;
  const loadingMore = moreState.loading;
  const loadMore = useCallback(() => {
    if (!nextCursor || loadingMore) return;
    const cursor = nextCursor;
    setMore({ key, loading: true, failed: false });
    conversationsApi.list(JSON.parse(key) as ConversationQuery, cursor).then(
      (page) => {
        setLoaded((previous) => {
          if (!previous || previous.key !== key || previous.nextCursor !== cursor) return previous;
          // A conversation that moved between pages (a new message) is listed once.
          const seen = new Set(previous.conversations.map((c) => c.id));
          return {
            ...previous,
            conversations: [...previous.conversations, ...page.conversations.filter((c) => !seen.has(c.id))],
            nextCursor: page.nextCursor,
          };
        });
        setMore({ key, loading: false, failed: false });
      },
      (error: unknown) => {
        if (fail(error)) return;
        setMore({ key, loading: false, failed: true });
      },
    );
  }, [nextCursor, loadingMore, key, fail]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const removed = useCallback(
    (id: number) =>
      setLoaded((previous) =>
        previous ? { ...previous, conversations: previous.conversations.filter((c) => c.id !== id) } : previous,
      ),
    [],
  );

  const changed = useCallback(
    (conversation: ConversationSummary) =>
      setLoaded((previous) =>
        previous?.conversations.some((c) => c.id === conversation.id)
          ? {
              ...previous,
              conversations: previous.conversations.map((c) => (c.id === conversation.id ? conversation : c)),
            }
          : previous,
      ),
    [],
  );

  return {
    status: current?.status ?? 'loading',
    conversations: current?.conversations ?? [],
    hasMore: Boolean(current?.nextCursor),
    loadingMore: moreState.loading,
    moreFailed: moreState.failed,
    loadMore,
    reload,
    removed,
    changed,
  };
}
