// Website crawler throughput on a loopback site: a first crawl of 500 pages (links, main text
// extracted from pages of ~25 KB with navigation, header, aside and footer), then a refresh
// where every page answers 304 to its ETag, then a refresh where every page is re-read and
// compared by hash (no validators). Prints time, pages per second and peak memory.
//
//   npm run build -w backend && node bench/crawl.mjs [pages=500]
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const dist = path.resolve('backend/dist');
if (!fs.existsSync(path.join(dist, 'modules/knowledge/website/website-crawler.js'))) {
  console.error('backend/dist is missing the crawler: run `npm run build -w backend` first.');
  process.exit(1);
}
const { WebsiteCrawler } = await import(path.join(dist, 'modules/knowledge/website/website-crawler.js'));

const PAGES = Number(process.argv[2] ?? 500);
const paragraph = 'Anvils are forged from a single block of steel and hardened at the face. '.repeat(12);

function body(i) {
  const links = [1, 2, 3, 7, 31].map(
    (step) => `<li><a href="/p${(i + step) % PAGES}">Page ${(i + step) % PAGES}</a></li>`,
  );
  const nav = Array.from({ length: 40 }, (_, n) => `<li><a href="/p${n}">Menu ${n}</a></li>`).join('');
  const main = Array.from({ length: 20 }, (_, n) => `<h2>Section ${n}</h2><p>${paragraph} (${i}.${n})</p>`).join('');
  return `<!doctype html><html><head><title>Page ${i}</title><style>body{font:16px sans-serif}</style></head>
<body><header><nav><ul>${nav}</ul></nav></header><aside>Related</aside>
<main><h1>Page ${i}</h1>${main}<ul>${links.join('')}</ul></main>
<footer>© Acme</footer><script>window.x=1</script></body></html>`;
}

const pages = Array.from({ length: PAGES }, (_, i) => body(i));
let withValidators = true;
const server = http.createServer((request, response) => {
  const match = /^\/p(\d+)$/.exec(request.url ?? '') ?? (request.url === '/' ? [null, '0'] : null);
  if (!match || Number(match[1]) >= PAGES) {
    response.writeHead(404).end();
    return;
  }
  const etag = `"p${match[1]}"`;
  if (withValidators && request.headers['if-none-match'] === etag) {
    response.writeHead(304, { etag }).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(withValidators ? { etag } : {}) });
  response.end(pages[Number(match[1])]);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
const crawler = new WebsiteCrawler({ allowPrivate: true, userAgent: 'BotsmithBot/1.0 (+bench)' });

async function timed(label, options) {
  const started = performance.now();
  const result = await crawler.crawl(`${origin}/`, { maxPages: PAGES, ...options });
  const seconds = (performance.now() - started) / 1000;
  const changed = result.pages.filter((page) => !page.unchanged).length;
  console.log(
    `${label.padEnd(34)} ${String(result.pages.length).padStart(4)} pages (${changed} changed) in ${seconds.toFixed(2)} s` +
      `  = ${(result.pages.length / seconds).toFixed(0)} pages/s`,
  );
  return result;
}

console.log(`site: ${PAGES} pages of ${(pages[0].length / 1024).toFixed(1)} KB, concurrency 2, loopback`);
const first = await timed('first crawl', {});
const previous = new Map(
  first.pages.map((p) => [p.url, { contentHash: p.contentHash, etag: p.etag, lastModified: p.lastModified }]),
);
await timed('refresh, all 304 (ETag)', { previous });
withValidators = false;
await timed('refresh, re-read and hashed', {
  previous: new Map([...previous].map(([url, p]) => [url, { contentHash: p.contentHash }])),
});
const sample = first.pages.find((page) => !page.unchanged);
console.log(`text kept per page: ${sample.text.length} characters of ${pages[0].length} bytes of HTML`);
console.log(`peak RSS: ${(peakRss / 1024 / 1024).toFixed(0)} MB`);
clearInterval(sampler);
server.close();
