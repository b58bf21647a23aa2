import { DOCUMENT_EXTRACTION, DOCUMENT_MAX_PAGES, DOCUMENT_MAX_TEXT_CHARS } from '../../common/constants.js';
import {
  awaitWorkerReply,
  documentExtractions,
  startExtractionWorker,
  type ExtractionLimits,
  type WorkerOutcomes,
} from './extraction/extraction-worker.js';

/**
 * Text extraction from PDFs with unpdf (Mozilla pdf.js packaged for servers), in a child process:
 * pdf.js parses synchronously, so in the API's process one hostile PDF (a compression bomb) would
 * stop every other request for as long as it takes, grow the process without bound, or end it at
 * its heap limit. The reader runs with a time limit and memory limits, and is ended when it
 * passes one; it waits its turn in the queue every document extraction shares
 * (extraction/extraction-worker.ts).
 *
 * The reader is plain JavaScript beside this file (pdf-text.worker.mjs), found by URL both in
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
  stopped: (code) => new Error(`The PDF reader stopped (exit code ${code}) before answering.`),
};

export function extractPdfText(bytes: Uint8Array, limits: ExtractionLimits = DOCUMENT_EXTRACTION): Promise<PdfText> {
  return documentExtractions.run(() => {
    const worker = startExtractionWorker(
      PDF_WORKER_URL,
      { bytes, maxPages: DOCUMENT_MAX_PAGES, maxChars: DOCUMENT_MAX_TEXT_CHARS },
      limits,
    );
    return awaitWorkerReply(worker, limits, PDF_OUTCOMES);
  });
}
