import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { destinationForError } from '../api/billingGate';

export type ApiResourceState<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: unknown };

export type ApiResource<T> = ApiResourceState<T> & {
  /** Loads again; the state shows "loading" at once. */
  reload: () => void;
  /** Changes the loaded data in place (after a save); does nothing unless the data is loaded. */
  update: (change: (data: T) => T) => void;
};

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
 */
export function useApiResource<T>(load: ((signal: AbortSignal) => Promise<T>) | null): ApiResource<T> {
  const navigate = useNavigate();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{
    load: (signal: AbortSignal) => Promise<T>;
    attempt: number;
    result: ApiResourceState<T>;
  } | null>(null);

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

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const update = useCallback(
    (change: (data: T) => T) =>
      setState((current) =>
        current?.load === load && current.attempt === attempt && current.result.status === 'ready'
          ? { ...current, result: { status: 'ready', data: change(current.result.data) } }
          : current,
      ),
    [load, attempt],
  );

  const result = state && state.load === load && state.attempt === attempt ? state.result : LOADING;
  return { ...result, reload, update };
}
