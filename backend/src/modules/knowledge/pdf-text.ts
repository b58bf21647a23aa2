import { DOCUMENT_EXTRACTION, DOCUMENT_MAX_PAGES, DOCUMENT_MAX_TEXT_CHARS } from '../../common/constants.js';
import {
  awaitWorkerReply,
  documentExtractions,
  startExtractionWorker,
  type ExtractionLimits,
  type WorkerOutcomes,
} from './extraction/extraction-worker.js';

/**
 * Text extraction from PDFs with unpdf (Mozilla pdf.js packaged for servers), in a worker thread:
 * pdf.js parses synchronously, so on the main thread one hostile PDF (a compression bomb) would
 * stop every other request for as long as it takes, and could grow the process without bound.
 * The worker runs with a time limit and memory limits, and is terminated when it passes one; it
 * waits its turn in the queue every document extraction shares (extraction/extraction-worker.ts).
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

type WorkerReply = { ok: true; pageCount: number; pages: string[] } | { ok: false; reason: 'password' | 'invalid' };

const PDF_OUTCOMES: WorkerOutcomes<WorkerReply, PdfText> = {
  read: (reply) => {
    if (reply.ok) return { pageCount: reply.pageCount, pages: reply.pages };
    if (reply.reason === 'password') throw new UnreadablePdfError('password', 'The PDF is password-protected.');
    throw new UnreadablePdfError('invalid', 'The PDF could not be read.');
  },
  tooComplex: () => new UnreadablePdfError('too-complex', 'The PDF needs too much time or memory to read.'),
  stopped: (code) => new Error(`The PDF worker stopped (exit code ${code}) before answering.`),
};

export function extractPdfText(bytes: Uint8Array, limits: ExtractionLimits = DOCUMENT_EXTRACTION): Promise<PdfText> {
  return documentExtractions.run(() => {
    // The worker owns its own copy (transferred, not cloned a second time).
    const copy = new Uint8Array(bytes);
    const worker = startExtractionWorker(
      PDF_WORKER_URL,
      { bytes: copy, maxPages: DOCUMENT_MAX_PAGES, maxChars: DOCUMENT_MAX_TEXT_CHARS },
      [copy.buffer],
      limits,
    );
    return awaitWorkerReply(worker, limits, PDF_OUTCOMES);
  });
}
