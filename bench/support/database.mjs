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

/**
 * The TypeORM DataSource methods the app's repositories use (query, transaction), on one pg
 * client, so a bench calls a repository of backend/dist as the app does. Every query is recorded
 * (with whether it ran in a transaction, and the rows it answered) so a bench can print the plans
 * of exactly what the repository sent.
 */
export function recordingDataSource(client) {
  const recorded = [];
  const run = (inTransaction) => async (sql, params) => {
    const { rows } = await client.query(sql, params);
    recorded.push({ sql, params, inTransaction, rows });
    return rows;
  };
  return {
    recorded,
    query: run(false),
    async transaction(work) {
      await client.query('BEGIN');
      try {
        const result = await work({ query: run(true) });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
  };
}

/** The plans of recorded queries, each run as the repository ran it (SET LOCAL included). */
export async function explainRecorded(client, queries) {
  const plans = [];
  for (const [index, query] of queries.entries()) {
    if (!/^\s*SELECT/i.test(query.sql)) continue;
    if (!query.inTransaction) {
      plans.push(await explain(client, query.sql, query.params));
      continue;
    }
    await client.query('BEGIN');
    try {
      for (const earlier of queries.slice(0, index)) {
        if (earlier.inTransaction && !/^\s*SELECT/i.test(earlier.sql)) await client.query(earlier.sql, earlier.params);
      }
      plans.push(await explain(client, query.sql, query.params));
    } finally {
      await client.query('COMMIT');
    }
  }
  return plans.join('\n');
}
