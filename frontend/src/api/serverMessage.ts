import { ApiError } from './client';

/** The server's sentence when it sent one (e.g. which field was refused), else null. */
export function serverMessage(error: unknown): string | null {
  return error instanceof ApiError ? error.displayable : null;
}
