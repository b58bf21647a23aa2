import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { destinationForError } from '../api/billingGate';

export type ApiResourceState<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: unknown };

export type ApiResource<T> = ApiResourceState<T> & {
  /** Loads again; the state shows "loading" at once. */
  reload: () => void;
  /**
   * Reads again quietly (after a change made elsewhere): the data stays shown until the answer
   * replaces it, and a failed read keeps it. A newer refresh aborts the one in flight.
   */
  refresh: () => void;
  /** Changes the loaded data in place (after a save); does nothing unless the data is loaded. */
  update: (change: (data: T) => T) => void;
};

export interface ApiResourceOptions<T> {
  /**
   * While the data is shown, reads it again this often (ms), quietly: no "loading" state. Null or
   * absent: never. A function decides from the data shown (poll only while something is under
   * way). See {@link useApiResource} for what a poll guarantees.
   */
  pollMs?: number | null | ((data: T) => number | null);
}

const LOADING = { status: 'loading' } as const;

/**
 * Loads `load()` whenever it changes (pass a `useCallback` keyed by its inputs; null loads
 * nothing) and answers its state. A result is tied to the `load` and the reload that produced
 * it, so a new key shows "loading" at once, never the previous key's data, and a late answer for
 * an old key is dropped; the signal handed to `load` aborts then too, and on unmount.
 *
 * A failure that means the owner may no longer use the dashboard (the session ended, or the
 * billing state changed: docs/product.md#dashboard-gate) sends them where the gate would, and
 * the state stays "loading"; any other failure is the "error" state.
 *
 * With `pollMs`, the loaded data is read again `pollMs` after the last read answered, so two
 * reads never overlap; no read starts while the tab is hidden (the one that fell due then runs
 * when the tab shows again). A poll that fails keeps the data shown and tries again at the next
 * tick, except a session or billing refusal, which sends the owner where the gate would, as
 * above. A poll's answer is dropped if `update` changed the data while it was in flight (it may
 * predate that change); the next poll brings the server's view.
 */
export function useApiResource<T>(
  load: ((signal: AbortSignal) => Promise<T>) | null,
  options: ApiResourceOptions<T> = {},
): ApiResource<T> {
  const { pollMs = null } = options;
  const navigate = useNavigate();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{
    load: (signal: AbortSignal) => Promise<T>;
    attempt: number;
    result: ApiResourceState<T>;
  } | null>(null);
  /** Counts local changes (`update`), so a poll that started before one can be told apart. */
  const changes = useRef(0);
  /** The last quiet read asked for, tied to the load and reload it was asked under. */
  const [refreshing, setRefreshing] = useState<{ load: (signal: AbortSignal) => Promise<T>; attempt: number } | null>(
    null,
  );

  useEffect(() => {
    if (!load) return;
    const controller = new AbortController();
    const active = () => !controller.signal.aborted;
    load(controller.signal).then(
      (data) => {
        if (active()) setState({ load, attempt, result: { status: 'ready', data } });
      },
      (error: unknown) => {
        if (!active()) return;
        const destination = destinationForError(error);
        if (destination) void navigate(destination, { replace: true });
        else setState({ load, attempt, result: { status: 'error', error } });
      },
    );
    return () => controller.abort();
  }, [load, attempt, navigate]);

  const current = state && state.load === load && state.attempt === attempt ? state : null;
  const shown = current?.result.status === 'ready' ? current.result : null;
  const interval = shown ? (typeof pollMs === 'function' ? pollMs(shown.data) : pollMs) : null;

  useEffect(() => {
    if (!load || !interval || interval <= 0) return;
    const read = load;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** A tick fell while the tab was hidden: read as soon as it shows. */
    let due = false;
    const schedule = () => {
      timer = setTimeout(poll, interval);
    };
    function poll() {
      if (document.hidden) {
        due = true;
        return;
      }
      due = false;
      const changesBefore = changes.current;
      read(controller.signal).then(
        (data) => {
          if (controller.signal.aborted) return;
          if (changes.current === changesBefore) {
            setState((last) =>
              last?.load === load && last.attempt === attempt && last.result.status === 'ready'
                ? { ...last, result: { status: 'ready', data } }
                : last,
            );
          }
          schedule();
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const destination = destinationForError(error);
          if (destination) void navigate(destination, { replace: true });
          else schedule();
        },
      );
    }
    const onVisibility = () => {
      if (due && !document.hidden) poll();
    };
    document.addEventListener('visibilitychange', onVisibility);
    schedule();
    return () => {
      controller.abort();
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [load, attempt, interval, navigate]);

  useEffect(() => {
    if (!refreshing) return;
    const { load: read, attempt: asked } = refreshing;
    const controller = new AbortController();
    const changesBefore = changes.current;
    read(controller.signal).then(
      (data) => {
        if (controller.signal.aborted || changes.current !== changesBefore) return;
        setState((last) =>
          last?.load === read && last.attempt === asked && last.result.status === 'ready'
            ? { ...last, result: { status: 'ready', data } }
            : last,
        );
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const destination = destinationForError(error);
        if (destination) void navigate(destination, { replace: true });
      },
    );
    return () => controller.abort();
  }, [refreshing, navigate]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const refresh = useCallback(() => {
    if (load) setRefreshing({ load, attempt });
  }, [load, attempt]);
  const update = useCallback(
    (change: (data: T) => T) => {
      changes.current += 1;
      setState((last) =>
        last?.load === load && last.attempt === attempt && last.result.status === 'ready'
          ? { ...last, result: { status: 'ready', data: change(last.result.data) } }
          : last,
      );
    },
    [load, attempt],
  );

  const result = current ? current.result : LOADING;
  return { ...result, reload, refresh, update };
}
