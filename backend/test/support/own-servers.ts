import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * PostgreSQL and Redis servers of a test's own, on free loopback ports, for tests that must stop
 * and restart them under a running app. The shared servers (5432, 6379) are never touched: other
 * test runs use them.
 */

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** Why these servers cannot run here (binaries missing), or null when they can. */
export function missingBinaries(): string | null {
  const missing = [path.join(PG_BIN, 'initdb'), path.join(PG_BIN, 'pg_ctl'), REDIS_SERVER].filter(
    (file) => !fs.existsSync(file),
  );
  return missing.length ? `missing ${missing.join(', ')}` : null;
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * PostgreSQL refuses to run as root: as root, its commands run as the `postgres` OS user
 * (runuser), in a directory that user owns.
 */
function asPostgres(file: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
}

export class OwnPostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  /** `postgres` database of a fresh cluster, trust auth, superuser `postgres`. */
  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async start(): Promise<OwnPostgres> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-own-pg-'));
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      fs.chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    const server = new OwnPostgres(dir, await freePort());
    const [file, args] = asPostgres(path.join(PG_BIN, 'initdb'), [
      '-D',
      server.dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '--no-sync',
      '--no-instructions',
      '-E',
      'UTF8',
    ]);
    await run(file, args);
    await server.resume();
    return server;
  }

  private get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  /** Starts (or starts again) the server on the same port and data, and waits until it accepts connections. */
  async resume(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      "-c listen_addresses='127.0.0.1'",
      `-c unix_socket_directories='${this.dir}'`,
      '-c fsync=off',
      '-c max_connections=50',
    ].join(' ');
    const [file, args] = asPostgres(path.join(PG_BIN, 'pg_ctl'), [
      '-D',
      this.dataDir,
      '-o',
      options,
      '-l',
      path.join(this.dir, 'server.log'),
      '-w',
      '-t',
      '30',
      'start',
    ]);
    await run(file, args);
  }

  /** `fast` ends sessions with 57P01 (admin shutdown); `immediate` drops them like a crash. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    const [file, args] = asPostgres(path.join(PG_BIN, 'pg_ctl'), ['-D', this.dataDir, '-m', mode, '-w', 'stop']);
    await run(file, args);
  }

  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export class OwnRedis {
  private process?: ChildProcess;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<OwnRedis> {
    const server = new OwnRedis(await freePort());
    await server.resume();
    return server;
  }

  /** Starts (or starts again) redis-server on the same port, without persistence, and waits for it. */
  async resume(): Promise<void> {
    const child = spawn(
      REDIS_SERVER,
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.process = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
    child.removeAllListeners('exit');
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.process = undefined;
  }

  async destroy(): Promise<void> {
    await this.stop();
  }
}
