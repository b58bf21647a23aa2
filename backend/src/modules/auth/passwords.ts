import { Algorithm, hash, verify } from '@node-rs/argon2';

/** argon2id with the library's OWASP-aligned defaults (19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: Algorithm.Argon2id });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * Verified against when the e-mail is unknown, so a login for a missing account costs the
 * same time as a wrong password (no account enumeration by timing).
 */
export const DUMMY_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$agnvVyLh/ySNFBPpwkl0Kw$EWluxT3C21deVTyJGN3J6SlME22GVgIMzf4X2ToL+9o';
