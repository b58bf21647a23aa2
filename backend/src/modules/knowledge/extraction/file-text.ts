import {
  DOCUMENT_EXTRACTION,
  DOCUMENT_MAX_TEXT_CHARS,
  DOCX_MAX_PART_BYTES,
  PAGE_EXTRACTION,
} from '../../../common/constants.js';
import type { ExtractedPage } from '../website/html-text.mjs';
import type { RobotsRules } from '../website/robots.mjs';
import type { Sitemap } from '../website/sitemap.mjs';
import { formatMegabytes } from '../quota.js';
import {
  awaitWorkerReply,
  documentExtractions,
  endExtractionWorker,
  startExtractionWorker,
  type ExtractionLimits,
  type ExtractionWorker,
  type WorkerOutcomes,
} from './extraction-worker.js';

/**
 * Text of uploaded Word documents (DOCX, with mammoth), text, Markdown, CSV and HTML files, in a
 * child process with the PDF reader's time and memory limits: a DOCX is a zip whose XML is parsed
 * synchronously, and a 10 MB Markdown, CSV or HTML file can be written to make its conversion
 * slow (seconds to minutes: the HTML parser takes quadratic time over unclosed nested elements),
 * so one hostile file would otherwise hold the process.
 *
 * Before that, an upload is refused (422) when the zip itself says a part inflates past
 * DOCX_MAX_PART_BYTES (`docxRefusal`); a zip that lies about its sizes is stopped by the worker's
 * limits instead.
 */

export const FILE_TEXT_WORKER_URL = new URL('./file-text.worker.mjs', import.meta.url);

/** The file formats the worker reads (PDFs have their own worker); HTML by the crawler's page reader. */
export type WorkerFormat = 'docx' | 'txt' | 'md' | 'csv' | 'html';

export type FileTextLimits = ExtractionLimits;

/** A file that cannot be read; `message` is the sentence the owner sees. */
export class UnreadableFileError extends Error {
  constructor(
    readonly reason: 'invalid' | 'too-complex',
    message: string,
  ) {
    super(message);
  }
}

export const DOCX_SENTENCES = {
  INVALID: 'This Word document could not be read. It may be damaged or incomplete.',
  TOO_COMPLEX: 'This Word document needs too much time or memory to read. Split it into smaller documents.',
  FILE_TOO_COMPLEX: 'This file needs too much time or memory to read. Split it into smaller files.',
  TOO_LARGE: `This Word document is too large to read: its text would take more than ${formatMegabytes(DOCX_MAX_PART_BYTES)} once unpacked. Split it into smaller documents.`,
} as const;

/** Why a crawled page was skipped (the crawler reports it as reason 'too_complex'). */
const PAGE_TOO_COMPLEX = 'This page needs too much time or memory to read.';

export function extractFileText(
  format: WorkerFormat,
  bytes: Uint8Array,
  limits: FileTextLimits = DOCUMENT_EXTRACTION,
): Promise<string> {
  const tooComplex = format === 'docx' ? DOCX_SENTENCES.TOO_COMPLEX : DOCX_SENTENCES.FILE_TOO_COMPLEX;
  return documentExtractions.run(async () => {
    const worker = startWorker({ format, bytes, maxChars: DOCUMENT_MAX_TEXT_CHARS }, limits);
    try {
      return await awaitWorkerReply(worker, limits, refusals<string>({ tooComplex, invalid: DOCX_SENTENCES.INVALID }));
    } finally {
      endExtractionWorker(worker);
    }
  });
}

/**
 * Reads crawled pages with html-text.mjs (title, main text, links, canonical URL, robots meta),
 * and a crawl's sitemaps and robots.txt files (sitemap.mjs, robots.mjs), in
 * file-text.worker.mjs, under the same concurrency limit as files, within PAGE_EXTRACTION's time
 * and memory per read: a page of unclosed nested elements would otherwise hold the event loop
 * for seconds, and nothing a site sends is parsed in the API's own process. Starting a worker costs more than parsing an ordinary page, so a worker that
 * answered is kept for the next page; one that passed a limit is ended. One reader per crawl;
 * `close()` ends its workers.
 *
 *   const reader = new PageReader();
 *   const page = await reader.read(html, 'https://example.com/', signal);  // ExtractedPage
 *   reader.close();
 *
 * A page past the limits is refused with an UnreadableFileError ('too-complex'); when `signal`
 * fires, the worker is ended and the read rejects with the signal's reason.
 */
export class PageReader {
  private readonly idle = new Set<ExtractionWorker>();
  private closed = false;

