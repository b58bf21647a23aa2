import { Worker } from 'node:worker_threads';
import { HttpStatus } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { ConcurrencyLimit } from '../../common/concurrency-limit.js';
import { DOCUMENT_EXTRACTION, DOCUMENT_MAX_PAGES, DOCUMENT_MAX_TEXT_CHARS } from '../../common/constants.js';

/**
 * Text extraction from PDFs with unpdf (Mozilla pdf.js packaged for servers), in a worker thread:
 * pdf.js parses synchronously, so on the main thread one hostile PDF (a compression bomb) would
 * stop every other request for as long as it takes, and could grow the process without bound.
 * The worker runs with a time limit and memory limits, and is terminated when it passes one.
 *
 * The worker is plain JavaScript beside this file (pdf-text.worker.mjs), found by URL both in
 * src/ (tests) and dist/ (the build copies it).
 */

export const PDF_WORKER_URL = new URL('./pdf-text.worker.mjs', import.meta.url);

export interface PdfText {
  pageCount: number;
  /** The text of each page, in order (at most DOCUMENT_MAX_PAGES pages are read). */
  pages: string[];
}

export class UnreadablePdfError extends Error {
  constructor(
    /** `too-complex`: the PDF needed more time or memory than one document may take. */
    readonly reason: 'invalid' | 'password' | 'too-complex',
    message: string,
  ) {
    super(message);
  }
}

export interface ExtractionLimits {
  timeoutMs: number;
  heapMb: number;
  memoryMb: number;
}

type WorkerReply = { ok: true; pageCount: number; pages: string[] } | { ok: false; reason: 'password' | 'invalid' };

const MB = 1024 * 1024;
/** How often the process's memory is looked at while a worker runs. */
const MEMORY_CHECK_MS = 50;

/** One queue for the whole process: each extraction may hold up to `memoryMb`. */
const extractions = new ConcurrencyLimit(
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

export function extractPdfText(bytes: Uint8Array, limits: ExtractionLimits = DOCUMENT_EXTRACTION): Promise<PdfText> {
  return extractions.run(() => extractInWorker(bytes, limits));
}

function extractInWorker(bytes: Uint8Array, limits: ExtractionLimits): Promise<PdfText> {
  // The worker owns its own copy (transferred, not cloned a second time).
  const copy = new Uint8Array(bytes);
  const worker = new Worker(PDF_WORKER_URL, {
    workerData: { bytes: copy, maxPages: DOCUMENT_MAX_PAGES, maxChars: DOCUMENT_MAX_TEXT_CHARS },
    transferList: [copy.buffer],
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
  const baselineRss = process.memoryUsage.rss();

  return new Promise<PdfText>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watchdog);
      void worker.terminate();
      outcome();
    };
    const tooComplex = () =>
      finish(() => reject(new UnreadablePdfError('too-complex', 'The PDF needs too much time or memory to read.')));

    const timer = setTimeout(tooComplex, limits.timeoutMs);
    // Inflated streams are ArrayBuffers outside the worker's heap limit: watch the process.
    const watchdog = setInterval(() => {
      if (process.memoryUsage.rss() - baselineRss > limits.memoryMb * MB) tooComplex();
    }, MEMORY_CHECK_MS);
    watchdog.unref();

    worker.once('message', (reply: WorkerReply) =>
      finish(() => {
        if (reply.ok) resolve({ pageCount: reply.pageCount, pages: reply.pages });
        else if (reply.reason === 'password')
          reject(new UnreadablePdfError('password', 'The PDF is password-protected.'));
        else reject(new UnreadablePdfError('invalid', 'The PDF could not be read.'));
      }),
    );
    worker.once('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') tooComplex();
      else finish(() => reject(error));
    });
    worker.once('exit', (code) => {
      if (!settled) finish(() => reject(new Error(`The PDF worker stopped (exit code ${code}) before answering.`)));
    });
  });
}
