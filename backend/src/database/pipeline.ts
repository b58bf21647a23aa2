import type { DataSource } from 'typeorm';

declare const opaque: unique symbol;

/**
 * Statements that go to PostgreSQL together: the ones sent through one pipeline during the same
 * turn of the event loop travel on one connection in one write, and their answers come back in
 * order (the wire protocol's pipelining, `pg`'s pipeline mode), so two independent statements cost
 * one round trip. A chat message's lock and its question's retrieval go this way
 * (docs/decisions/0016-chat-path-cost.md, "Sixth step"). Services pass the handle along, as they
 * pass a `Statement`; repositories send through it (`sendPipelined`). Each statement keeps its own
 * Sync, so each succeeds or fails alone, and none sees another's uncommitted work.
 */
export interface Pipeline {
  readonly [opaque]: 'Pipeline';
}

/**
 * One statement of a pipeline: a prepared statement (`name`, with `values`) or, with the text
 * alone, a simple-protocol batch (which answers one result per statement).
 */
export interface PipelinedQuery {
  text: string;
  values?: unknown[];
  name?: string;
}

export interface PipelinedResult {
  rows: unknown[];
}

/** What we use of a `pg` client (pipeline mode: pg 8.2x; see `sendTogether`). */
interface PgClient {
  pipeline: boolean;
  connection: { stream: { cork(): void; uncork(): void } };
  query(config: PipelinedQuery): Promise<PipelinedResult | PipelinedResult[]>;
  /** 'I' idle, 'T' in a transaction, 'E' in a failed one (from the last ReadyForQuery). */
  getTransactionStatus(): string | null;
  release(error?: Error): void;
}

/** What we use of the `pg` pool: a connection of our own, or one statement on any. */
interface PgPool {
  connect(): Promise<PgClient>;
  query(config: PipelinedQuery): Promise<PipelinedResult>;
}

interface PendingQuery {
  query: PipelinedQuery;
  resolve(result: PipelinedResult | PipelinedResult[]): void;
  reject(error: unknown): void;
}

class QueryPipeline {
  private pending: PendingQuery[] = [];

  constructor(private readonly dataSource: DataSource) {}

  send(query: PipelinedQuery): Promise<PipelinedResult | PipelinedResult[]> {
    return new Promise((resolve, reject) => {
      // setImmediate, not a microtask: a caller that awaits something already settled before it
      // sends (a cached value) still sends within this turn of the loop, and joins.
      if (this.pending.push({ query, resolve, reject }) === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    let client: PgClient;
    try {
      client = await pgPoolOf(this.dataSource).connect();
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    }
    const settled = await Promise.allSettled(
      batch.length === 1 ? [client.query(batch[0].query)] : sendTogether(client, batch),
    );
    client.pipeline = false;
    client.release(await endOpenTransaction(client));
    settled.forEach((result, i) =>
      result.status === 'fulfilled' ? batch[i].resolve(result.value) : batch[i].reject(result.reason),
    );
  }
}

/**
 * Writes every statement before any answer is read: in pipeline mode the client sends each query
 * at once instead of queueing it behind the one before, and the corked socket makes their
 * messages one write. Pipeline mode stays on until every answer is in (the client reads them in
 * order from its sent queue), then `flush` turns it off before the connection goes back.
 */
function sendTogether(client: PgClient, batch: PendingQuery[]): Array<Promise<PipelinedResult | PipelinedResult[]>> {
  client.pipeline = true;
  const { stream } = client.connection;
  stream.cork();
  try {
    return batch.map((entry) => client.query(entry.query));
  } finally {
    stream.uncork();
  }
}

/**
 * A batch whose statement failed leaves its transaction open and aborted: it is rolled back before
 * the connection goes back to the pool. Closing the connection instead would cost the embedded
 * PGlite a reconnect that races the old connection's end (it serves one at a time). An error of
 * the rollback itself (the connection is broken) is returned, so the pool drops that connection.
 */
async function endOpenTransaction(client: PgClient): Promise<Error | undefined> {
  if (client.getTransactionStatus() === 'I') return undefined;
  try {
    await client.query({ text: 'ROLLBACK' });
    return undefined;
  } catch (error) {
    return asError(error);
  }
}

/** The `pg` pool behind TypeORM's PostgreSQL driver (the embedded PGlite is reached through it too). */
export function pgPoolOf(dataSource: DataSource): PgPool {
  return (dataSource.driver as unknown as { master: PgPool }).master;
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

/** A new pipeline on the data source's pool. */
export function beginPipeline(dataSource: DataSource): Pipeline {
  return new QueryPipeline(dataSource) as unknown as Pipeline;
}

/** Repositories only: sends `query` with the pipeline's others; answers its result (one per statement of a batch). */
export function sendPipelined(pipeline: Pipeline, query: PipelinedQuery): Promise<PipelinedResult | PipelinedResult[]> {
  return (pipeline as unknown as QueryPipeline).send(query);
}
