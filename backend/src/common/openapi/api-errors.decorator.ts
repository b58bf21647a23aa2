import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

/** Error codes a route may answer, by HTTP status: `{404: ['BOT_NOT_FOUND']}`. */
export type ErrorCodes = Partial<Record<number, readonly string[]>>;

/** What every route may answer: an unexpected error, or the database (or Redis) unreachable. */
const ANY_ROUTE: ErrorCodes = { 500: ['INTERNAL_ERROR'], 503: ['SERVICE_UNAVAILABLE'] };

/** Routes behind the session guard (everything not marked `@Public()`). */
export const SIGNED_IN: ErrorCodes = { 401: ['UNAUTHORIZED'] };

/** Dashboard routes behind the billing-state guard too (docs/product.md#dashboard-gate). */
export const GATED: ErrorCodes = {
  401: ['UNAUTHORIZED'],
  403: ['SETUP_REQUIRED', 'SUBSCRIPTION_PENDING', 'PAYMENT_FAILED'],
};

/** State-changing routes a browser may only call from the product's own site (the Origin check). */
export const SAME_SITE: ErrorCodes = { 403: ['ORIGIN_NOT_ALLOWED'] };

/** Routes that read a JSON body: the body parser, the body shape check and the validation pipe. */
export const JSON_BODY: ErrorCodes = {
  400: ['INVALID_JSON', 'INVALID_BODY', 'VALIDATION_FAILED', 'INVALID_CHARACTERS'],
  413: ['PAYLOAD_TOO_LARGE'],
};

/** Routes with a numeric id in the path (`@IdParam`). */
export const ID_IN_PATH: ErrorCodes = { 400: ['INVALID_ID'] };

/** Routes that take one file as multipart/form-data (SingleFileInterceptor). */
export const FILE_UPLOAD: ErrorCodes = { 400: ['FILE_REQUIRED', 'INVALID_UPLOAD'], 413: ['FILE_TOO_LARGE'] };

/** Routes answered 429 with Retry-After when a rate limit or throttle is reached. */
export const RATE_LIMITED: ErrorCodes = { 429: ['RATE_LIMITED'] };

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authenticated',
  402: 'Payment required',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests (see Retry-After)',
  500: 'Unexpected error',
  502: 'Bad gateway',
  503: 'Service unavailable (see Retry-After)',
  504: 'Gateway timeout',
};

/** Merges groups of codes by status, keeping each code once, in order. */
export function mergeErrorCodes(...groups: ErrorCodes[]): Record<number, string[]> {
  const merged: Record<number, string[]> = {};
  for (const group of groups) {
    for (const [status, codes] of Object.entries(group)) {
      const list = (merged[Number(status)] ??= []);
      for (const code of codes ?? []) if (!list.includes(code)) list.push(code);
    }
  }
  return merged;
}

/**
 * Documents a route's error answers: one response per status, each an `{error, code}` body whose
 * `code` is one of the listed codes. Every route also gets 500 INTERNAL_ERROR and 503
 * SERVICE_UNAVAILABLE. Use once per route, with the groups above plus the route's own codes:
 * `@ApiErrors(GATED, ID_IN_PATH, { 404: ['BOT_NOT_FOUND'] })`. The OpenAPI spec checks that a
 * route with a body, an id or a session lists the matching codes.
 */
export function ApiErrors(...groups: ErrorCodes[]): MethodDecorator {
  const merged = mergeErrorCodes(...groups, ANY_ROUTE);
  return applyDecorators(
    ...Object.entries(merged).map(([status, codes]) =>
      ApiResponse({
        status: Number(status),
        description: `${STATUS_TEXT[Number(status)] ?? 'Error'}: ${codes.join(', ')}`,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['error', 'code'],
              properties: {
                error: { type: 'string', description: 'A sentence a person can act on.' },
                code: { type: 'string', enum: codes, description: 'A stable machine-readable code.' },
              },
            },
          },
        },
      }),
    ),
  );
}
