import http from 'node:http';
import https from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { AddressNotAllowedError, type GuardedAgents } from '../../../common/outbound/guarded-agent.js';
import { STANDARD_PORTS } from '../../../common/outbound/address-policy.js';

/**
 * One GET with the crawler's limits: redirects followed by hand (each hop's URL checked, each
 * hop's connection checked by the guarded agents), a deadline per request, a cap on the
 * decoded body (so a compressed bomb stops at the cap too), and the body read only when the
 * caller wants that content type.
 */

export type FetchFailure =
  'address_not_allowed' | 'unreachable' | 'timeout' | 'too_large' | 'too_many_redirects' | 'bad_redirect' | 'aborted';

export class FetchError extends Error {
  constructor(
    readonly failure: FetchFailure,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(`${failure}: ${url}`, options);
    this.name = 'FetchError';
  }
}

export interface FetchRequest {
  url: string;
  headers?: Record<string, string>;
  /** Whether to read the body of a 2xx response with this content type ('' when absent). */
  wantBody: (contentType: string) => boolean;
  signal: AbortSignal;
  /** The most body bytes (decoded) read, when less than the fetcher's own limit (robots.txt). */
  maxBodyBytes?: number;
}

export interface FetchResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  contentType: string;
  headers: http.IncomingHttpHeaders;
  /** Null when the status is not 2xx or the content type was not wanted. */
  body: Buffer | null;
}

export interface FetcherLimits {
  userAgent: string;
  requestTimeoutMs: number;
  maxBodyBytes: number;
  maxRedirects: number;
  allowPrivate: boolean;
  /** Ports besides 80 and 443 allowed without allowPrivate (tests). */
  allowPorts?: readonly string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Why a URL may not be requested at all (scheme, credentials, port), or null. */
export function urlRefusal(url: URL, allowPrivate: boolean, allowPorts: readonly string[] = []): FetchFailure | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'bad_redirect';
  if (url.username !== '' || url.password !== '') return 'bad_redirect';
  if (!allowPrivate && !STANDARD_PORTS.has(url.port) && !allowPorts.includes(url.port)) return 'address_not_allowed';
  return null;
}

export class PageFetcher {
  constructor(
    private readonly agents: GuardedAgents,
    private readonly limits: FetcherLimits,
  ) {}

  async get(request: FetchRequest): Promise<FetchResponse> {
    const deadline = AbortSignal.timeout(this.limits.requestTimeoutMs);
    const signal = AbortSignal.any([request.signal, deadline]);
    let url = new URL(request.url);
    for (let hop = 0; ; hop++) {
      const refusal = urlRefusal(url, this.limits.allowPrivate, this.limits.allowPorts);
      if (refusal) throw new FetchError(refusal, url.href);
      const response = await this.open(url, request.headers ?? {}, signal, request.signal, deadline);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location) {
        release(response);
        if (hop >= this.limits.maxRedirects) throw new FetchError('too_many_redirects', url.href);
        try {
          url = new URL(location, url);
        } catch {
          throw new FetchError('bad_redirect', url.href);
        }
        url.hash = '';
        continue;
      }
      const contentType = (response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      const read = status >= 200 && status < 300 && request.wantBody(contentType);
      if (!read) {
        release(response);
        return { url: url.href, status, contentType, headers: response.headers, body: null };
      }
      const maxBytes = Math.min(request.maxBodyBytes ?? Infinity, this.limits.maxBodyBytes);
      const body = await this.readBody(response, url.href, maxBytes, request.signal, deadline);
      return { url: url.href, status, contentType, headers: response.headers, body };
    }
  }

  private open(
    url: URL,
    headers: Record<string, string>,
    signal: AbortSignal,
    callerSignal: AbortSignal,
    deadline: AbortSignal,
  ): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const agent = secure ? this.agents.https : this.agents.http;
      const request = (secure ? https : http).request(url, {
        method: 'GET',
        agent,
        signal,
        headers: {
          'user-agent': this.limits.userAgent,
          accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
          ...headers,
        },
      });
      request.once('response', resolve);
      request.once('error', (error) => reject(this.failure(error, url.href, callerSignal, deadline)));
      request.end();
    });
  }

  private async readBody(
    response: http.IncomingMessage,
    url: string,
    maxBytes: number,
    callerSignal: AbortSignal,
    deadline: AbortSignal,
  ): Promise<Buffer> {
    const declared = Number(response.headers['content-length'] ?? NaN);
    const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
    if (encoding === '' || encoding === 'identity') {
      if (declared > maxBytes) {
        response.destroy();
        throw new FetchError('too_large', url);
      }
    }
    const decoded = decoder(encoding, response);
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of decoded as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) throw new FetchError('too_large', url);
        chunks.push(chunk);
      }
    } catch (error) {
      throw this.failure(error, url, callerSignal, deadline);
    } finally {
      response.destroy();
      if (decoded !== response) decoded.destroy();
    }
    return Buffer.concat(chunks);
  }

  private failure(error: unknown, url: string, callerSignal: AbortSignal, deadline: AbortSignal): FetchError {
    if (error instanceof FetchError) return error;
    if (callerSignal.aborted) return new FetchError('aborted', url, { cause: error });
    if (deadline.aborted) return new FetchError('timeout', url, { cause: error });
    if (error instanceof AddressNotAllowedError) return new FetchError('address_not_allowed', url, { cause: error });
    const code = (error as { code?: string }).code;
    if (code === 'ETIMEDOUT') return new FetchError('timeout', url, { cause: error });
    return new FetchError('unreachable', url, { cause: error });
  }
}

/** Bodies this small are read to their end and dropped, so the connection can serve the next request. */
const DRAIN_LIMIT_BYTES = 64 * 1024;

/**
 * Ends an unwanted response (a redirect, an error page, a file we do not read): a small body is
 * read and dropped so the connection can serve the next request, a large one is cut off.
 */
function release(response: http.IncomingMessage): void {
  const length = Number(response.headers['content-length'] ?? NaN);
  if (length > DRAIN_LIMIT_BYTES) {
    response.destroy();
    return;
  }
  let drained = 0;
  response.on('error', () => undefined);
  response.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) response.destroy();
  });
}

/** The decoded body; pipeline carries an error or abort of the response into the decoder. */
function decoder(encoding: string, body: Readable): Readable {
  const decompress =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  if (!decompress) return body;
  return pipeline(body, decompress, () => undefined);
}
