/**
 * The one way the frontend talks to the backend. Every call sends the session cookie, speaks JSON
 * (or multipart for uploads) and turns an error answer `{error, code}` into an {@link ApiError}.
 */

import type { ErrorCode } from '@botsmith/contract';

/**
 * The server's code (the contract's ErrorCode), or one the client sets when no usable answer
 * came: no connection, an unreadable body, or an error answer without a code.
 */
export type ApiErrorCode = ErrorCode | 'NETWORK_ERROR' | 'INVALID_RESPONSE' | `HTTP_${number}`;

/** What the API says while its database or Redis is unreachable (also for a proxy's bare 503). */
export const SERVICE_UNAVAILABLE = 'Botsmith is briefly unavailable. Please try again in a moment.';

/** An API call that did not succeed: the server's sentence, its stable code and the HTTP status. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when the request never got an answer (network failure). */
  readonly status: number;
  /** The server's machine-readable code (`PAYMENT_FAILED`, ...), or `NETWORK_ERROR` / `HTTP_<status>`. */
  readonly code: ApiErrorCode;
  /** True when the server itself sent the message (it can be shown as is). */
  readonly fromServer: boolean;

  constructor(status: number, code: ApiErrorCode, message: string, fromServer: boolean) {
    super(message);
    this.status = status;
    this.code = code;
    this.fromServer = fromServer;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }

  /**
   * A sentence the person can be shown as is: the server's own for a refusal (4xx) or an outage
   * (503, "briefly unavailable"); null for other failures, which each screen words itself.
   */
  get displayable(): string | null {
    if (this.status === 503) return this.message;
    return this.fromServer && this.status < 500 ? this.message : null;
  }
}

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain object is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function statusText(status: number): string {
  if (status === 401) return 'Please sign in.';
  if (status === 403) return 'You are not allowed to do that.';
  if (status === 404) return 'Not found.';
  if (status === 429) return 'Too many requests. Please try again in a moment.';
  if (status === 503) return SERVICE_UNAVAILABLE;
  if (status >= 500) return 'The server had a problem. Please try again.';
  return `Request failed (${status}).`;
}

/** The ApiError for a non-ok answer (also used by the XMLHttpRequest uploads). */
export async function toApiError(response: Response): Promise<ApiError> {
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    payload = undefined;
  }
  if (payload && typeof payload === 'object') {
    const { error, code, message } = payload as Record<string, unknown>;
    const text = typeof error === 'string' && error ? error : typeof message === 'string' && message ? message : '';
    if (text) {
      return new ApiError(
        response.status,
        // A proxy or an older server may say something the contract does not list; it is kept as sent.
        typeof code === 'string' && code ? (code as ErrorCode) : `HTTP_${response.status}`,
        text,
        true,
      );
    }
  }
  return new ApiError(response.status, `HTTP_${response.status}`, statusText(response.status), false);
}

/** Sends a request and returns the raw response once it is known to be ok. */
export async function apiRequest(path: string, options: ApiRequestOptions = {}): Promise<Response> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: payload, credentials: 'include', signal });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    const message = cause instanceof Error ? cause.message : 'Network error.';
    throw new ApiError(0, 'NETWORK_ERROR', message, false);
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

/** Sends a request and parses the JSON answer as `T` (an empty body gives `{}`). */
export async function apiFetch<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const response = await apiRequest(path, options);
  const text = await response.text();
  if (!text) return {} as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(response.status, 'INVALID_RESPONSE', 'The server sent an answer that could not be read.', false);
  }
}
