import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { securityHeaders } from '../../src/app.setup.js';
import { LOGIN_FAILURE_LIMITS } from '../../src/common/constants.js';
import { buildConfig } from '../../src/config/config.js';
import {
  chatAndDisconnectAfterFirstToken,
  createChatBot,
  eventually,
  messagesOfBot,
  parseSse,
  visitor,
} from '../support/chat-factories.js';
import { createUser, TEST_PASSWORD, uniqueEmail } from '../support/factories.js';
import { startNginx, type RunningNginx } from '../support/nginx.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createFileDatabase, serverUrl } from '../support/test-database.js';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..');
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
/** How slowly the offline model streams, so buffering anywhere on the way would show. */
const WORD_DELAY_MS = 60;

/** The headers helmet sets on every response of the app; nginx must send the same with its HTML. */
const SECURITY_HEADERS = [
  'content-security-policy',
  'strict-transport-security',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/** What docker/compose.yml tells the api about the proxy in front of it (the test uses the same). */
function composeTrustProxy(): string {
  const compose = fs.readFileSync(path.join(REPO, 'docker', 'compose.yml'), 'utf8');
  const value = /^\s+TRUST_PROXY:\s*'?([^'\n#]+?)'?\s*$/m.exec(compose)?.[1];
  if (!value) throw new Error('docker/compose.yml should set TRUST_PROXY for the api');
  return value;
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface SendOptions {
  /** The client's own (loopback) source address. */
  from: string;
  headers?: Record<string, string>;
  json?: unknown;
}

/** One request on a fresh connection from a chosen loopback source address. */
function send(base: string, method: string, urlPath: string, options: SendOptions): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const body = options.json === undefined ? undefined : JSON.stringify(options.json);
    const request = http.request(new URL(urlPath, base), {
      method,
      localAddress: options.from,
      agent: false,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
    });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** A random 127.a.b.0/24: counters in the shared Redis outlive a run, so every run speaks from new addresses. */
function loopbackNetwork(): (host: number) => string {
  const [a, b] = crypto.randomBytes(2);
  return (host) => `127.${1 + (a % 254)}.${b}.${host}`;
}

// Two instances share one database, so this needs the PostgreSQL server; the skipped title says why.
const withServer = serverUrl() ? describe : describe.skip;
const title = `nginx (docker/nginx.conf) in front of two API instances on PostgreSQL and Redis${
  serverUrl() ? '' : ' (skipped: needs a PostgreSQL server in TEST_DATABASE_URL)'
}`;

withServer(title, () => {
  const instances: TestApp[] = [];
  const requests = [0, 0];
  const directUrls: string[] = [];
  let nginx: RunningNginx;
  let dropDatabase: () => Promise<void>;
  let contentDir: string;
  let htmlRoot: string;
  let htmlSource: string;
  const address = loopbackNetwork();
  const clientA = address(2);
  const clientB = address(3);
  const started = performance.now();
  const figures: string[] = [];

  beforeAll(async () => {
    contentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-nginx-site-'));
    fs.chmodSync(contentDir, 0o755);
    // The same HTML on both paths: the built frontend when there is one, else a stand-in page.
    // The headers compared below come from nginx's configuration and the app's middleware, not
    // from the file, so the comparison means the same either way.
    const built = path.join(REPO, 'frontend', 'dist');
    if (fs.existsSync(path.join(built, 'index.html'))) {
      htmlRoot = built;
      htmlSource = 'the built frontend';
    } else {
      htmlRoot = path.join(contentDir, 'html');
      fs.mkdirSync(htmlRoot, { mode: 0o755 });
      fs.writeFileSync(
        path.join(htmlRoot, 'index.html'),
        '<!doctype html><title>Botsmith</title><div id="root"></div>\n',
      );
      htmlSource = 'a stand-in index.html (frontend not built)';
    }
    const widgetRoot = path.join(contentDir, 'widget');
    fs.mkdirSync(widgetRoot, { mode: 0o755 });
    const staticRoots = { frontend: htmlRoot, widget: widgetRoot };

    const database = await createFileDatabase();
    dropDatabase = database.drop;
    // As in docker/compose.yml: one database, one Redis, one session secret for every instance.
    const env = {
      SESSION_SECRET: crypto.randomBytes(32).toString('base64url'),
      DATABASE_URL: database.url,
      REDIS_URL,
      TRUST_PROXY: composeTrustProxy(),
      OFFLINE_MODEL_WORD_DELAY_MS: String(WORD_DELAY_MS),
    };
    // One after the other: the first runs the migrations, the second finds them done.
    for (let i = 0; i < 2; i += 1) {
      const t = await startTestApp(env, { staticRoots });
      const server = t.app.getHttpServer();
      server.on('request', () => (requests[i] += 1));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      directUrls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      instances.push(t);
    }
    nginx = await startNginx({
      upstreams: directUrls.map((url) => url.slice('http://'.length)),
      publicUrl: instances[0].config.publicUrl,
      htmlRoot,
      widgetRoot,
    });
  });

  afterAll(async () => {
    await nginx?.stop();
    for (const t of instances) await t.close();
    await dropDatabase?.();
    fs.rmSync(contentDir, { recursive: true, force: true });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      [
        `nginx + two API instances (${htmlSource}): ${seconds} s in all`,
        `requests per instance: ${requests[0]} and ${requests[1]}`,
        ...figures,
      ].join('\n'),
    );
  });

  const viaNginx = (method: string, urlPath: string, options: SendOptions) => send(nginx.url, method, urlPath, options);
  const origin = () => instances[0].origin;
  const login = (from: string, email: string, password: string, headers: Record<string, string> = {}) =>
    viaNginx('POST', '/api/auth/login', { from, headers: { origin: origin(), ...headers }, json: { email, password } });

  it('counts per-IP limits by the client address nginx saw, across both instances; a sent X-Forwarded-For gains nothing', async () => {
    const user = await createUser(instances[0]);
    const before = [...requests];
    const begun = performance.now();
    // Password spraying from one client, each attempt naming a different address in
    // X-Forwarded-For and a different e-mail (so only the per-IP counter can stop it).
    for (let i = 0; i < LOGIN_FAILURE_LIMITS.perIp.limit; i += 1) {
      const failed = await login(clientA, uniqueEmail('spray'), 'Spray!pass1', {
        'x-forwarded-for': `203.0.113.${i + 1}`,
      });
      expect(failed.status).toBe(401);
    }
    const sprayMs = performance.now() - begun;
    // The failures landed on both instances, so only a shared (Redis) counter reaches the limit.
    expect(requests[0] - before[0]).toBeGreaterThanOrEqual(5);
    expect(requests[1] - before[1]).toBeGreaterThanOrEqual(5);

    for (const forwarded of ['198.51.100.77', `${clientB}`, '198.51.100.78, 198.51.100.79']) {
      const blocked = await login(clientA, user.email, TEST_PASSWORD, { 'x-forwarded-for': forwarded });
      expect(blocked.status).toBe(429);
      expect(JSON.parse(blocked.body)).toEqual({
        error: 'Too many failed login attempts. Please wait a few minutes and try again.',
        code: 'RATE_LIMITED',
      });
    }
    // Another client (another address on the same machine) is not affected.
    expect((await login(clientB, user.email, TEST_PASSWORD)).status).toBe(200);
    figures.push(
      `${LOGIN_FAILURE_LIMITS.perIp.limit} failed logins through nginx: ${Math.round(sprayMs)} ms ` +
        `(${(sprayMs / LOGIN_FAILURE_LIMITS.perIp.limit).toFixed(1)} ms each, argon2 included)`,
    );
  });

  it('shares sessions across the instances: a login on one is signed in on both, a logout on one is out on both', async () => {
    const user = await createUser(instances[1]);
    const signedIn = await login(clientB, user.email, TEST_PASSWORD);
    expect(signedIn.status).toBe(200);
    const setCookie = signedIn.headers['set-cookie'] ?? [];
    const cookie = setCookie.map((c) => c.split(';', 1)[0]).find((c) => c.startsWith('botsmith.sid='));
    expect(cookie).toBeDefined();
    const me = () => viaNginx('GET', '/api/user/me', { from: clientB, headers: { cookie: cookie! } });

    const before = [...requests];
    for (let i = 0; i < 6; i += 1) {
      const answer = await me();
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ id: user.id, email: user.email });
    }
    expect(requests[0] - before[0]).toBeGreaterThanOrEqual(2);
    expect(requests[1] - before[1]).toBeGreaterThanOrEqual(2);

    const loggedOut = await viaNginx('POST', '/api/auth/logout', {
      from: clientB,
      headers: { cookie: cookie!, origin: origin() },
    });
    expect(loggedOut.status).toBeLessThan(300);
    const afterLogout = [...requests];
    for (let i = 0; i < 4; i += 1) expect((await me()).status).toBe(401);
    expect(requests[0] - afterLogout[0]).toBeGreaterThanOrEqual(1);
    expect(requests[1] - afterLogout[1]).toBeGreaterThanOrEqual(1);
  });

  it('streams chat answers (server-sent events) through nginx as they are written, not at the end', async () => {
    const owner = await createUser(instances[0], { creditsCents: 500 });
    const bot = await createChatBot(instances[0], owner.id);
    const arrivals: Array<{ at: number; text: string }> = [];
    const begun = performance.now();
    const { status, contentType, encoding } = await new Promise<{
      status: number;
      contentType: string;
      encoding: string | undefined;
    }>((resolve, reject) => {
      const request = http.request(new URL('/api/chat', nginx.url), {
        method: 'POST',
        localAddress: clientA,
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          // As a browser asks: a compressed stream would be held back in the compressor's buffer.
          'accept-encoding': 'gzip, deflate, br',
          'x-visitor-id': visitor(),
          origin: 'https://shop.example',
        },
      });
      request.on('response', (response) => {
        response.setEncoding('utf8');
        response.on('data', (text: string) => arrivals.push({ at: performance.now() - begun, text }));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type']),
            encoding: response.headers['content-encoding'],
          }),
        );
      });
      request.on('error', reject);
      request.end(JSON.stringify({ botId: String(bot.id), prompt: 'When does the shop open on weekdays?' }));
    });
    expect(status).toBe(200);
    expect(contentType).toBe('text/event-stream; charset=utf-8');
    expect(encoding).toBeUndefined();
    const events = parseSse(arrivals.map((a) => a.text).join(''));
    const tokens = events.filter((e) => e.event === 'token');
    expect(tokens.length).toBeGreaterThan(5);
    expect(events.at(-1)?.event).toBe('done');

    const firstToken = arrivals.find((a) => a.text.includes('event: token'))!.at;
    const end = arrivals.at(-1)!.at;
    // The model waits WORD_DELAY_MS between words: unbuffered, the first word arrives while
    // most of the answer is still to come, and the words arrive in many separate reads.
    expect(end - firstToken).toBeGreaterThan(WORD_DELAY_MS * (tokens.length / 2));
    expect(arrivals.length).toBeGreaterThan(tokens.length / 2);
    figures.push(
      `SSE through nginx: first word after ${Math.round(firstToken)} ms, end after ${Math.round(end)} ms, ` +
        `${tokens.length} words in ${arrivals.length} reads`,
    );
  });

  it('passes a visitor leaving mid-answer on to the instance answering (it stops and records it)', async () => {
    const owner = await createUser(instances[1], { creditsCents: 500 });
    const bot = await createChatBot(instances[1], owner.id);
    const received = await chatAndDisconnectAfterFirstToken(
      nginx.url,
      { botId: bot.id, prompt: 'When does the shop open on weekdays?' },
      visitor(),
    );
    expect(received).toContain('event: token');
    await eventually(async () => (await messagesOfBot(instances[0], bot.id)).length === 2, 10_000);
    expect(await messagesOfBot(instances[0], bot.id)).toEqual([
      { role: 'user', content: 'When does the shop open on weekdays?' },
      { role: 'error', content: 'The visitor left before the answer was complete.' },
    ]);
  });

  it("serves the dashboard's HTML with the same security headers as the app itself", async () => {
    for (const page of ['/', '/dashboard', '/verify-email/not-a-real-token']) {
      const headers = { accept: 'text/html' };
      const proxied = await viaNginx('GET', page, { from: clientA, headers });
      const direct = await send(directUrls[0], 'GET', page, { from: clientA, headers });
      expect(proxied.status).toBe(200);
      expect(direct.status).toBe(200);
      expect(proxied.headers['content-type']).toMatch(/^text\/html/);
      expect(proxied.body).toBe(direct.body);
      for (const name of SECURITY_HEADERS)
        expect([page, name, proxied.headers[name]]).toEqual([page, name, direct.headers[name]]);
      expect(proxied.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(proxied.headers['x-content-type-options']).toBe('nosniff');
      expect(proxied.headers['referrer-policy']).toBe('no-referrer');
      expect(proxied.headers['strict-transport-security']).toBeUndefined(); // PUBLIC_URL is http here
      expect(proxied.headers['cache-control']).toBe('no-cache');
    }
  });

  it('adds HSTS and upgrade-insecure-requests to that HTML when PUBLIC_URL is https, like the app', async () => {
    const publicUrl = 'https://botsmith.example';
    const secured = await startNginx({
      upstreams: directUrls.map((url) => url.slice('http://'.length)),
      publicUrl,
      htmlRoot,
      widgetRoot: path.join(contentDir, 'widget'),
    });
    // The app's own header middleware with that PUBLIC_URL, in front of the same file.
    const app = express();
    app.use(securityHeaders(buildConfig({ PUBLIC_URL: publicUrl }, REPO)));
    app.get('/dashboard', (_req, res) => res.sendFile(path.join(htmlRoot, 'index.html')));
    const server = app.listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const proxied = await send(secured.url, 'GET', '/dashboard', { from: clientA, headers: { accept: 'text/html' } });
      const direct = await send(appUrl, 'GET', '/dashboard', { from: clientA });
      for (const name of SECURITY_HEADERS) expect([name, proxied.headers[name]]).toEqual([name, direct.headers[name]]);
      expect(proxied.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(proxied.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      server.close();
      await secured.stop();
    }
  });

  it('keeps verify-email and reset-password tokens out of the access log (paths and Referer)', async () => {
    const tokens = Array.from({ length: 5 }, () => crypto.randomBytes(24).toString('base64url'));
    const html = { accept: 'text/html' };
    await viaNginx('GET', `/verify-email/${tokens[0]}`, { from: clientA, headers: html });
    await viaNginx('GET', `/api/auth/verify-email/${tokens[1]}`, { from: clientA });
    await viaNginx('GET', `/reset-password/${tokens[2]}?from=mail`, { from: clientA, headers: html });
    await viaNginx('GET', `/VERIFY-EMAIL/${tokens[3]}`, { from: clientA, headers: html });
    await viaNginx('GET', '/dashboard', {
      from: clientA,
      headers: { ...html, referer: `${origin()}/reset-password/${tokens[4]}` },
    });

    // nginx writes a line once the response is sent; wait for all five.
    let log = '';
    for (let i = 0; i < 50; i += 1) {
      log = fs.readFileSync(nginx.accessLog, 'utf8');
      if (log.includes('/reset-password/[redacted]"') && log.includes('"GET /dashboard ')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const token of tokens) expect(log).not.toContain(token);
    expect(log).toContain(`${clientA} - - [`);
    expect(log).toContain('"GET /verify-email/[redacted] HTTP/1.1" 200');
    expect(log).toContain('"GET /api/auth/verify-email/[redacted] HTTP/1.1" 400');
    expect(log).toContain('"GET /reset-password/[redacted] HTTP/1.1" 200');
    expect(log).toContain('"GET /VERIFY-EMAIL/[redacted] HTTP/1.1" 200');
    expect(log).toContain(`"GET /dashboard HTTP/1.1" 200`);
    expect(log).toContain(`"${origin()}/reset-password/[redacted]"`);
  });
});
