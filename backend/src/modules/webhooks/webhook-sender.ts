import http from 'node:http';
import https from 'node:https';
import {
  AddressNotAllowedError,
  createGuardedAgents,
  type GuardedAgents,
  type Connector,
  type Resolver,
} from '../../common/outbound/guarded-agent.js';
import { WEBHOOK_SIGNATURE_HEADER } from '@botsmith/contract';
import { signatureHeader } from './webhook-signature.js';

export interface WebhookSenderOptions {
  allowPrivate: boolean;
  /** The whole attempt: lookup, connect, request and the answer's status. */
  timeoutMs: number;
  /** Tests: a stub resolver and connect hook (common/outbound/guarded-agent.ts). */
  resolve?: Resolver;
  connect?: Connector;
  userAgent?: string;
}

/** How one attempt went: a status code when the receiver answered, an error sentence when not 2xx. */
export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** Longest error text kept on a delivery row. */
const ERROR_MAX_CHARS = 300;

/**
 * Posts one signed delivery. Every connection goes through the guarded agents, which resolve the
 * name, refuse private, loopback and metadata addresses (unless `allowPrivate`; metadata always)
 * and connect to the address they checked, so a name rebound to a private address after
 * registration is refused here. Redirects are not followed (a 3xx is a failed attempt: a
 * redirect could lead anywhere); the answer's body is not read past its first bytes.
 */
export class WebhookSender {
  private readonly agents: GuardedAgents;

  constructor(private readonly options: WebhookSenderOptions) {
    const guard = {
      allowPrivate: options.allowPrivate,
      resolve: options.resolve,
      connect: options.connect,
      connectTimeoutMs: options.timeoutMs,
    };
    this.agents = createGuardedAgents(guard);
  }

  async send(url: string, body: string, secret: string, now: Date = new Date()): Promise<SendResult> {
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : null;
    if (!client) return { ok: false, statusCode: null, error: 'Unsupported address.' };
    const headers = {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
      'User-Agent': this.options.userAgent ?? 'Botsmith-Webhooks/1.0',
      [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(secret, body, now.getTime() / 1000),
    };
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: SendResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const request = client.request(target, {
        method: 'POST',
        headers,
        agent: target.protocol === 'https:' ? this.agents.https : this.agents.http,
      });
      const timer = setTimeout(() => {
        request.destroy();
        finish({ ok: false, statusCode: null, error: `No answer within ${this.options.timeoutMs / 1000} s.` });
      }, this.options.timeoutMs);
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        response.resume();
        response.destroy();
        const ok = status >= 200 && status < 300;
        finish({ ok, statusCode: status, error: ok ? null : `The endpoint answered HTTP ${status}.` });
      });
      request.on('error', (error: Error) => finish({ ok: false, statusCode: null, error: describe(error) }));
      request.end(body);
    });
  }

  destroy(): void {
    this.agents.destroy();
  }
}

/** Said alike of a name that does not resolve and of one that resolves to a refused address. */
export const UNREACHABLE_NAME = 'Could not deliver: the address could not be reached.';

/** DNS answers that mean "no such name" (or none yet): told apart from nothing else. */
const NAME_LOOKUP_FAILURES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

/**
 * The sentence kept on the delivery and shown to the owner. A name that resolves to a private
 * address reads exactly like a name that does not resolve: otherwise an owner could register
 * internal names one by one and learn, from the sentence, which exist on our network (a DNS
 * oracle). Addresses written in the URL, and names refused without a lookup (localhost,
 * metadata), reveal nothing about our DNS and keep their reason.
 */
function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  let text: string;
  if (error instanceof AddressNotAllowedError) {
    text = error.resolvedFromName ? UNREACHABLE_NAME : `Refused: the address is not allowed (${error.reason}).`;
  } else if (code !== undefined && NAME_LOOKUP_FAILURES.has(code)) {
    text = UNREACHABLE_NAME;
  } else {
    text = `Could not deliver: ${error.message}`;
  }
  return text.slice(0, ERROR_MAX_CHARS);
}
