import { useCallback, useEffect, useState } from 'react';
import { knowledgeApi } from '../../api';
import type { SourceResponse } from '../../api/types';
import { serverMessage } from '../../api/serverMessage';
import { POLL_MS } from './knowledgeLimits';

export type SourcesState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  /** `stale` says the last re-read failed (the list shown is the previous one). */
  | { status: 'ready'; sources: SourceResponse[]; stale: boolean };

export const LOAD_FAILED = 'Error loading knowledge sources.';

/**
 * A bot's sources, read again every {@link POLL_MS} while any of them is processing, so the
 * owner watches a file or website become ready; no polling once none is, nor after unmount.
 */
export function useKnowledgeSources(botId: number, revision?: unknown) {
  const [state, setState] = useState<SourcesState>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  /** Shows a source as the server just answered it, without reading the list again. */
  const replace = useCallback(
    (changed: SourceResponse) =>
      setState((previous) =>
        previous.status === 'ready'
          ? { ...previous, sources: previous.sources.map((one) => (one.id === changed.id ? changed : one)) }
          : previous,
      ),
    [],
  );

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** Whether the last list read had a source still processing. */
    let processing = false;
    const load = async () => {
      try {
        const { sources } = await knowledgeApi.list(botId, controller.signal);
        if (controller.signal.aborted) return;
        processing = sources.some((source) => source.status === 'processing');
        setState({ status: 'ready', sources, stale: false });
      } catch (failure) {
        if (controller.signal.aborted) return;
        const message = serverMessage(failure) ?? LOAD_FAILED;
        // A list was shown: keep it, say so, and try again while something is still being read.
        setState((previous) =>
          previous.status === 'ready' ? { ...previous, stale: true } : { status: 'error', message },
        );
      }
      if (processing) timer = setTimeout(() => void load(), POLL_MS);
    };
    void load();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [botId, generation, revision]);

  return { state, reload, replace };
}
