import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HttpStatus } from '@nestjs/common';
import { AppError } from '../../../common/app-error.js';
import { ConcurrencyLimit } from '../../../common/concurrency-limit.js';
import { DOCUMENT_EXTRACTION } from '../../../common/constants.js';

/**
 * The plumbing every reader of uploaded or crawled content shares (PDFs in pdf-text.ts; other
 * files and crawled pages in file-text.ts): one queue for all of them, a reader started as a
 * child process with a heap limit, and its reply awaited within a time limit and a memory-growth
 * limit.
 *
 * A child process, not a worker thread: a worker thread shares the API's process, and when a
 * hostile file makes pdf.js allocate faster than V8 can stop the worker at its heap limit, V8 ends
 * the whole process ("Reached heap limit"), every request with it. It happened on Node 24 with a
 * compression bomb (test/integration/uploads.spec.ts). A child that dies that way takes nothing
 * else down: its upload is refused as too complex.
 */

/** A reader: a child process that answers the messages it is sent (extraction-channel.mjs). */
export type ExtractionWorker = ChildProcess;

export interface ExtractionLimits {
  timeoutMs: number;
  heapMb: number;
  memoryMb: number;
}

const MB = 1024 * 1024;
/** How often the process's memory is looked at while a worker runs. */
const MEMORY_CHECK_MS = 50;

/**
 * One queue for the whole process, PDFs, files and pages alike: each extraction may hold up to
 * `memoryMb`, so DOCUMENT_EXTRACTION.concurrency bounds them together (docs/product.md).
 */
export const documentExtractions = new ConcurrencyLimit(
  DOCUMENT_EXTRACTION.concurrency,
  DOCUMENT_EXTRACTION.maxQueued,
  () =>
    new AppError(
      HttpStatus.SERVICE_UNAVAILABLE,
      'DOCUMENTS_BUSY',
      'Too many documents are being read right now. Please try again in a moment.',
      { 'Retry-After': '10' },
    ),
);

/**
 * The only variables of the API's environment a reader gets: what a process needs to find
 * programs, read text and tell the time. An allow-list, not a deny-list: a reader parses what
 * owners and crawled sites supply, so nothing it could leak may be in its reach (STRIPE_SECRET_KEY,
 * SESSION_SECRET, DATABASE_URL, OPENAI_API_KEY, SMTP_URL, REDIS_URL, or a secret added later under
 * any name). Its limits are its command-line flags, not NODE_OPTIONS, which is left out too.
 */
export const READER_ENVIRONMENT = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR'] as const;

/** The reader's environment: READER_ENVIRONMENT's variables that are set here, nothing else. */
export function readerEnvironment(from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of READER_ENVIRONMENT) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/**
 * Starts the reader at `url` and sends it `workerData` (structured clone: typed arrays arrive as
 * such). Its JavaScript heap is limited to `limits.heapMb`; its output is discarded (a reader that
 * dies says why through its exit, see awaitWorkerReply). The parent's own flags are not passed on,
 * nor its environment (readerEnvironment).
 */
export function startExtractionWorker(
  url: URL,
  workerData: Record<string, unknown>,
  limits: ExtractionLimits,
): ExtractionWorker {
  const child = fork(fileURLToPath(url), [], {
    execArgv: [`--max-old-space-size=${limits.heapMb}`, '--max-semi-space-size=8'],
    env: readerEnvironment(),
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  // A reader that could not start reports it through 'error', which awaitWorkerReply listens to.
  child.send(workerData, (error) => error && child.emit('error', error));
  return child;
}

/** Ends a reader at once (it may be stuck in a loop that would never read a polite request). */
export function endExtractionWorker(worker: ExtractionWorker): void {
  if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
}

/**
 * The resident memory of a process in bytes, from Linux's /proc (the API's platform); null where
 * there is none, and then only the time and heap limits hold a reader.
 */
export function residentBytes(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/** What a worker's reply, a passed limit, and an early exit each become for one kind of reader. */
export interface WorkerOutcomes<Reply, T> {
  /** The answer a reply carries; throws the error a refusing reply stands for. */
  read(reply: Reply): T;
  /** The error for a worker past its time, heap or process-growth limit. */
  tooComplex(): Error;
  /** The error for a worker that ended without answering. */
  stopped(exitCode: number): Error;
}

/**
 * The reader's next reply, read by `outcomes.read`, or `outcomes.tooComplex()` when it passes the
 * time limit, dies at its heap limit (or of any signal), or grows by more than `memoryMb`
 * meanwhile. The reader is ended on any failure; after an answer, only when `endAfter`. When
 * `signal` fires, the reader is ended and the wait rejects with the signal's reason.
 */
export function awaitWorkerReply<Reply, T>(
  worker: ExtractionWorker,
  limits: ExtractionLimits,
  outcomes: WorkerOutcomes<Reply, T>,
  signal?: AbortSignal,
  endAfter = true,
): Promise<T> {
  const baselineRss = residentBytes(worker.pid);
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (answered: boolean, outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watchdog);
      signal?.removeEventListener('abort', aborted);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (!answered || endAfter) endExtractionWorker(worker);
      outcome();
    };
    const tooComplex = () => finish(false, () => reject(outcomes.tooComplex()));
    const aborted = () =>
      finish(false, () => reject(signal?.reason instanceof Error ? signal.reason : new Error('The read was stopped.')));
    const onMessage = (reply: Reply) =>
      // An executor that throws rejects its promise: the refusal `read` throws becomes the answer.
      finish(true, () => resolve(new Promise<T>((answer) => answer(outcomes.read(reply)))));
    const onError = (error: Error) => finish(false, () => reject(error));
    // V8 aborts a process past its heap limit (SIGABRT; 134 through a shell): the file needed too
    // much. Any other death by a signal is the same for the owner. An exit code is a reader's bug.
    const onExit = (code: number | null, signalName: NodeJS.Signals | null) => {
      if (signalName !== null || code === 134) tooComplex();
      else finish(false, () => reject(outcomes.stopped(code ?? -1)));
    };
    signal?.addEventListener('abort', aborted, { once: true });
    const timer = setTimeout(tooComplex, limits.timeoutMs);
    // Inflated data may live outside the reader's heap limit: watch its whole memory too.
    const watchdog = setInterval(() => {
      const rss = residentBytes(worker.pid);
      if (rss !== null && baselineRss !== null && rss - baselineRss > limits.memoryMb * MB) tooComplex();
    }, MEMORY_CHECK_MS);
    watchdog.unref();
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}
