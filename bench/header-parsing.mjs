#!/usr/bin/env node
/**
 * Hostile headers and fields before authentication: how long does a 16 KB value crafted against
 * each parser take, next to a normal request to the same route?
 *   npm run build && node bench/header-parsing.mjs [samples]
 * Starts the built app (backend/dist/main.js) in its own process on a fresh PostgreSQL database
 * (BENCH_DATABASE_URL, default the local server), with an owner whose bots are one domain-locked,
 * one open and one edited through the dashboard API. Each probe sends its normal and its hostile
 * request alternately (after one warm-up each), `samples` times (default 15), and prints both
 * medians and the hostile request's status. A quadratic parser shows as a hostile median far above
 * the normal one (16 KB of dots in an Origin blocked the event loop ~240 ms before the fix).
 *
 * Then, in this process, the same hostile Origin through the host parser of commit 04208d8 (its
 * `/\.+$/`, copied below as it was) and through today's `hostOf`: the "before" and "after" of
 * that attack, without building the old version. The integration spec
 * (backend/test/integration/hostile-headers.spec.ts) checks the answers; this program the times.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  insertOwner,
  loadBuilt,
  OFFLINE_APP_ENV,
  requireBuiltBackend,
  startBuiltApp,
  UNLIMITED_CHAT_ENV,
} from './support/app.mjs';
import { createThrowawayDatabase, LOCAL_SERVER_URL } from './support/database.mjs';
import { median } from './support/timing.mjs';

const samples = Number(process.argv[2] ?? 15);
requireBuiltBackend('npm run build');
const { hostOf, normalizeAllowedDomain } = await loadBuilt('modules/chat/domain-match.js');
const { textProblem } = await loadBuilt('common/storable-text.js');
const { HEADER_MAX_CHARS } = await loadBuilt('common/constants.js');

/** "16 KB": as long as a single header can be under Node's 16 KiB limit for all headers. */
const HOSTILE_CHARS = 16_000;

const serverBase = process.env.BENCH_DATABASE_URL ?? LOCAL_SERVER_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-headers-'));
const database = await createThrowawayDatabase(serverBase, 'botsmith_bench_headers');
/** The app, once started. */
let app;

