#!/usr/bin/env node
/**
 * Account enumeration by timing: do the account calls take the same time whether or not the
 * e-mail has an account?
 *   npm run build && node bench/auth-timing.mjs [samples]
 * Starts the built app on a fresh PostgreSQL database (BENCH_DATABASE_URL, default the local
 * server) with mail going to the outbox, and times, interleaved:
 *   login: wrong password for an existing account vs an unknown e-mail
 *   signup: a new e-mail vs an already verified one
 *   forgot-password: an existing account vs an unknown e-mail
 * Each request comes from its own X-Forwarded-For address (trusted from loopback) and no e-mail
 * is used more than 4 times, so the throttles never answer instead of the code being measured.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requireBuiltBackend, startBuiltApp } from './support/app.mjs';
import { createThrowawayDatabase, LOCAL_SERVER_URL } from './support/database.mjs';
import { percentile } from './support/timing.mjs';

const samples = Number(process.argv[2] ?? 40);
requireBuiltBackend('npm run build');
const serverBase = process.env.BENCH_DATABASE_URL ?? LOCAL_SERVER_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-bench-auth-'));
const database = await createThrowawayDatabase(serverBase, 'botsmith_bench_auth');
/** The app's address, once started. */
let base;

let ip = 0;
async function post(pathname, body) {
  ip += 1;
  const started = performance.now();
  const response = await fetch(`${base}${pathname}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-For': `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`,
    },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

function verifyLink(email) {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return undefined;
  for (const file of fs.readdirSync(dir)) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8').replace(/=\r?\n/g, '');
    if (text.includes(email)) return text.match(/\/verify-email\/([A-Za-z0-9_-]{43})/)?.[1];
  }
  return undefined;
}

async function verifiedAccounts(count) {
  const emails = [];
  for (let i = 0; i < count; i++) {
    const email = `bench-${i}-${crypto.randomBytes(3).toString('hex')}@example.com`;
    // The link verifies at once only with the signup's pre-auth cookie (else it asks for the password).
    const signup = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.255.${i >> 8}.${i & 255}` },
      body: JSON.stringify({ email, password: 'Bench!Pass1' }),
    });
    const cookie = signup.headers
      .getSetCookie()
      .map((c) => c.split(';', 1)[0])
      .join('; ');
    let token;
    for (let tries = 0; !token && tries < 100; tries++) {
      await new Promise((r) => setTimeout(r, 20));
      token = verifyLink(email);
    }
    const response = await fetch(`${base}/api/auth/verify-email/${token}`, { headers: { Cookie: cookie } });
    if (response.status !== 200) throw new Error(`verification failed: ${response.status}`);
    emails.push(email);
  }
  return emails;
}

function summary(label, a, b) {
  const stat = (xs) => {
    const times = xs.map((x) => x.ms);
    return { median: percentile(times, 50), p90: percentile(times, 90) };
  };
  const sa = stat(a);
  const sb = stat(b);
  const statuses = (xs) => [...new Set(xs.map((x) => x.status))].join('/');
  console.log(
    `${label.padEnd(44)} median ${sa.median.toFixed(1).padStart(6)} vs ${sb.median.toFixed(1).padStart(6)} ms` +
      `   p90 ${sa.p90.toFixed(1).padStart(6)} vs ${sb.p90.toFixed(1).padStart(6)} ms` +
      `   status ${statuses(a)} vs ${statuses(b)}`,
  );
}

let app;
try {
  app = await startBuiltApp({ env: { DATA_DIR: dataDir, DATABASE_URL: database.url } });
  base = app.base;
  const perEmail = 4;
  const accounts = await verifiedAccounts(Math.ceil(samples / perEmail));
  const known = (i) => accounts[Math.floor(i / perEmail)];
  const unknown = () => `nobody-${crypto.randomBytes(5).toString('hex')}@example.com`;

  // Warm-up (JIT, pool, argon2 first call).
  for (let i = 0; i < 5; i++) await post('/api/auth/login', { email: unknown(), password: 'Wrong!pass1' });

  const loginKnown = [];
  const loginUnknown = [];
  const signupExisting = [];
  const signupNew = [];
  const forgotKnown = [];
  const forgotUnknown = [];
  for (let i = 0; i < samples; i++) {
    loginKnown.push(await post('/api/auth/login', { email: known(i), password: 'Wrong!pass1' }));
    loginUnknown.push(await post('/api/auth/login', { email: unknown(), password: 'Wrong!pass1' }));
  }
  for (let i = 0; i < samples; i++) {
    signupExisting.push(await post('/api/auth/signup', { email: known(i), password: 'Other!Pass2' }));
    signupNew.push(await post('/api/auth/signup', { email: unknown(), password: 'Other!Pass2' }));
  }
  // A fresh set of accounts: signup requests above already counted against the mail limit.
  const resetAccounts = await verifiedAccounts(Math.ceil(samples / perEmail));
  for (let i = 0; i < samples; i++) {
    forgotKnown.push(await post('/api/auth/forgot-password', { email: resetAccounts[Math.floor(i / perEmail)] }));
    forgotUnknown.push(await post('/api/auth/forgot-password', { email: unknown() }));
  }
  console.log(`${samples} samples each, interleaved; PostgreSQL server; outbox mail.`);
  summary('login: wrong password vs unknown e-mail', loginKnown, loginUnknown);
  summary('signup: verified e-mail vs new e-mail', signupExisting, signupNew);
  summary('forgot-password: account vs unknown e-mail', forgotKnown, forgotUnknown);
} finally {
  await app?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  await database.drop();
}
