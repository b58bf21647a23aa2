import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../support/app-server.js';

/**
 * Fixtures for widget.spec.ts: the fake API (widget-fake-api.mjs, in its own process) and a
 * hostile customer site on 127.0.0.2, another origin than the API's 127.0.0.1.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: string;
}

export interface FakeApi {
  origin: string;
  refusalText: string;
  /** Every request the API received, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

type ApiMessage =
  { type: 'ready'; origin: string; refusalText: string } | { type: 'request'; request: RecordedRequest };

export function startFakeApi(): Promise<FakeApi> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'widget-fake-api.mjs');
  const child = fork(script, [path.join(REPO_ROOT, 'widget', 'dist')], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const requests: RecordedRequest[] = [];
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`The fake API exited with code ${code}`)));
    child.on('message', (m: ApiMessage) => {
      if (m.type == 'request') requests.push(m.request);
      else
        resolve({
          origin: m.origin,
          refusalText: m.refusalText,
          requests,
          close: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill();
            }),
        });
    });
  });
}

/** Tries to restyle, hide and move everything, with !important. */
const HOSTILE_CSS = `
* { all: unset !important; }
* { color: #ff0000 !important; background: #ffff00 !important; font: 40px/3 serif !important;
    --bubble: #ff0000 !important; --slot: 7 !important; }
html, body { display: block !important; }
body { margin: 0 !important; min-height: 2000px !important; }
button, div, textarea, form { display: none !important; }
botsmith-widget, botsmith-widget * { display: none !important; opacity: 0 !important;
    transform: scale(0) !important; position: absolute !important; pointer-events: none !important; }
`;

/**
 * Records CSP violations where the spec can read them (an inline script would itself be blocked),
 * and logs each of the widget's performance marks to the console as it happens, so the timing
 * test can wait for a mark without polling the page (polling runs on the very main thread whose
 * time is being measured).
 */
const HOST_JS = `
window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__csp.push(e.violatedDirective + ' ' + e.blockedURI);
});
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (m) {
    if (m.name.indexOf('botsmith:') == 0) console.log(m.name);
  });
}).observe({ type: 'mark', buffered: true });
document.addEventListener('click', function (e) {
  if (e.target && e.target.id == 'host-open' && window.Botsmith) window.Botsmith.open();
});
`;

export interface HostSite {
  origin: string;
  close(): Promise<void>;
}

/**
 * The customer's site. `/page?bots=1,2&mode=preview|inline&head=1&dir=rtl` (any path) embeds one
 * snippet per bot id, the same id twice allowed; its own "Chat with us" button (#host-open) opens
 * the chat through `window.Botsmith` (host.js). Its CSP allows scripts and connections to the API's origin
 * only, no inline script or style at all, and requires Trusted Types.
 */
export async function startHostSite(apiOrigin: string): Promise<HostSite> {
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${apiOrigin}`,
    `connect-src ${apiOrigin}`,
    `img-src ${apiOrigin}`,
    "style-src 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "form-action 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname == '/hostile.css') {
      res.writeHead(200, { 'Content-Type': 'text/css' }).end(HOSTILE_CSS);
      return;
    }
    if (url.pathname == '/host.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(HOST_JS);
      return;
    }
    const ids = (url.searchParams.get('bots') ?? '').split(',').filter(Boolean);
    const mode = url.searchParams.get('mode');
    const attr = mode == 'preview' ? ' data-preview="true"' : mode == 'inline' ? ' data-inline="true"' : '';
    // head=1: the snippet in <head> without async, so it runs before <body> exists.
    const inHead = url.searchParams.get('head') == '1';
    const snippets = ids
      .map((id) => `<script src="${apiOrigin}/widget.js" data-bot-id="${id}"${attr}${inHead ? '' : ' async'}></script>`)
      .join('\n');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp });
    res.end(`<!doctype html>
<html lang="en"${url.searchParams.get('dir') == 'rtl' ? ' dir="rtl"' : ''}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Customer site</title><link rel="stylesheet" href="/hostile.css"><script src="/host.js"></script>
${inHead ? snippets : ''}</head>
<body><h1>A customer's site</h1><p>Content the widget must not disturb.</p>
<a href="/other?bots=${ids.join(',')}">Another page</a>
<button type="button" id="host-open">Chat with us</button>
${inHead ? '' : snippets}
</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return {
    origin: `http://127.0.0.2:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
