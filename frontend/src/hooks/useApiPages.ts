import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { destinationForError } from '../api/billingGate';
import { useApiResource, type ApiResource } from './useApiResource';

/** A page of a list the server hands out by cursor: `nextCursor` is null on the last page. */
export interface CursorPage {
  nextCursor: string | null;
}

export type ApiPages<P extends CursorPage> = ApiResource<P> & {
  /** Another page exists (the shown data's `nextCursor`). */
  hasMore: boolean;
  /** Reads the next page and appends it; does nothing without one or while one is being read. */
  showMore: () => void;
  /** "Show more" is being read. */
  loadingMore: boolean;
  /** Why the last "Show more" failed (the list shown stays), or null. */
  moreError: unknown;
};

interface MoreState {
  /** The request this state belongs to: the first page's loader and the reload count. */
  load: unknown;
  reloads: number;
  loading: boolean;
  error: unknown;
}

/**
 * A list read by cursor pages: the first page through {@link useApiResource} (its key, abort,
 * stale-answer and billing-gate rules, and its `update` and `reload`), then "Show more", which
 * reads the page after the shown one and appends it with `append` (pass a stable function: a
 * module constant). "Show more" keeps its own loading and error, never hides the list, is aborted
 * when the key changes, on reload and on unmount, and its answer is dropped if the list shown no
 * longer ends at the cursor it asked from. A session or billing refusal sends the owner where the
 * gate would (docs/product.md#dashboard-gate).
 */
export function useApiPages<P extends CursorPage>(
  loadPage: ((cursor: string | null, signal: AbortSignal) => Promise<P>) | null,
  append: (shown: P, next: P) => P,
): ApiPages<P> {
  const navigate = useNavigate();
  const loadFirst = useMemo(() => (loadPage ? (signal: AbortSignal) => loadPage(null, signal) : null), [loadPage]);
  const first = useApiResource(loadFirst);
  const { update, reload: reloadFirst } = first;
  const [reloads, setReloads] = useState(0);
  const [more, setMore] = useState<MoreState | null>(null);

  // One controller per key and reload: "Show more" of an old list (or of an unmounted one) aborts.
  const leaving = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    leaving.current = controller;
    return () => controller.abort();
  }, [loadFirst, reloads]);

  const shownMore = more && more.load === loadFirst && more.reloads === reloads ? more : null;
  const loadingMore = shownMore?.loading ?? false;
  const nextCursor = first.status === 'ready' ? first.data.nextCursor : null;

  const showMore = useCallback(() => {
    if (!loadPage || !nextCursor || loadingMore) return;
    const cursor = nextCursor;
    const { signal } = leaving.current;
    const mine = { load: loadFirst, reloads };
    setMore({ ...mine, loading: true, error: null });
    loadPage(cursor, signal).then(
      (next) => {
        if (signal.aborted) return;
        update((shown) => (shown.nextCursor === cursor ? append(shown, next) : shown));
        setMore({ ...mine, loading: false, error: null });
      },
      (error: unknown) => {
        if (signal.aborted) return;
        const destination = destinationForError(error);
        if (destination) void navigate(destination, { replace: true });
        else setMore({ ...mine, loading: false, error });
      },
    );
  }, [loadPage, loadFirst, reloads, nextCursor, loadingMore, update, append, navigate]);

  const reload = useCallback(() => {
    setReloads((n) => n + 1);
    reloadFirst();
  }, [reloadFirst]);

  return {
    ...first,
    reload,
    hasMore: Boolean(nextCursor),
    showMore,
    loadingMore,
    moreError: shownMore?.error ?? null,
  };
}