async function cleanup() {
  await app?.stop();
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** One request on its own connection, timed from the first byte sent to the last byte read. */
function send({ method, path: pathname, headers = {}, body }) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(
      {
        host: '127.0.0.1',
        port: app.port,
        method,
        path: pathname,
        agent: false,
        headers: {
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}),
          ...headers,
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            ms: performance.now() - started,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

async function compare(normal, hostile) {
  let normalAnswer = await send(normal);
  let hostileAnswer = await send(hostile);
  const normalTimes = [];
  const hostileTimes = [];
  for (let i = 0; i < samples; i += 1) {
    normalAnswer = await send(normal);
    normalTimes.push(normalAnswer.ms);
    hostileAnswer = await send(hostile);
    hostileTimes.push(hostileAnswer.ms);
  }
  return {
    normalStatus: normalAnswer.status,
    hostileStatus: hostileAnswer.status,
    normalMs: median(normalTimes),
    hostileMs: median(hostileTimes),
  };
}

/** Milliseconds of the median of `runs` calls of `run` (in this process). */
function timed(run, runs = 5) {
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return median(times);
}

/** commit 04208d8's host parser, as it was (`/\.+$/` is retried at every dot of a run). */
function hostOfAt04208d8(value) {
  if (!value || value === 'null') return null;
  let parsed;
  try {
    parsed = new URL(value);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const host = parsed.hostname.toLowerCase().replace(/\.+$/, '');
  return host === '' ? null : host;
}

/** Crafted against `/\.+$/`: a long run of dots that does not end the string. */
const dots = (prefix, chars = HOSTILE_CHARS) => `${prefix}a${'.'.repeat(chars - prefix.length - 2)}x`;

try {
  app = await startBuiltApp({
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      ...OFFLINE_APP_ENV,
      ...UNLIMITED_CHAT_ENV,
      SIGNUP_IP_RATE_LIMIT: '1000000',
    },
  });
  const base = app.base;

  // A paid owner, inserted as the test factories do, signed in through the API.
  const email = `headers-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const password = 'Bench!Pass1';
  await insertOwner(database.query, { email, password, paid: true });
  const login = await send({
    method: 'POST',
    path: '/api/auth/login',
    headers: { Origin: base },
    body: { email, password },
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  const cookie = String(login.headers['set-cookie']).split(';', 1)[0];
  const owner = { Origin: base, Cookie: cookie };
  const newBot = async () =>
    JSON.parse((await send({ method: 'POST', path: '/api/bots', headers: owner, body: { botName: 'Bench' } })).text).bot
      .id;
  const lockedBot = await newBot();
  await send({ method: 'PUT', path: `/api/bots/${lockedBot}`, headers: owner, body: { allowedDomain: 'example.com' } });
  const openBot = await newBot();
  const editedBot = await newBot();

  const chat = (headers, botId = lockedBot) => ({
    method: 'POST',
    path: '/api/chat',
    headers,
    body: { botId, prompt: 'When do you open?' },
  });
  const visitorId = () => crypto.randomUUID();
  const allowed = { Origin: 'https://example.com' };
  const login16 = { method: 'POST', path: '/api/auth/login', body: { email: 'a@example.com', password: 'x' } };
  const me = { method: 'GET', path: '/api/user/me' };
  const anonymous = (pathname, value) => ({
    method: 'POST',
    path: pathname,
    headers: { Origin: base },
    body: { email: value, password: 'Secret!pass1' },
  });
  const put = (body) => ({ method: 'PUT', path: `/api/bots/${editedBot}`, headers: owner, body });

  /** [what, normal request, hostile request] */
  const probes = [
    [
      'chat: Origin of dots (domain check)',
      chat({ Origin: 'https://other.example' }),
      chat({ Origin: dots('http://') }),
    ],
    [
      'chat: Origin of dots just under the cap',
      chat({ Origin: 'https://other.example' }),
      chat({ Origin: `http://a${'.'.repeat(HEADER_MAX_CHARS.origin - 10)}x` }),
    ],
    [
      'chat: X-Page-Url of dots',
      chat({ 'X-Page-Url': 'https://other.example/page' }),
      chat({ 'X-Page-Url': dots('https://') }),
    ],
    [
      'chat: Authorization of spaces',
      chat({ Authorization: 'Bearer wrong-key' }),
      chat({ Authorization: `Bearer${' '.repeat(HOSTILE_CHARS)}x y` }),
    ],
    [
      'chat: X-Visitor-Id of 16 KB (answered)',
      chat({ ...allowed, 'X-Visitor-Id': visitorId() }),
      chat({ ...allowed, 'X-Visitor-Id': `${'a-'.repeat(HOSTILE_CHARS / 2 - 1)}!` }),
    ],
    [
      'chat: X-Visitor-Token of 16 KB (answered)',
      chat({ ...allowed, 'X-Visitor-Token': 'v1.not-a-real-token' }),
      chat({
        ...allowed,
        'X-Visitor-Token': `v1.${'A'.repeat(HOSTILE_CHARS / 2)}.${'-'.repeat(HOSTILE_CHARS / 2 - 10)}`,
      }),
    ],
    [
      'chat: X-Forwarded-For of 1,142 addresses',
      chat({ 'X-Forwarded-For': '203.0.113.7' }, openBot),
      chat({ 'X-Forwarded-For': `${'203.0.113.7, '.repeat(Math.floor(HOSTILE_CHARS / 14))}x` }, openBot),
    ],
    [
      'login: Origin of dots (CSRF check)',
      { ...login16, headers: { Origin: 'https://evil.example' } },
      { ...login16, headers: { Origin: dots('http://') } },
    ],
    [
      'login: Referer of dots, no Origin',
      { ...login16, headers: { Referer: 'https://evil.example/page' } },
      { ...login16, headers: { Referer: dots('https://') } },
    ],
    [
      'me: session Cookie of 16 KB',
      { ...me, headers: { Cookie: 'botsmith.sid=s%3Aabc.def' } },
      { ...me, headers: { Cookie: `botsmith.sid=s%3A${'.'.repeat(HOSTILE_CHARS - 20)}x` } },
    ],
    [
      'me: 4,000 cookies',
      { ...me, headers: { Cookie: 'a=b; c=d' } },
      { ...me, headers: { Cookie: 'a=b;'.repeat(HOSTILE_CHARS / 4 - 1) } },
    ],
    ...[
      ['a long local part', `${'a'.repeat(HOSTILE_CHARS)}@`],
      ['dotted labels', `a@${'a.'.repeat(HOSTILE_CHARS / 2)}`],
      ['hyphens', `a@${'a-'.repeat(HOSTILE_CHARS / 2)}.com`],
      ['backslashes', `"${'\\'.repeat(HOSTILE_CHARS)}`],
    ].flatMap(([name, value]) =>
      ['signup', 'login', 'forgot-password'].map((route) => [
        `${route}: e-mail of ${name}`,
        anonymous(`/api/auth/${route}`, 'not-an-email'),
        anonymous(`/api/auth/${route}`, value),
      ]),
    ),
    ...[
      ['bubbleColor', `linear-gradient(${' '.repeat(HOSTILE_CHARS)}x`],
      ['bannerColor', `linear-gradient(to right${' '.repeat(HOSTILE_CHARS)},#fff,#000`],
      ['bubbleBorderRadius', `${'1'.repeat(HOSTILE_CHARS)}px`],
      ['allowedDomain', 'a.'.repeat(HOSTILE_CHARS / 2)],
    ].map(([field, value]) => [`PUT bot: ${field} of 16 KB`, put({ [field]: 'nonsense' }), put({ [field]: value })]),
  ];

  console.log(`header-parsing: ${probes.length} probes, ${samples} samples each (medians, ms, one connection each)\n`);
  console.log(`  ${'probe'.padEnd(44)} ${'normal'.padStart(13)} ${'16 KB hostile'.padStart(15)}  ratio`);
  const ratios = [];
  for (const [name, normal, hostile] of probes) {
    const result = await compare(normal, hostile);
    const ratio = result.hostileMs / result.normalMs;
    ratios.push(ratio);
    console.log(
      `  ${name.padEnd(44)} ${`${result.normalMs.toFixed(2)} (${result.normalStatus})`.padStart(13)} ` +
        `${`${result.hostileMs.toFixed(2)} (${result.hostileStatus})`.padStart(15)}  ${ratio.toFixed(2)}`,
    );
  }
  console.log(`\n  hostile / normal: median ${median(ratios).toFixed(2)}, worst ${Math.max(...ratios).toFixed(2)}`);

  const origin = dots('http://');
  const longer = `a${'.'.repeat(64_000)}x`;
  console.log('\nin this process (median of 5 calls, ms)');
  console.log(
    `  16 KB Origin of dots, host parser of 04208d8 (/\\.+$/): ${timed(() => hostOfAt04208d8(origin)).toFixed(1)}`,
  );
  console.log(
    `  16 KB Origin of dots, hostOf today (capped, one pass):  ${timed(() => hostOf(origin, HEADER_MAX_CHARS.origin)).toFixed(3)}`,
  );
  console.log(
    `  same dots just under the cap, hostOf today:            ${timed(() => hostOf(`http://a${'.'.repeat(HEADER_MAX_CHARS.origin - 10)}x`, HEADER_MAX_CHARS.origin)).toFixed(3)}`,
  );
  console.log(
    `  64 KB owner entry of dots, normalizeAllowedDomain:     ${timed(() => normalizeAllowedDomain(longer)).toFixed(3)}`,
  );
  console.log(
    `  1 MB of emoji ending in a lone surrogate, textProblem:  ${timed(() => textProblem(`${'\ud83d\ude00'.repeat(250_000)}\ud800`)).toFixed(2)}`,
  );
  await cleanup();
} catch (error) {
  console.error(error);
  await cleanup();
  process.exit(1);
}
