/**
 * The built app (backend/dist) for the benches that measure it: started in its own process as
 * `npm start` starts it, with the quiet test settings they share, and owners inserted as the
 * test factories insert them.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** backend/dist, or BENCH_BACKEND_DIST (e.g. a build of another tree, to compare before and after in one sitting). */
export const BACKEND_DIST = process.env.BENCH_BACKEND_DIST
  ? path.resolve(process.env.BENCH_BACKEND_DIST)
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../backend/dist');
/** What `npm start` runs: the bundle of backend/dist (backend/scripts/bundle.mjs). */
export const BUILT_APP = path.join(BACKEND_DIST, 'bundle', 'main.mjs');
/** The compiled tree's own entry, unbundled (bench/startup.mjs --compare measures both). */
export const UNBUNDLED_APP = path.join(BACKEND_DIST, 'main.js');

/** Exits (2) with how to build (`command`) when backend/dist is missing. */
export function requireBuiltBackend(command = 'npm run build -w backend') {
  if (!fs.existsSync(BUILT_APP)) {
    console.error(`Build first: ${command}`);
    process.exit(2);
  }
}

/** A module of backend/dist, e.g. `loadBuilt('modules/auth/passwords.js')`. */
export const loadBuilt = (file) => import(path.join(BACKEND_DIST, file));

/** Test mode, errors only, no scheduler, mail to DATA_DIR/outbox, limits in memory. */
export const QUIET_APP_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'error',
  RUN_SCHEDULER: 'false',
  SMTP_URL: '',
  REDIS_URL: '',
};

/** No outside service (test-mode payments, the offline model answering at once, local files). */
export const OFFLINE_APP_ENV = {
  STRIPE_SECRET_KEY: '',
  OPENAI_API_KEY: '',
  S3_BUCKET: '',
  OFFLINE_MODEL_WORD_DELAY_MS: '0',
};

/** Chat limits far above what a bench sends, so they never answer instead of the code measured. */
export const UNLIMITED_CHAT_ENV = {
  CHAT_VISITOR_RATE_LIMIT: '1000000',
  CHAT_IP_RATE_LIMIT: '1000000',
  CHAT_BOT_RATE_LIMIT: '1000000',
};

/** A port nobody listens on at the moment of asking. */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `${base}/api/health` answers 200; fails if the process exits first or after `timeoutMs`. */
export async function waitForHealth(base, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const health = await fetch(`${base}/api/health`).catch(() => undefined);
    if (health?.ok) return;
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`the app did not become healthy in ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts the built app (BUILT_APP) on a free port of `host` with QUIET_APP_ENV, PUBLIC_URL (`base`:
 * `publicHost` and that port) and `env` on top; answers once it is healthy. `stop()` ends it and
 * waits for its exit.
 */
export async function startBuiltApp({ env = {}, host = '127.0.0.1', publicHost = '127.0.0.1', stdio = 'ignore' } = {}) {
  const port = await freePort(host);
  const base = `http://${publicHost}:${port}`;
  const child = spawn(process.execPath, [BUILT_APP], {
    env: { ...process.env, ...QUIET_APP_ENV, PORT: String(port), HOST: host, PUBLIC_URL: base, ...env },
    stdio,
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForHealth(base, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, port, child, stop };
}

/**
 * Inserts a verified owner with 500 cents of credits through `query(sql, params)`; `paid` fakes a
 * complete billing setup (customer, subscription, item), as the test factories do.
 */
export async function insertOwner(query, { email, password, paid }) {
  const { hashPassword } = await loadBuilt('modules/auth/passwords.js');
  const fake = (prefix) => (paid ? `${prefix}_test_${crypto.randomBytes(4).toString('hex')}` : null);
  await query(
    `INSERT INTO users (email, password_hash, email_verified_at, stripe_customer_id, stripe_subscription_id,
       subscription_item_id, has_paid, credits_cents)
     VALUES ($1, $2, now(), $3, $4, $5, $6, 500)`,
    [email, await hashPassword(password), fake('cus'), fake('sub'), fake('si'), paid ? true : null],
  );
}
