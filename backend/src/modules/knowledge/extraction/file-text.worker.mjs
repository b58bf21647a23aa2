// The worker thread that reads the text of uploaded files other than PDFs, and crawled pages (see
// file-text.ts, which starts it with a time and a memory limit). Plain JavaScript on purpose,
// like the PDF worker: the same file runs from src/ under the tests and from dist/ (copied by
// the TypeScript build, allowJs).
//
// Reads `workerData`, either {format: 'docx' | 'txt' | 'md' | 'csv' | 'html', bytes: Uint8Array,
// maxChars} (a file: posts one message, {ok: true, value: text} or {ok: false} for a Word document
// that cannot be read), or {format: 'pages'}: then it reads crawled pages {html, pageUrl} as they
// are posted, one at a time, and answers each with {ok: true, value: everything extractPage finds}.
import { parentPort, workerData } from 'node:worker_threads';
import { extractPage, htmlMainText } from '../website/html-text.mjs';
import { csvAsText, markdownAsText } from './text-formats.mjs';

async function extract({ format, bytes, maxChars }) {
  if (format === 'docx') {
    const mammoth = (await import('mammoth')).default;
    try {
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const result = await mammoth.extractRawText({ buffer });
      return { ok: true, value: result.value.slice(0, maxChars) };
    } catch {
      return { ok: false };
    }
  }
  const text = new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes);
  if (format === 'md') return { ok: true, value: markdownAsText(text).slice(0, maxChars) };
  if (format === 'csv') return { ok: true, value: csvAsText(text).slice(0, maxChars) };
  if (format === 'html') return { ok: true, value: htmlMainText(text).text.slice(0, maxChars) };
  return { ok: true, value: text.slice(0, maxChars) };
}

if (workerData.format === 'pages') {
  parentPort.on('message', ({ html, pageUrl }) => {
    parentPort.postMessage({ ok: true, value: extractPage(html, pageUrl) });
  });
} else {
  parentPort.postMessage(await extract(workerData));
}
