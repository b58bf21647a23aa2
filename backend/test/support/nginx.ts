import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Debian's nginx (apt-get install nginx-light or nginx); NGINX_PATH points elsewhere. */
export const NGINX_BINARY = process.env.NGINX_PATH || '/usr/sbin/nginx';

/** The shipped configuration of the web container (a template the image fills in at start). */
export const SHIPPED_NGINX_CONF = path.resolve(import.meta.dirname, '..', '..', '..', 'docker', 'nginx.conf');

export interface NginxOptions {
  /** host:port of each API instance (replaces the `server api:3000;` line of the upstream). */
  upstreams: string[];
  /** What the image's entrypoint would put in for ${PUBLIC_URL}. */
  publicUrl: string;
  /** The built frontend and widget (the image's /usr/share/nginx/html and /usr/share/nginx/widget). */
  htmlRoot: string;
  widgetRoot: string;
}

export interface RunningNginx {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  accessLog: string;
  errorLog: string;
  stop(): Promise<void>;
}

/** Replaces `from` in `text`, insisting it occurs exactly once (the shipped file changed otherwise). */
function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + from.length) >= 0) {
    throw new Error(`docker/nginx.conf should contain ${JSON.stringify(from)} exactly once`);
  }
  return text.slice(0, at) + to + text.slice(at + from.length);
}

function replaceAll(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`docker/nginx.conf should contain ${JSON.stringify(from)}`);
  return text.split(from).join(to);
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Runs the real nginx binary with the shipped docker/nginx.conf, changed only where the
 * container and this machine differ: the upstream addresses, the listening address, the
 * document roots, the log file and ${PUBLIC_URL} (what the image's envsubst step does). The
 * main nginx.conf around it mirrors the image's (mime types, one http block) with the prefix,
 * pid, temp and log paths in a temporary folder.
 */
export async function startNginx(options: NginxOptions): Promise<RunningNginx> {
  if (!fs.existsSync(NGINX_BINARY)) {
    throw new Error(
      `nginx is not installed at ${NGINX_BINARY}: apt-get install -y nginx-light (or set NGINX_PATH). ` +
        '.ci/run installs it.',
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-nginx-'));
  // Workers of an nginx started as root run as nobody: they must be able to enter the folder.
  fs.chmodSync(dir, 0o755);
  const accessLog = path.join(dir, 'access.log');
  const errorLog = path.join(dir, 'error.log');

  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    let site = fs.readFileSync(SHIPPED_NGINX_CONF, 'utf8');
    site = replaceOnce(site, 'server api:3000;', options.upstreams.map((u) => `server ${u};`).join('\n  '));
    site = replaceOnce(site, 'listen 8080;', `listen 127.0.0.1:${port};`);
    site = replaceAll(site, '/usr/share/nginx/html', options.htmlRoot);
    site = replaceAll(site, '/usr/share/nginx/widget', options.widgetRoot);
    site = replaceOnce(site, '/var/log/nginx/access.log', accessLog);
    site = replaceAll(site, '${PUBLIC_URL}', options.publicUrl);
    if (site.includes('${')) throw new Error('docker/nginx.conf uses a template variable the test does not fill in');
    fs.writeFileSync(path.join(dir, 'site.conf'), site);
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      [
        'worker_processes 1;',
        `pid ${path.join(dir, 'nginx.pid')};`,
        `error_log ${errorLog} warn;`,
        'events { worker_connections 256; }',
        'http {',
        '  include /etc/nginx/mime.types;',
        '  default_type application/octet-stream;',
        '  sendfile on;',
        '  keepalive_timeout 65;',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (kind) => `  ${kind}_temp_path ${path.join(dir, `${kind}-temp`)};`,
        ),
        `  access_log ${path.join(dir, 'other-access.log')};`,
        `  include ${path.join(dir, 'site.conf')};`,
        '}',
        '',
      ].join('\n'),
    );

    const child: ChildProcess = spawn(
      NGINX_BINARY,
      ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let exitCode: number | null | undefined;
    void exited.then((code) => (exitCode = code));

    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && exitCode === undefined && !(await accepting(port))) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (exitCode === undefined && (await accepting(port))) {
      return {
        url: `http://127.0.0.1:${port}`,
        port,
        accessLog,
        errorLog,
        async stop() {
          if (exitCode === undefined) {
            child.kill('SIGTERM');
            await exited;
          }
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    child.kill('SIGKILL');
    await exited;
    const log = fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : '';
    lastError = new Error(`nginx did not start (exit ${String(exitCode)}): ${stderr}${log}`);
    // A port taken between choosing and binding it is worth another try; a bad config is not.
    if (!/Address already in use/.test(stderr + log)) break;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  throw lastError ?? new Error('nginx did not start');
}