  constructor(private readonly limits: FileTextLimits = PAGE_EXTRACTION) {}

  read(html: string, pageUrl: string, signal?: AbortSignal): Promise<ExtractedPage> {
    return this.ask<ExtractedPage>({ html, pageUrl }, signal);
  }

  /** A fetched sitemap (gzip-compressed or not, unpacked to at most `maxBytes`); null if it is none. */
  readSitemap(bytes: Uint8Array, maxBytes: number, signal?: AbortSignal): Promise<Sitemap | null> {
    return this.ask<Sitemap | null>({ read: 'sitemap', bytes, maxBytes }, signal);
  }

  /** A fetched robots.txt, read for `productToken` with at most `maxRules` rules (robots.mjs). */
  readRobots(bytes: Uint8Array, productToken: string, maxRules: number, signal?: AbortSignal): Promise<RobotsRules> {
    return this.ask<RobotsRules>({ read: 'robots', bytes, productToken, maxRules }, signal);
  }

  private ask<T>(message: Record<string, unknown>, signal: AbortSignal | undefined): Promise<T> {
    return documentExtractions.run(async () => {
      signal?.throwIfAborted();
      const worker = this.takeIdle() ?? this.start();
      worker.send(message);
      // A worker that failed is ended by awaitReply; one that answered waits for the next read.
      const value = await awaitWorkerReply(
        worker,
        this.limits,
        refusals<T>({ tooComplex: PAGE_TOO_COMPLEX, invalid: PAGE_TOO_COMPLEX }),
        signal,
        false,
      );
      if (this.closed) endExtractionWorker(worker);
      else this.idle.add(worker);
      return value;
    });
  }

  close(): void {
    this.closed = true;
    for (const worker of this.idle) endExtractionWorker(worker);
    this.idle.clear();
  }

  private takeIdle(): ExtractionWorker | undefined {
    const [worker] = this.idle;
    this.idle.delete(worker);
    return worker;
  }

  private start(): ExtractionWorker {
    const worker = startWorker({ format: 'pages' }, this.limits);
    // An idle reader must not keep the process alive, and one that died is not used again.
    worker.unref();
    worker.channel?.unref();
    worker.once('exit', () => this.idle.delete(worker));
    return worker;
  }
}

function startWorker(workerData: Record<string, unknown>, limits: FileTextLimits): ExtractionWorker {
  return startExtractionWorker(FILE_TEXT_WORKER_URL, workerData, limits);
}

/**
 * The worker answers `{ok: true, value}`, or `{ok: false}`: the `invalid` sentence; past a limit,
 * the `tooComplex` sentence.
 */
function refusals<T>(sentences: {
  tooComplex: string;
  invalid: string;
}): WorkerOutcomes<{ ok: true; value: T } | { ok: false }, T> {
  return {
    read: (reply) => {
      if (reply.ok) return reply.value;
      throw new UnreadableFileError('invalid', sentences.invalid);
    },
    tooComplex: () => new UnreadableFileError('too-complex', sentences.tooComplex),
    stopped: (code) => new Error(`The file text worker stopped (exit code ${code}) before answering.`),
  };
}

/**
 * Why a DOCX upload is refused before it is stored, or null: an XML part of the zip (the
 * document, its styles, notes, relationships: what the reader parses) that says it inflates past
 * `maxPartBytes`, or whose size needs ZIP64 (4 GB and up). Read from the zip's central
 * directory, without inflating anything. A zip without a readable directory is left to the
 * reader, which fails it with a sentence.
 */
export function docxRefusal(bytes: Buffer, maxPartBytes = DOCX_MAX_PART_BYTES): string | null {
  for (const entry of zipEntries(bytes) ?? []) {
    if (!/\.(xml|rels)$/i.test(entry.name)) continue;
    if (entry.uncompressedSize === 0xffffffff || entry.uncompressedSize > maxPartBytes) return DOCX_SENTENCES.TOO_LARGE;
  }
  return null;
}

interface ZipEntry {
  name: string;
  uncompressedSize: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;

/** The entries a zip's central directory lists; null when there is no readable directory. */
export function zipEntries(bytes: Buffer): ZipEntry[] | null {
  // The end record is 22 bytes plus a comment of at most 65,535 bytes, at the end of the file.
  const earliest = Math.max(0, bytes.length - 22 - 0xffff);
  let end = -1;
  for (let at = bytes.length - 22; at >= earliest; at -= 1) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) return null;
    const uncompressedSize = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    if (at + 46 + nameLength > bytes.length) return null;
    entries.push({ name: bytes.toString('utf8', at + 46, at + 46 + nameLength), uncompressedSize });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
