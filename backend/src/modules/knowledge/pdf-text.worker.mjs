// The PDF text extractor, a child process (see pdf-text.ts, which starts it with a time and
// memory limits, through extraction/extraction-worker.ts). Plain JavaScript on purpose: the same
// file runs from src/ under the tests and from dist/ (copied by the TypeScript build, allowJs),
// with no TypeScript loader in the child.
//
// Reads its first message {bytes: Uint8Array, maxPages, maxChars}, answers one message:
//   {ok: true, pageCount, pages}  or  {ok: false, reason: 'password' | 'invalid'}.
//
// unpdf is Mozilla pdf.js packaged for servers. Script evaluation inside PDFs (isEvalSupported)
// stays off: the files come from the internet.
import { firstMessage, reply } from './extraction/extraction-channel.mjs';

async function extract({ bytes, maxPages, maxChars }) {
  const { getDocumentProxy } = await import('unpdf');
  let pdf;
  try {
    // The channel may hand the bytes over as a Buffer, which pdf.js refuses: a plain view of them.
    pdf = await getDocumentProxy(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      isEvalSupported: false,
      verbosity: 0,
      disableFontFace: true,
      stopAtErrors: false,
    });
  } catch (error) {
    return { ok: false, reason: error?.name === 'PasswordException' ? 'password' : 'invalid' };
  }
  try {
    const pages = [];
    let total = 0;
    const readable = Math.min(pdf.numPages, maxPages);
    for (let number = 1; number <= readable && total < maxChars; number += 1) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : ''))
        .join('')
        .slice(0, maxChars - total);
      total += text.length;
      pages.push(text);
      page.cleanup();
    }
    return { ok: true, pageCount: pdf.numPages, pages };
  } catch {
    return { ok: false, reason: 'invalid' };
  } finally {
    await pdf.destroy();
  }
}

reply(await extract(await firstMessage));
