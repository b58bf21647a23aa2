// The child process that reads the text of uploaded files other than PDFs, and crawled pages (see
// file-text.ts, which starts it with a time and memory limits through extraction-worker.ts).
// Plain JavaScript on purpose, like the PDF reader: the same file runs from src/ under the tests
// and from dist/ (copied by the TypeScript build, allowJs).
//
// Reads its first message, either {format: 'docx' | 'txt' | 'md' | 'csv' | 'html', bytes:
// Uint8Array, maxChars} (a file: answers one message, {ok: true, value: text} or {ok: false} for a
// Word document that cannot be read), or {format: 'pages'}: then it reads what a crawl fetches
// as it is sent, one at a time, and answers each with {ok: true, value}: a page {html, pageUrl}
// (value: everything extractPage finds), a sitemap {read: 'sitemap', bytes, maxBytes} (value: a
// Sitemap or null) or a robots.txt {read: 'robots', bytes, productToken, maxRules} (value: the
// rules that apply to us). Nothing a site sends is parsed in the API's own process.
import { firstMessage, onMessage, reply } from './extraction-channel.mjs';
import { extractPage, htmlMainText } from '../website/html-text.mjs';
import { readRobots } from '../website/robots.mjs';
import { readSitemap } from '../website/sitemap.mjs';
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

function readCrawled(message) {
  if (message.read === 'sitemap') return readSitemap(message.bytes, message.maxBytes);
  if (message.read === 'robots') return readRobots(message.bytes, message.productToken, message.maxRules);
  return extractPage(message.html, message.pageUrl);
}

const input = await firstMessage;
if (input.format === 'pages') {
  onMessage((message) => reply({ ok: true, value: readCrawled(message) }));
} else {
  reply(await extract(input));
}
