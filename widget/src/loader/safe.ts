/** Nothing in the loader may throw into the host page: failures are logged, never raised. */
export function report(e: unknown): void {
  console.warn('[botsmith]', e);
}

/** `fn`, with anything it throws reported instead (every entry point goes through this). */
export function safe<A extends unknown[]>(fn: (...a: A) => void): (...a: A) => void {
  return (...a) => {
    try {
      fn(...a);
    } catch (e) {
      report(e);
    }
  };
}

/** A User Timing mark (`botsmith:exec`, `:launcher`, `:click`, `:open`) that bench/widget-load.mjs reads. */
export function mark(name: string): void {
  try {
    performance.mark('botsmith:' + name);
  } catch {
    /* User Timing unavailable */
  }
}
