import os from 'node:os';
import { Algorithm, hash, verify } from '@node-rs/argon2';
import { HttpStatus } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { ConcurrencyLimit } from '../../common/concurrency-limit.js';

/**
 * Every argon2 hash and verify goes through this limit. Each run holds 19 MiB and a libuv
 * thread for tens of milliseconds; unbounded, a burst of signups or logins from many addresses
 * would fill memory and starve the thread pool that file and DNS work also needs. Two to four
 * at once (by cores), 64 waiting; past that the request is answered 503 at once, before any
 * memory is spent on it.
 */
export const PASSWORD_HASHING = new ConcurrencyLimit(
  Math.min(4, Math.max(2, os.availableParallelism())),
  64,
  () =>
    new AppError(
      HttpStatus.SERVICE_UNAVAILABLE,
      'SERVICE_UNAVAILABLE',
      'Botsmith is briefly unavailable. Please try again in a moment.',
      { 'Retry-After': '5' },
    ),
);

/** argon2id with the library's OWASP-aligned defaults (19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return PASSWORD_HASHING.run(() => hash(password, { algorithm: Algorithm.Argon2id }));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return PASSWORD_HASHING.run(async () => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  });
}

/**
 * Verified against when the e-mail is unknown, so a login for a missing account costs the
 * same time as a wrong password (no account enumeration by timing).
 */
export const DUMMY_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$agnvVyLh/ySNFBPpwkl0Kw$EWluxT3C21deVTyJGN3J6SlME22GVgIMzf4X2ToL+9o';
