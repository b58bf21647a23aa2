import { vi } from 'vitest';
import { ApiError, type ApiErrorCode } from '../api/client';

/** jsdom has no ResizeObserver; the charts need one to measure their container. */
export function stubResizeObserver(): void {
  class ResizeObserverStub {
    observe = vi.fn();
    unobserve = vi.fn();
    disconnect = vi.fn();
  }
  vi.stubGlobal('ResizeObserver', ResizeObserverStub);
}

/** jsdom has no matchMedia: answer as a desktop (min-width queries match) or a phone (none match). */
export function stubScreen(kind: 'desktop' | 'phone'): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => ({
      matches: kind === 'desktop' ? /min-width/.test(query) : /max-width/.test(query),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

/** A promise the test resolves by hand, to look at the page while a request is in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** What an API call rejects with when the server refuses it: the `ApiError` the client throws. */
export function refusal(status: number, message: string, code: ApiErrorCode = 'ERROR'): Promise<never> {
  return Promise.reject(new ApiError(status, code, message, true));
}
