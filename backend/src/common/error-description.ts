/**
 * A thrown value as the end of a log sentence: an Error's message, anything else (a string, a
 * rejected non-Error) as text. `catch` hands over `unknown`, and `(error as Error).message` would
 * log "undefined" for a thrown string, or itself throw for a thrown `null`.
 */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The same, with the stack where there is one: for failures nobody expected (a 500, a failed start). */
export function describeErrorWithStack(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
