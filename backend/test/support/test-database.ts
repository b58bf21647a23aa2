import { describe, it } from '@jest/globals';
import crypto from 'node:crypto';
import pg from 'pg';

/**
 * Integration tests run on a real PostgreSQL server when TEST_DATABASE_URL is set: every test
 * file gets a fresh database of its own (migrated by the app at start) and drops it at the end.
 * Without TEST_DATABASE_URL each test file starts its own embedded PGlite instead.
 */
export function serverUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

/**
 * A test that needs a PostgreSQL server (two app instances on one database: the embedded PGlite
 * serves one session at a time). Without TEST_DATABASE_URL it is skipped, and the reason is in
 * its reported name.
 */
export function itOnServer(name: string, test: () => Promise<void>): void {
  if (serverUrl()) it(name, test);
  else it.skip(`${name} ${NEEDS_SERVER}`, test);
}

/** `itOnServer` for a group of tests: skipped without TEST_DATABASE_URL, the reason in its reported name. */
export function describeOnServer(name: string, tests: () => void): void {
  if (serverUrl()) describe(name, tests);
  else describe.skip(`${name} ${NEEDS_SERVER}`, tests);
}

const NEEDS_SERVER = '(needs a PostgreSQL server: PGlite serves one session at a time)';

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database for one test file on the test server. */
export async function createFileDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = serverUrl();
  if (!base) throw new Error('No test PostgreSQL server configured (TEST_DATABASE_URL).');
  const name = `botsmith_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  return {
    url: withDatabase(base, name),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
