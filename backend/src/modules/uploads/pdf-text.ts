import { DOCUMENT_MAX_PAGES, DOCUMENT_MAX_TEXT_CHARS } from '../../common/constants.js';

/**
 * Text extraction from PDFs with unpdf (Mozilla pdf.js packaged for servers; maintained by UnJS).
 * unpdf 1.4's bundled pdf.js polyfills `Promise.withResolvers` itself, so it runs on Node 20
 * without help (checked: extraction works on Node 20.20, where the built-in is missing).
 * Script evaluation inside PDFs (`isEvalSupported`) stays off: the files come from the internet.
 */

export interface PdfText {
  pageCount: number;
  /** The text of each page, in order (at most DOCUMENT_MAX_PAGES pages are read). */
  pages: string[];
}

export class UnreadablePdfError extends Error {
  constructor(
    readonly reason: 'invalid' | 'password',
    message: string,
  ) {
    super(message);
  }
}

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

/** The part of pdf.js's PDFDocumentProxy used here (its bundled types do not resolve for every tool). */
interface PdfDocumentLike {
  numPages: number;
  getPage(pageNumber: number): Promise<{ getTextContent(): Promise<{ items: unknown[] }>; cleanup(): unknown }>;
  destroy(): Promise<void>;
}

export async function extractPdfText(bytes: Uint8Array): Promise<PdfText> {
  const { getDocumentProxy } = await import('unpdf');
  const open = getDocumentProxy as unknown as (data: Uint8Array, options: object) => Promise<PdfDocumentLike>;
  let pdf: PdfDocumentLike;
  try {
    // pdf.js may take ownership of the array it is given: hand it a copy.
    pdf = await open(new Uint8Array(bytes), {
      isEvalSupported: false,
      verbosity: 0,
      disableFontFace: true,
      stopAtErrors: false,
    });
  } catch (error) {
    const name = (error as { name?: string } | null)?.name;
    if (name === 'PasswordException') {
      throw new UnreadablePdfError('password', 'The PDF is password-protected.');
    }
    throw new UnreadablePdfError('invalid', `The PDF could not be read (${name ?? 'error'}).`);
  }
  try {
    const pages: string[] = [];
    let total = 0;
    const readable = Math.min(pdf.numPages, DOCUMENT_MAX_PAGES);
    for (let number = 1; number <= readable && total < DOCUMENT_MAX_TEXT_CHARS; number += 1) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const text = (content.items as TextItemLike[])
        .map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : ''))
        .join('')
        .slice(0, DOCUMENT_MAX_TEXT_CHARS - total);
      total += text.length;
      pages.push(text);
      page.cleanup();
    }
    return { pageCount: pdf.numPages, pages };
  } catch (error) {
    if (error instanceof UnreadablePdfError) throw error;
    throw new UnreadablePdfError('invalid', 'The PDF could not be read.');
  } finally {
    await pdf.destroy();
  }
}
