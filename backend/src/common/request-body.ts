import type { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error.js';
import { REQUEST_BODY_MAX_DEPTH } from './constants.js';

/**
 * Field names that reach an object's prototype machinery. JSON.parse keeps `__proto__` as a plain
 * own field, but class-transformer silently drops it (so a whitelisted DTO would accept a body
 * it never saw) and crashes on a nested `constructor`; no request of this API has such a field.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * What is wrong with the shape of a parsed request body, or null. Bodies are JSON objects; a
 * top-level array or scalar, nesting deeper than REQUEST_BODY_MAX_DEPTH, or a prototype key at
 * any depth is refused here, before validation, whatever the route. The walk is iterative, so a
 * hostile body cannot exhaust the stack of the check itself.
 */
export function bodyShapeProblem(body: unknown): AppError | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return AppError.badRequest('The request body must be a JSON object.', 'INVALID_BODY');
  }
  const pending: Array<{ value: object; depth: number }> = [{ value: body, depth: 1 }];
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    if (depth > REQUEST_BODY_MAX_DEPTH) {
      return AppError.badRequest(
        `The request body is nested too deeply (at most ${REQUEST_BODY_MAX_DEPTH} levels).`,
        'INVALID_BODY',
      );
    }
    for (const key of Object.keys(value)) {
      if (PROTOTYPE_KEYS.has(key)) {
        return AppError.badRequest(`The request body must not contain a field named ${key}.`, 'INVALID_BODY');
      }
      const child = (value as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') pending.push({ value: child, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * Express middleware mounted right after the body parsers: a body of the wrong shape is a 400
 * `{error, code}` before any guard, pipe or passport strategy reads it. Requests without a parsed
 * body (GET, multipart uploads, raw webhooks before parsing) pass untouched.
 */
export function refuseMalformedBodies(req: Request, _res: Response, next: NextFunction): void {
  if (req.body === undefined) return next();
  const problem = bodyShapeProblem(req.body);
  next(problem ?? undefined);
}
