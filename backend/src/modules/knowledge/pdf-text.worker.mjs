// The PDF text extractor's worker thread (see pdf-text.ts, which starts it with a time and a
// memory limit). Plain JavaScript on purpose: the same file runs from src/ under the tests and
// from dist/ (copied by the TypeScript build, allowJs), with no TypeScript loader in a worker.
//
// Reads `workerData` {bytes: Uint8Array, maxPages, maxChars}, posts one message:
//   {ok: true, pageCount, pages}  or  {ok: false, reason: 'password' | 'invalid'}.
//
// unpdf is Mozilla pdf.js packaged for servers. Script evaluation inside PDFs (isEvalSupported)
// stays off: the files come from the internet.
import { parentPort, workerData } from 'node:worker_threads';

async function extract({ bytes, maxPages, maxChars }) {
  const { getDocumentProxy } = await import('unpdf');
  let pdf;
  try {
    pdf = await getDocumentProxy(bytes, {
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

parentPort.postMessage(await extract(workerData));
