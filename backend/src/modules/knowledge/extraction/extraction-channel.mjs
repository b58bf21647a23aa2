// The extraction scripts' side of their link to the API (see extraction-worker.ts, which forks
// each reader as a child process with a heap limit). Plain JavaScript, like the readers.
//
// `firstMessage` is what the API sent when it started the reader (its `workerData`); later
// messages reach `onMessage`. When the API goes away (its end of the channel closes), the reader
// goes too, so no reader outlives the process that started it.

if (typeof process.send !== 'function') {
  throw new Error('An extraction reader runs as a child process forked by extraction-worker.ts.');
}

process.once('disconnect', () => process.exit(0));

// Messages are queued from the start: several can arrive in one read of the channel (the input
// and the first page), before the reader has set up its handler.
const queued = [];
let handle = (message) => queued.push(message);
process.on('message', (message) => handle(message));

/** The first message from the API: the reader's input. */
export const firstMessage = new Promise((resolve) => {
  handle = (message) => {
    handle = (next) => queued.push(next);
    resolve(message);
  };
});

/** Sends one answer to the API. */
export function reply(message) {
  process.send(message);
}

/** Calls `handler` with each later message from the API, those already here first. */
export function onMessage(handler) {
  handle = handler;
  for (const message of queued.splice(0)) handler(message);
}
