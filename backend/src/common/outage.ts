import { HttpStatus } from '@nestjs/common';
import { AppError } from './app-error.js';

/** What every route says while the database (or Redis, when configured) cannot be reached. */
export const SERVICE_UNAVAILABLE_SENTENCE = 'Botsmith is briefly unavailable. Please try again in a moment.';

/** Seconds a client should wait before trying again: long enough for a failover or a restart. */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export function serviceUnavailable(): AppError {
  return new AppError(HttpStatus.SERVICE_UNAVAILABLE, 'SERVICE_UNAVAILABLE', SERVICE_UNAVAILABLE_SENTENCE, {
    'Retry-After': String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS),
  });
}

/** Socket-level failures: the peer is down, restarting, or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs that mean "the server is not serving", not "this query is wrong":
 * class 08 (connection exception), 57P01 admin_shutdown (pg_ctl stop), 57P02 crash_shutdown,
 * 57P03 cannot_connect_now (starting up or in recovery), 53300 too_many_connections.
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/**
 * Messages of the drivers' own connection failures, which carry no code: node-postgres when the
 * socket closes under a query or the pool cannot hand out a connection in time, and ioredis when
 * a command could not be sent while it reconnects.
 */
const CONNECTION_MESSAGES = [
  /^Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error and is not queryable/i,
  /^Client was closed and is not queryable/i,
  /Reached the max retries per request limit/i,
  /^Connection is closed\.?$/i,
  /Stream isn't writeable and enableOfflineQueue options is false/i,
];

const REDIS_ERROR_NAMES = new Set(['MaxRetriesPerRequestError']);

/**
 * True when `error` means a backing service (PostgreSQL or Redis) is unreachable, so the request
 * should be a 503 the client may retry, rather than a 500 that says the code is wrong. Looks
 * through the wrappers TypeORM (`driverError`), Node (`AggregateError.errors`, `cause`) and our
 * own code put around the original error. A query that PostgreSQL refuses for what it says (a
 * syntax error, a constraint) is not an outage and stays a 500.
 */
export function isServiceOutage(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const candidate = error as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof candidate.code === 'string') {
    if (NETWORK_CODES.has(candidate.code)) return true;
    if (/^[0-9A-Z]{5}$/.test(candidate.code) && isUnavailableSqlState(candidate.code)) return true;
  }
  if (typeof candidate.name === 'string' && REDIS_ERROR_NAMES.has(candidate.name)) return true;
  if (
    typeof candidate.message === 'string' &&
    CONNECTION_MESSAGES.some((pattern) => pattern.test(candidate.message as string))
  ) {
    return true;
  }
  if (Array.isArray(candidate.errors) && candidate.errors.some((inner) => isServiceOutage(inner, depth + 1))) {
    return true;
  }
  return isServiceOutage(candidate.driverError, depth + 1) || isServiceOutage(candidate.cause, depth + 1);
}
