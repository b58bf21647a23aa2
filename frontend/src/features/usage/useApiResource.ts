import { useCallback, useEffect, useState } from 'react';

export type ApiResource<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error' };

const LOADING = { status: 'loading' } as const;

/**
 * Loads `load()` whenever it changes (pass a `useCallback` keyed by its inputs) and answers its
 * state. A result is tied to the `load` that produced it, so a new key shows "loading" at once,
 * never the previous key's data, and a late answer for an old key is dropped.
 */
export function useApiResource<T>(load: () => Promise<T>): [ApiResource<T>, (data: T) => void] {
  const [state, setState] = useState<{ load: () => Promise<T>; result: ApiResource<T> } | null>(null);

  useEffect(() => {
    let active = true;
    load().then(
      (data) => {
        if (active) setState({ load, result: { status: 'ready', data } });
      },
      () => {
        if (active) setState({ load, result: { status: 'error' } });
      },
    );
    return () => {
      active = false;
    };
  }, [load]);

  const replace = useCallback((data: T) => setState({ load, result: { status: 'ready', data } }), [load]);
  return [state && state.load === load ? state.result : LOADING, replace];
}
