import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CrawlError } from '../../src/modules/knowledge/website/crawl-error.js';
import { failureOf } from './failure.js';

/** A tiny website on a loopback address for crawler tests; it records every request it gets. */

export interface TestResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Never answer (for timeouts). */
  hang?: boolean;
}

export type TestRoute = TestResponse | ((request: http.IncomingMessage) => TestResponse);

export interface RecordedRequest {
  host: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** performance.now() when the request arrived. */
  at: number;
}

export interface TestWebsite {
  port: number;
  /** http://127.0.0.1:<port> (or the address it listens on). */
  origin: string;
  routes: Map<string, TestRoute>;
  requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  paths(): string[];
  close(): Promise<void>;
}

export async function startTestWebsite(routes: Record<string, TestRoute>, host = '127.0.0.1'): Promise<TestWebsite> {
  const table = new Map(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({ host: request.headers.host ?? '', path, headers: request.headers, at: performance.now() });
    const route = table.get(path);
    const answer: TestResponse =
      route === undefined ? { status: 404, body: 'Not found' } : typeof route === 'function' ? route(request) : route;
    if (answer.hang) return;
    response.writeHead(answer.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...answer.headers });
    response.end(answer.body ?? '');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  let connections = 0;
  server.on('connection', () => connections++);
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return {
    port,
    origin: `http://${hostPart}:${port}`,
    routes: table,
    requests,
    connections: () => connections,
    paths: () => requests.map((request) => request.path),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An HTML page with the chrome the crawler must leave out around `main`. */
export function page(title: string, main: string, links: string[] = [], head = ''): string {
  const anchors = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html><html><head><title>${title}</title>${head}<style>.x{color:red}</style></head>
<body>
<header><p>Site banner text</p><nav><ul>${anchors}<li>Navigation menu text</li></ul></nav></header>
<aside>Sidebar widget text</aside>
<main>${main}</main>
<footer>Footer copyright text</footer>
<script>var trackingScriptText = 1;</script>
</body></html>`;
}

/** The CrawlError `promise` fails with (any other failure is thrown again). */
export function crawlError(promise: Promise<unknown>): Promise<CrawlError> {
  return failureOf(promise, CrawlError);
}
