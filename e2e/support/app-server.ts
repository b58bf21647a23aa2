import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface AppServer {
  baseUrl: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built product exactly as `npm start` does (node backend/dist/bundle/main.mjs) on a free
 * port with a fresh data folder, i.e. on the embedded defaults: PGlite, outbox mail, test-mode
 * payments, offline demo model. `env` adds or overrides variables.
 */
export async function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  const main = path.join(REPO_ROOT, 'backend', 'dist', 'bundle', 'main.mjs');
  if (!fs.existsSync(main)) throw new Error('The backend is not built: run `npm run build` first.');
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-e2e-'));
  const baseUrl = `http://localhost:${port}`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'OPENAI_API_KEY', 'S3_BUCKET', 'REDIS_URL']) {
    delete childEnv[key];
  }
  const child: ChildProcess = spawn(process.execPath, [main], {
    env: {
      ...childEnv,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '0.0.0.0',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // Every journey signs up from this one loopback address; the per-IP account limit
      // (20 an hour) is proven by the backend's integration tests, not by the journeys.
      SIGNUP_IP_RATE_LIMIT: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  // PGlite's migrations take most of the start; a loaded shared machine can stretch it past a minute.
  const startMs = Number(process.env.E2E_START_TIMEOUT_MS) || 60_000;
  const deadline = Date.now() + startMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app exited during start (code ${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The app did not become healthy within ${startMs / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  return {
    baseUrl,
    port,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
