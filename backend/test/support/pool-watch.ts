import { jest } from '@jest/globals';
import type { DataSource } from 'typeorm';

/** What the watch sees of a `pg` client the pool hands out. */
export interface PooledClient {
  query(...args: unknown[]): unknown;
  release(error?: Error): void;
  connection: { stream: { _write: (...args: never[]) => void; _writev?: (...args: never[]) => void } };
}

export interface PoolWatch {
  /** The connections handed out while watched. */
  connections: number;
  /** How each went back: undefined, or the error it was released with (the pool then closes it). */
  released: Array<Error | undefined>;
  /** Per write to a connection's socket, the text of each statement it carried (white space collapsed). */
  writes: string[][];
  restore(): void;
}

type Connect = (callback?: (error: Error | undefined, client?: PooledClient, release?: () => void) => void) => unknown;

/**
 * Watches the `pg` pool behind a data source until `restore`: the connections it hands out, how
 * they go back, and what each write to their sockets carries (database/pipeline.ts sends several
 * statements in one write). A statement is counted with a write when it was submitted since the
 * write before: `pg` submits a statement as its query is called, and the corked messages of
 * several leave in one `_writev`. Both of the pool's forms are kept: TypeORM connects with a
 * callback, the pipeline with a promise.
 */
export function watchPool(dataSource: DataSource): PoolWatch {
  const pool = (dataSource.driver as unknown as { master: { connect: Connect } }).master;
  const connect = pool.connect.bind(pool) as () => Promise<PooledClient>;
  const watch: PoolWatch = { connections: 0, released: [], writes: [], restore: () => spy.mockRestore() };

  function instrument(client: PooledClient): PooledClient {
    watch.connections += 1;
    const { stream } = client.connection;
    const [query, write, writev, release] = [client.query, stream._write, stream._writev, client.release];
    let submitted: string[] = [];
    const wrote = () => {
      watch.writes.push(submitted);
      submitted = [];
    };
    client.query = (...args: unknown[]) => {
      const config = args[0];
      const text = typeof config === 'string' ? config : (config as { text: string }).text;
      submitted.push(text.replace(/\s+/g, ' ').trim());
      return query.apply(client, args);
    };
    stream._write = (...args) => {
      wrote();
      write.apply(stream, args);
    };
    if (writev) {
      stream._writev = (...args) => {
        wrote();
        writev.apply(stream, args);
      };
    }
    client.release = (error?: Error) => {
      Object.assign(client, { query });
      delete (stream as Partial<typeof stream>)._write;
      delete (stream as Partial<typeof stream>)._writev;
      watch.released.push(error);
      release.call(client, error);
    };
    return client;
  }

  const spy = jest.spyOn(pool, 'connect').mockImplementation((callback) => {
    const watched = connect().then(instrument);
    if (!callback) return watched;
    watched.then(
      (client) => callback(undefined, client, (error?: Error) => client.release(error)),
      (error: Error) => callback(error),
    );
    return undefined;
  });
  return watch;
}
