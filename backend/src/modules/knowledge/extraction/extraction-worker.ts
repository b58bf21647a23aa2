import { Worker } from 'node:worker_threads';
import { HttpStatus } from '@nestjs/common';
import { AppError } from '../../../common/app-error.js';
import { ConcurrencyLimit } from '../../../common/concurrency-limit.js';
import { DOCUMENT_EXTRACTION } from '../../../common/constants.js';

/**
 * The worker-thread plumbing every reader of uploaded or crawled content shares (PDFs in
 * pdf-text.ts; other files and crawled pages in file-text.ts): one queue for all of them, a worker
 * started with a heap limit, and its reply awaited within a time limit and a process-growth limit.
 */

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

export function startExtractionWorker(
  url: URL,
  workerData: Record<string, unknown>,
  transferList: ArrayBuffer[],
  limits: ExtractionLimits,
): Worker {
  return new Worker(url, {
    workerData,
    transferList,
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
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
 * The worker's next reply, read by `outcomes.read`, or `outcomes.tooComplex()` when it passes the
 * time limit, its heap limit, or grows the process by more than `memoryMb` meanwhile. The worker
 * is ended on any failure; after an answer, only when `endAfter`. When `signal` fires, the worker
 * is ended and the wait rejects with the signal's reason.
 */
export function awaitWorkerReply<Reply, T>(
  worker: Worker,
  limits: ExtractionLimits,
  outcomes: WorkerOutcomes<Reply, T>,
  signal?: AbortSignal,
  endAfter = true,
): Promise<T> {
  const baselineRss = process.memoryUsage.rss();
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
      if (!answered || endAfter) void worker.terminate();
      outcome();
    };
    const tooComplex = () => finish(false, () => reject(outcomes.tooComplex()));
    const aborted = () =>
      finish(false, () => reject(signal?.reason instanceof Error ? signal.reason : new Error('The read was stopped.')));
    const onMessage = (reply: Reply) =>
      // An executor that throws rejects its promise: the refusal `read` throws becomes the answer.
      finish(true, () => resolve(new Promise<T>((answer) => answer(outcomes.read(reply)))));
    const onError = (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') tooComplex();
      else finish(false, () => reject(error));
    };
    const onExit = (code: number) => finish(false, () => reject(outcomes.stopped(code)));
    signal?.addEventListener('abort', aborted, { once: true });
    const timer = setTimeout(tooComplex, limits.timeoutMs);
    // Inflated data may live outside the worker's heap limit: watch the process too.
    const watchdog = setInterval(() => {
      if (process.memoryUsage.rss() - baselineRss > limits.memoryMb * MB) tooComplex();
    }, MEMORY_CHECK_MS);
    watchdog.unref();
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}
