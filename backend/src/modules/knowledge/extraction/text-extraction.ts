import { DOCUMENT_MAX_TEXT_CHARS } from '../../../common/constants.js';
import type { SourceFormat } from '../bot-source.entity.js';
import { extractFileText, UnreadableFileError, type WorkerFormat } from './file-text.js';

/** A source's text, page by page (one page for formats without pages). */
export interface ExtractedText {
  /** A PDF's page count; null for formats without pages. */
  pageCount: number | null;
  pages: string[];
}

/** A file whose text cannot be read; the message is the sentence the owner sees. */
export class UnreadableSourceError extends Error {}

export { htmlMainText } from '../website/html-text.mjs';
export { csvAsText, markdownAsText, parseCsv } from './text-formats.mjs';

async function workerText(format: WorkerFormat, bytes: Buffer): Promise<string> {
  try {
    return await extractFileText(format, bytes);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw new UnreadableSourceError(error.message);
    throw error;
  }
}

/**
 * The text of a file of a known format other than PDF (PDFs go through the reference document's
 * extraction, which knows about passwords and page limits), read in a child process with a time
 * and memory limit (HTML by the crawler's page reader). At most DOCUMENT_MAX_TEXT_CHARS
 * characters are kept.
 */
export async function extractText(format: Exclude<SourceFormat, 'pdf'>, bytes: Buffer): Promise<ExtractedText> {
  const text = await workerText(format, bytes);
  return { pageCount: null, pages: [text.slice(0, DOCUMENT_MAX_TEXT_CHARS)] };
}
