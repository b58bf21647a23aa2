import { QueryFailedError } from 'typeorm';
import { isServiceOutage, serviceUnavailable } from './outage.js';

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

function named(message: string, name: string): Error {
  const error = new Error(message);
  Object.defineProperty(error, 'name', { value: name });
  return error;
}

describe('isServiceOutage', () => {
  it.each<[string, unknown]>([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    [
      'a refused connection on every address of localhost',
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
    ],
    ['a reset socket', withCode('read ECONNRESET', 'ECONNRESET')],
    ['the socket closing under a query', new Error('Connection terminated unexpectedly')],
    ['a pool that cannot connect in time', new Error('timeout exceeded when trying to connect')],
    [
      'pg_ctl stop (57P01 admin_shutdown) inside a TypeORM error',
      new QueryFailedError('SELECT 1', [], withCode('terminating connection due to administrator command', '57P01')),
    ],
    ['a server still starting (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection exception (08006)', withCode('connection failure', '08006')],
    ['too many connections (53300)', withCode('sorry, too many clients already', '53300')],
    [
      'ioredis giving up on a command while it reconnects',
      named('Reached the max retries per request limit (which is 1).', 'MaxRetriesPerRequestError'),
    ],
    ['ioredis without an offline queue', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['a wrapped cause', new Error('Could not load the session', { cause: withCode('connect', 'ECONNREFUSED') })],
  ])('is true for %s', (_label, error) => {
    expect(isServiceOutage(error)).toBe(true);
  });

  it.each<[string, unknown]>([
    ['a unique violation', new QueryFailedError('INSERT', [], withCode('duplicate key', '23505'))],
    ['a syntax error in our SQL', new QueryFailedError('SELEC 1', [], withCode('syntax error', '42601'))],
    ['a missing table', withCode('relation "nope" does not exist', '42P01')],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a Redis script error', new Error('ERR Error running script')],
    ['nothing', undefined],
    ['a string', 'ECONNREFUSED'],
  ])('is false for %s (a bug stays a 500)', (_label, error) => {
    expect(isServiceOutage(error)).toBe(false);
  });

  it('does not loop on a cause that points back at itself', () => {
    const error = new Error('odd') as Error & { cause?: unknown };
    error.cause = error;
    expect(isServiceOutage(error)).toBe(false);
  });
});

describe('serviceUnavailable', () => {
  it('is a 503 with the sentence, its code and Retry-After', () => {
    const error = serviceUnavailable();
    expect(error.getStatus()).toBe(503);
    expect(error.getResponse()).toEqual({
      error: 'Botsmith is briefly unavailable. Please try again in a moment.',
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(error.headers).toEqual({ 'Retry-After': '5' });
  });
});
