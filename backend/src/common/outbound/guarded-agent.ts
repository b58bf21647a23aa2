import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { addressRefusal, hostnameRefusal, type AddressRule } from './address-policy.js';

/**
 * HTTP(S) agents whose every new connection is checked where it matters: the agent resolves the
 * host name itself, refuses if any address is forbidden, then connects to exactly the address it
 * checked. A second lookup by the socket (which a DNS rebinding attack would answer differently)
 * never happens, and since every redirect hop opens its connection through the same agent, a
 * redirect to a private address is refused at the same place.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name → addresses. Production: the system resolver (so /etc/hosts counts). Tests: a stub. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface ConnectTarget {
  /** The checked IP address the socket must connect to. */
  host: string;
  port: number;
  family: 4 | 6;
  /** The name the URL gave, for logs and tests. */
  hostname: string;
}

/** Opens the TCP socket to a checked address. Production: net.connect. Tests: a recording hook. */
export type Connector = (target: ConnectTarget) => net.Socket;

export interface GuardOptions extends AddressRule {
  resolve?: Resolver;
  connect?: Connector;
  /** Longest wait for the resolver plus the TCP handshake. */
  connectTimeoutMs?: number;
}

/** A connection the address rule refused. No socket was opened for it. */
export class AddressNotAllowedError extends Error {
  readonly code = 'ADDRESS_NOT_ALLOWED';

  constructor(
    readonly hostname: string,
    readonly address: string | null,
    readonly reason: string,
  ) {
    super(`Refused to connect to ${hostname}${address && address !== hostname ? ` (${address})` : ''}: ${reason}`);
    this.name = 'AddressNotAllowedError';
  }

  /**
   * Whether the refused address is one DNS gave for a name, not an address or a refused name
   * (localhost, metadata) the URL itself holds. Such a refusal is told to the owner like a name
   * that does not resolve, by the crawler and by webhooks alike: otherwise an owner could try
   * internal names one by one and learn which exist on our network (a DNS oracle).
   */
  get resolvedFromName(): boolean {
    return this.address !== null && this.address !== this.hostname;
  }
}

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

export const netConnector: Connector = ({ host, port, family }) => net.connect({ host, port, family });

/** Resolves, checks every address, then connects to the first one that answers. */
export async function openGuardedSocket(hostname: string, port: number, options: GuardOptions): Promise<net.Socket> {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const literalFamily = net.isIP(bare);
  let addresses: ResolvedAddress[];
  if (literalFamily !== 0) {
    addresses = [{ address: bare, family: literalFamily === 6 ? 6 : 4 }];
  } else {
    const nameReason = hostnameRefusal(bare, options);
    if (nameReason) throw new AddressNotAllowedError(bare, null, nameReason);
    addresses = await withTimeout((options.resolve ?? systemResolver)(bare), options.connectTimeoutMs, bare);
    if (addresses.length === 0) throw Object.assign(new Error(`No address for ${bare}`), { code: 'ENOTFOUND' });
  }
  // One forbidden answer refuses the name: a public and a private address together is how a
  // rebinding attacker gets a fallback connection to the private one.
  for (const { address } of addresses) {
    const reason = addressRefusal(address, options);
    if (reason) throw new AddressNotAllowedError(bare, address, reason);
  }
  const connect = options.connect ?? netConnector;
  let lastError: unknown;
  for (const { address, family } of addresses) {
    try {
      return await connectOnce(connect, { host: address, port, family, hostname: bare }, options.connectTimeoutMs);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

function connectOnce(connect: Connector, target: ConnectTarget, timeoutMs: number | undefined): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(target);
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            socket.destroy(
              Object.assign(new Error(`Connection to ${target.hostname} timed out`), { code: 'ETIMEDOUT' }),
            );
          }, timeoutMs);
    const onError = (error: Error): void => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number | undefined, hostname: string): Promise<T> {
  if (timeoutMs === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(Object.assign(new Error(`Looking up ${hostname} timed out`), { code: 'ETIMEDOUT' }));
    }, timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type SocketCallback = (err: Error | null, stream: net.Socket) => void;

function hostAndPort(options: http.ClientRequestArgs, defaultPort: number): { host: string; port: number } {
  return { host: options.hostname ?? options.host ?? 'localhost', port: Number(options.port ?? defaultPort) };
}

export class GuardedHttpAgent extends http.Agent {
  constructor(
    private readonly guard: GuardOptions,
    agentOptions?: http.AgentOptions,
  ) {
    super(agentOptions);
  }

  override createConnection(options: http.ClientRequestArgs, callback?: SocketCallback): null {
    const { host, port } = hostAndPort(options, 80);
    openGuardedSocket(host, port, this.guard).then(
      (socket) => callback?.(null, socket),
      (error: Error) => callback?.(error, undefined as unknown as net.Socket),
    );
    return null;
  }
}

export class GuardedHttpsAgent extends https.Agent {
  constructor(
    private readonly guard: GuardOptions,
    agentOptions?: https.AgentOptions,
  ) {
    super(agentOptions);
  }

  override createConnection(options: https.RequestOptions, callback?: SocketCallback): null {
    const { host, port } = hostAndPort(options, 443);
    const bare = host.replace(/^\[|\]$/g, '');
    openGuardedSocket(host, port, this.guard).then(
      (socket) => {
        // TLS runs over the checked socket; the certificate is verified against the URL's name.
        const secure = tls.connect({
          ...(options as tls.ConnectionOptions),
          socket,
          servername: net.isIP(bare) === 0 ? bare : undefined,
        });
        callback?.(null, secure);
      },
      (error: Error) => callback?.(error, undefined as unknown as net.Socket),
    );
    return null;
  }
}

export interface GuardedAgents {
  http: GuardedHttpAgent;
  https: GuardedHttpsAgent;
  destroy(): void;
}

/**
 * The guarded agents of one client, http and https, destroyed together. With `maxSockets`,
 * connections are kept alive and pooled up to that many per host (the crawler); without, each
 * request opens its own connection (webhooks, actions: one request to an owner's address at a time).
 */
export function createGuardedAgents(guard: GuardOptions, maxSockets?: number, tlsCa?: string): GuardedAgents {
  const agentOptions = maxSockets === undefined ? {} : { keepAlive: true, maxSockets, maxFreeSockets: maxSockets };
  const agents = {
    http: new GuardedHttpAgent(guard, agentOptions),
    https: new GuardedHttpsAgent(guard, tlsCa === undefined ? agentOptions : { ...agentOptions, ca: tlsCa }),
  };
  return {
    ...agents,
    destroy() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
