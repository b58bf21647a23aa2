import { entityManagerOf, type Transaction } from './transaction.js';

/**
 * PostgreSQL transaction advisory locks, for repositories: held until the transaction ends, so a
 * check and the write it admits are one step however many instances run.
 */

/** Waits for the lock (namespace, key): two of one key are taken one after the other. */
export async function waitForAdvisoryLock(tx: Transaction, namespace: number, key: number): Promise<void> {
  await entityManagerOf(tx).query('SELECT pg_advisory_xact_lock($1::integer, $2::integer)', [namespace, key]);
}

/** Takes the lock `key` if it is free; false when another session holds it. */
export async function tryAdvisoryLock(tx: Transaction, key: number): Promise<boolean> {
  const [lock] = await entityManagerOf(tx).query<Array<{ locked: boolean }>>(
    `SELECT pg_try_advisory_xact_lock($1) AS locked`,
    [key],
  );
  return lock?.locked === true;
}
