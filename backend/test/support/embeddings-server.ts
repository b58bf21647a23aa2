import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A deterministic embeddings server for tests and benchmarks: it speaks OpenAI's
 * `POST /v1/embeddings` (string or string[] input, `encoding_format` float or base64, the
 * `{object: 'list', data: [{index, embedding}], model, usage}` answer, JSON errors), so the
 * production adapter talks to it through the real `openai` SDK.
 *
 * Its vectors are bags of hashed features, L2-normalised: each word (lower-cased, accents removed,
 * common English words skipped) adds a word feature and its character trigrams (so "refund" and
 * "refunds" share most features). Synonym groups stand in for what a real model learns: every
 * word of a group counts as the group's first word, so "automobile" can be near "car" with no
 * shared letters. Same text, same vector, on every machine.
 *
 * No dependencies beyond Node itself, and only erasable TypeScript, so a plain Node script (Node
 * 22.18+, which strips types) can import it as well as the test suites.
 */

export interface EmbedTextOptions {
  /** Vector length (default 256). */
  dimensions?: number;
  /** Groups of words that mean the same; each word of a group counts as the group's first. */
  synonyms?: readonly (readonly string[])[];
}

export interface EmbeddingsServerOptions extends EmbedTextOptions {
  host?: string;
}

/** What the server does with the next requests: answer, fail with a 503, or never answer. */
export type EmbeddingsServerMode = 'ok' | 'fail' | 'hang';

export interface EmbeddingsRequestRecord {
  model: string;
  inputs: string[];
  encodingFormat: string;
  dimensions: number | null;
  authorization: string | undefined;
}

export interface EmbeddingsServer {
  /** The OpenAI-style base URL, ending in /v1 (OPENAI_BASE_URL). */
  url: string;
  /** Every well-formed request, in order. */
  requests: EmbeddingsRequestRecord[];
  mode: EmbeddingsServerMode;
  close(): Promise<void>;
}

export const DEFAULT_EMBEDDING_DIMENSIONS = 256;

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them there these they this to too us was we were what ' +
    'when where which who why will with would you your'
  ).split(' '),
);

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function synonymMap(groups: readonly (readonly string[])[] = []): Map<string, string> {
  const map = new Map<string, string>();
  for (const group of groups) {
    const words = group.map((word) => word.toLowerCase());
    for (const word of words) map.set(word, words[0]);
  }
  return map;
}

/** The words a vector is built from: lower-cased, without accents and common words. */
export function featureWords(text: string): string[] {
  const plain = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return (plain.match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOPWORDS.has(word));
}

function addFeature(vector: Float32Array, feature: string, weight: number): void {
  const h = hash(feature);
  // One bit of the hash chooses the sign, so colliding features cancel out rather than pile up.
  vector[h % vector.length] += h & 0x80000000 ? -weight : weight;
}

/** The deterministic, L2-normalised vector of `text`. */
export function embedText(text: string, options: EmbedTextOptions = {}): Float32Array {
  return embedWith(text, options.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS, synonymMap(options.synonyms));
}

function embedWith(text: string, dimensions: number, synonyms: Map<string, string>): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const raw of featureWords(text)) {
    const word = synonyms.get(raw) ?? raw;
    addFeature(vector, `w:${word}`, 1);
    const padded = `#${word}#`;
    const trigrams = Math.max(padded.length - 2, 1);
    for (let i = 0; i + 3 <= padded.length; i += 1) addFeature(vector, `t:${padded.slice(i, i + 3)}`, 1 / trigrams);
  }
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i += 1) vector[i] /= norm;
  return vector;
}

function sendError(res: http.ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: null } }));
}

function base64Of(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i += 1) bytes.writeFloatLE(vector[i], i * 4);
  return bytes.toString('base64');
}

/** Starts the server on a random loopback port. */
export async function startEmbeddingsServer(options: EmbeddingsServerOptions = {}): Promise<EmbeddingsServer> {
  const synonyms = synonymMap(options.synonyms);
  const defaultDimensions = options.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS;
  const requests: EmbeddingsRequestRecord[] = [];
  const state: { mode: EmbeddingsServerMode } = { mode: 'ok' };

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        sendError(res, 404, `No route ${req.method ?? ''} ${req.url ?? ''}`);
        return;
      }
      let body: { input?: unknown; model?: unknown; encoding_format?: unknown; dimensions?: unknown };
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof body;
      } catch {
        sendError(res, 400, 'The body is not JSON.');
        return;
      }
      const inputs = typeof body.input === 'string' ? [body.input] : body.input;
      if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((input) => typeof input === 'string')) {
        sendError(res, 400, "'input' must be a string or a non-empty array of strings.");
        return;
      }
      if (typeof body.model !== 'string' || body.model === '') {
        sendError(res, 400, "'model' is required.");
        return;
      }
      const encodingFormat = body.encoding_format === 'base64' ? 'base64' : 'float';
      const dimensions =
        typeof body.dimensions === 'number' && Number.isInteger(body.dimensions) && body.dimensions > 0
          ? body.dimensions
          : null;
      requests.push({
        model: body.model,
        inputs,
        encodingFormat,
        dimensions,
        authorization: req.headers.authorization,
      });
      if (state.mode === 'hang') return;
      if (state.mode === 'fail') {
        sendError(res, 503, 'The embeddings model is not loaded.');
        return;
      }
      const data = inputs.map((input, index) => {
        const vector = embedWith(input, dimensions ?? defaultDimensions, synonyms);
        return {
          object: 'embedding',
          index,
          embedding: encodingFormat === 'base64' ? base64Of(vector) : Array.from(vector),
        };
      });
      const tokens = inputs.reduce((sum, input) => sum + Math.ceil(input.length / 4), 0);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          object: 'list',
          data,
          model: body.model,
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}/v1`,
    requests,
    get mode() {
      return state.mode;
    },
    set mode(mode: EmbeddingsServerMode) {
      state.mode = mode;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
