import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { pgPoolOf, sendPipelined, type Pipeline, type PipelinedResult } from './pipeline.js';

/**
 * Runs a statement of the chat path as a named prepared statement on the pool, outside any
 * transaction: each connection parses it once, and PostgreSQL may keep its plan, instead of
 * parsing and planning it for every message (docs/decisions/0016-chat-path-cost.md). On the
 * embedded PGlite that planning is the app's own CPU, and every relation size it reads is a file
 * system call. The name is the text's hash, so a text is prepared once per connection and two
 * texts never share a name; only statements whose text does not carry values belong here (a
 * bounded set of texts: values are parameters). Errors are the driver's, as `isDeadlock` and the
 * other checks in common/postgres-errors.ts read them. With a `pipeline`, it goes with the
 * pipeline's other statements (database/pipeline.ts).
 */
export async function queryPrepared<T>(
  dataSource: DataSource,
  text: string,
  values: unknown[],
  pipeline?: Pipeline,
): Promise<T[]> {
  const query = { name: preparedName(text), text, values };
  if (pipeline) return ((await sendPipelined(pipeline, query)) as PipelinedResult).rows as T[];
  const result = await pgPoolOf(dataSource).query(query);
  return result.rows as T[];
}

const names = new Map<string, string>();

/** The statement's name: a hash of its text (remembered, as the texts are few). */
function preparedName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `p_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    if (names.size < 1_000) names.set(text, name);
  }
  return name;
}
