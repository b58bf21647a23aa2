/**
 * Throw-away PostgreSQL databases for the benches: each run seeds its own and drops it at the
 * end, also after a failure, so a bench never touches another database on the server.
 */
import crypto from 'node:crypto';
import pg from 'pg';

/** The local server the benches use unless told otherwise. */
export const LOCAL_SERVER_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

/** One query on its own connection: answers the rows. */
async function queryOnce(databaseUrl, sql, params) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty database `${prefix}_<random>` on the server; answers its URL, a one-off
 * `query(sql, params)` on it, and how to drop it.
 */
export async function createThrowawayDatabase(serverUrl, prefix) {
  const name = `${prefix}_${crypto.randomBytes(4).toString('hex')}`;
  await queryOnce(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    query: (sql, params) => queryOnce(url.toString(), sql, params),
    drop: () => queryOnce(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** The EXPLAIN (ANALYZE, BUFFERS) plan of a query, as text. */
export async function explain(client, sql, params) {
  const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}
