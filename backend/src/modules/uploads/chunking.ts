import { DOCUMENT_CHUNK_CHARS } from '../../common/constants.js';

/** A passage of a document, as stored in `document_chunks`. */
export interface Chunk {
  /** 1-based page the passage starts on. */
  page: number;
  /** 0-based position of the passage in the document. */
  ordinal: number;
  content: string;
}

export interface ChunkOptions {
  /** A passage that reached this many characters ends at the next page break. */
  min: number;
  /** No passage is longer than this. */
  max: number;
}

interface Piece {
  page: number;
  text: string;
}

/**
 * Text as PostgreSQL can store and search it: control characters (NUL is refused by `text`
 * columns) and runs of whitespace become one space; words hyphenated across a line are joined.
 */
export function cleanText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g, ' ')
      .replace(/(\p{L})-\s*\n\s*(\p{Ll})/gu, '$1$2')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** Splits clean text into sentences (keeping their punctuation); overlong ones are cut at spaces. */
function sentences(text: string, max: number): string[] {
  const out: string[] = [];
  for (const sentence of text.split(/(?<=[.!?;:])\s+/)) {
    let rest = sentence;
    while (rest.length > max) {
      const cut = rest.lastIndexOf(' ', max);
      // A cut in the first half would leave a tiny piece: cut the word instead.
      const at = cut > max / 2 ? cut : max;
      out.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
    if (rest) out.push(rest);
  }
  return out;
}

/**
 * Splits a document's pages into passages for retrieval: sentences are packed greedily up to
 * `max` characters; a passage of at least `min` characters closes at a page break, so most
 * passages lie on one page and carry the number of the page they start on. Nothing is dropped
 * or reordered: joining the passages with spaces gives the cleaned text of the pages.
 */
export function chunkPages(pages: readonly string[], options: ChunkOptions = DOCUMENT_CHUNK_CHARS): Chunk[] {
  const { min, max } = options;
  if (!(min > 0 && max >= min)) throw new RangeError('chunkPages needs 0 < min <= max.');
  const pieces: Piece[] = [];
  pages.forEach((text, index) => {
    for (const sentence of sentences(cleanText(text), max)) pieces.push({ page: index + 1, text: sentence });
  });

  const chunks: Chunk[] = [];
  let current: { page: number; lastPage: number; text: string } | null = null;
  const flush = () => {
    if (current) chunks.push({ page: current.page, ordinal: chunks.length, content: current.text });
    current = null;
  };
  for (const piece of pieces) {
    if (current) {
      const pageBreak = piece.page !== current.lastPage;
      const fits = current.text.length + 1 + piece.text.length <= max;
      if (!fits || (pageBreak && current.text.length >= min)) {
        flush();
      }
    }
    if (current) {
      current.text += ` ${piece.text}`;
      current.lastPage = piece.page;
    } else {
      current = { page: piece.page, lastPage: piece.page, text: piece.text };
    }
  }
  flush();
  return chunks;
}
