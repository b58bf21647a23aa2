// The embedded database's thread (see pgdata-template.ts, servePglite, which starts it): PGlite on
// one data folder, served on a random loopback port by pglite-socket, one connection at a time
// (docs/decisions/0001-pglite-behind-a-socket.md). On a thread of its own, PostgreSQL's work in
// WebAssembly (opening the folder, then every statement) runs beside the application's event loop
// instead of on it (docs/decisions/0016-chat-path-cost.md, "Start-up: the database on its own thread").
// Plain JavaScript on purpose: the same file runs from src/ under the tests and from dist/ (copied
// by the TypeScript build, allowJs), with no TypeScript loader in the thread.
//
// workerData: {pgdata, sharedBuffers, setupSql}: setupSql, when given, runs before anyone can connect.
// Posts {type: 'ready', host, port} or {type: 'failed', message}; on the message 'stop' it closes
// the server and the database and posts {type: 'stopped'} (or 'failed').
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const HOST = '127.0.0.1';

function failed(error) {
  return { type: 'failed', message: error instanceof Error ? error.message : String(error) };
}

async function open({ pgdata, sharedBuffers, setupSql }) {
  // pgvector is loaded on every start: a data folder whose passages were embedded has vector columns.
  const db = await PGlite.create({
    dataDir: pgdata,
    extensions: { vector },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`],
  });
  try {
    if (setupSql) await db.exec(setupSql);
    const server = new PGLiteSocketServer({ db, host: HOST, port: 0, maxConnections: 1 });
    await server.start();
    return { db, server };
  } catch (error) {
    await db.close();
    throw error;
  }
}

try {
  const { db, server } = await open(workerData);
  parentPort.once('message', async () => {
    try {
      await server.stop();
      await db.close();
      parentPort.postMessage({ type: 'stopped' });
    } catch (error) {
      parentPort.postMessage(failed(error));
    }
  });
  const port = Number(server.getServerConn().split(':').pop());
  parentPort.postMessage({ type: 'ready', host: HOST, port });
} catch (error) {
  parentPort.postMessage(failed(error));
}
