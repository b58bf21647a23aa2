import { DOCUMENT_CHUNK_CHARS } from '../../common/constants.js';

/** A passage of a document, as stored in `document_chunks`. */
export interface Chunk {
  /** 1-based page most of the passage's text is on (the earlier one on a tie). */
  page: number;
  /** 0-based position of the passage in the document. */
  ordinal: number;
  content: string;
}

export interface ChunkOptions {
  /** A passage ends once it has this many characters, or a quarter of them at a page break. */
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
      // Spaces before the line break exclude newlines: `-\s*\n\s*` backtracks quadratically on a
      // long run of newlines (a PDF of "a-" and 20,000 line breaks took 0.4 s, a megabyte hours).
      .replace(/(\p{L})-[^\S\n]*\n\s*(\p{Ll})/gu, '$1$2')
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
 * `max` characters; a passage closes at a page break once it has a quarter of `min` characters
 * (else at `min`), so most passages lie on one page. A short page end carried into the next page's passage would cite the
 * wrong page if the passage took the page it starts on, so it takes the page holding most of its
 * text. Nothing is dropped or reordered: joining the passages with spaces gives the cleaned text
 * of the pages.
 */
export function chunkPages(pages: readonly string[], options: ChunkOptions = DOCUMENT_CHUNK_CHARS): Chunk[] {
  const { min, max } = options;
  if (!(min > 0 && max >= min)) throw new RangeError('chunkPages needs 0 < min <= max.');
  // A page's last passage closes at the break once it is a paragraph long, so the end of a page
  // is cited by its own page; only a few lines are carried into the next page's passage.
  const pageEndMin = Math.ceil(min / 4);
  const pieces: Piece[] = [];
  pages.forEach((text, index) => {
    for (const sentence of sentences(cleanText(text), max)) pieces.push({ page: index + 1, text: sentence });
  });

  const chunks: Chunk[] = [];
  let current: { charsByPage: Map<number, number>; lastPage: number; text: string } | null = null;
  const flush = () => {
    if (current) chunks.push({ page: mainPage(current.charsByPage), ordinal: chunks.length, content: current.text });
    current = null;
  };
  for (const piece of pieces) {
    if (current) {
      const pageBreak = piece.page !== current.lastPage;
      const fits = current.text.length + 1 + piece.text.length <= max;
      if (!fits || (pageBreak && current.text.length >= pageEndMin)) {
        flush();
      }
    }
    if (current) {
      current.text += ` ${piece.text}`;
      current.lastPage = piece.page;
    } else {
      current = { charsByPage: new Map(), lastPage: piece.page, text: piece.text };
    }
    current.charsByPage.set(piece.page, (current.charsByPage.get(piece.page) ?? 0) + piece.text.length);
  }
  flush();
  return chunks;
}

/** The page holding the most characters; pages are inserted in order, so a tie keeps the earlier. */
function mainPage(charsByPage: ReadonlyMap<number, number>): number {
  let best = 0;
  let bestChars = -1;
  for (const [page, chars] of charsByPage) {
    if (chars > bestChars) [best, bestChars] = [page, chars];
  }
  return best;
}
