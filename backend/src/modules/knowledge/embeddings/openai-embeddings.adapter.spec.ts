import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { failureOf } from '../../../../test/support/failure.js';
import { embedText, startEmbeddingsServer, type EmbeddingsServer } from '../../../../test/support/embeddings-server.js';
import { EmbeddingsError } from './embeddings.port.js';
import { OpenAiEmbeddingsAdapter, type OpenAiEmbeddingsOptions } from './openai-embeddings.adapter.js';

/**
 * The production adapter, through the real `openai` SDK, against local servers that speak
 * OpenAI's `/v1/embeddings`: the deterministic test server, and a raw one for malformed answers.
 */
let server: EmbeddingsServer;

beforeAll(async () => {
  server = await startEmbeddingsServer({ synonyms: [['car', 'automobile']] });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.mode = 'ok';
});

function adapter(overrides: Partial<OpenAiEmbeddingsOptions> = {}): OpenAiEmbeddingsAdapter {
  return new OpenAiEmbeddingsAdapter({
    apiKey: 'sk-test-key',
    baseUrl: server.url,
    model: 'test-embed',
    timeoutMs: 2000,
    maxRetries: 0,
    ...overrides,
  });
}

function failure(promise: Promise<unknown>): Promise<EmbeddingsError> {
  return failureOf(promise, EmbeddingsError);
}

function dot(a: Float32Array, b: Float32Array): number {
  return a.reduce((sum, value, i) => sum + value * b[i], 0);
}

describe('OpenAiEmbeddingsAdapter (real openai SDK against a local /v1/embeddings server)', () => {
  it('embeds in batches of batchSize, one vector per text in order, as plain floats with the key and model', async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `passage number ${i} about parking`);
    const vectors = await adapter({ batchSize: 3 }).embed(texts, { purpose: 'passages' });

    expect(server.requests.map((r) => r.inputs.length)).toEqual([3, 3, 1]);
    expect(server.requests.flatMap((r) => r.inputs)).toEqual(texts);
    expect(server.requests.every((r) => r.model === 'test-embed' && r.encodingFormat === 'float')).toBe(true);
    expect(server.requests[0].authorization).toBe('Bearer sk-test-key');
    expect(server.requests[0].dimensions).toBeNull();
    expect(vectors).toHaveLength(7);
    vectors.forEach((vector, i) => {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(Array.from(vector)).toEqual(Array.from(embedText(texts[i], { synonyms: [['car', 'automobile']] })));
      expect(dot(vector, vector)).toBeCloseTo(1, 5);
    });
  });

  it('asks for the configured dimensions only when set', async () => {
    const [vector] = await adapter({ dimensions: 16 }).embed(['hello'], { purpose: 'query' });
    expect(server.requests[0].dimensions).toBe(16);
    expect(vector).toHaveLength(16);
  });

  it('gives words of one synonym group close vectors (the test server stands in for a model)', async () => {
    const [car, automobile, bread] = await adapter().embed(['car', 'automobile', 'bread'], { purpose: 'passages' });
    expect(dot(car, automobile)).toBeCloseTo(1, 5);
    expect(Math.abs(dot(car, bread))).toBeLessThan(0.5);
  });

  it('fails with a clear error when the server answers 503, after the SDK retried while indexing', async () => {
    server.mode = 'fail';
    const error = await failure(adapter({ maxRetries: 1 }).embed(['a'], { purpose: 'passages' }));
    expect(error.code).toBe('EMBEDDINGS_FAILED');
    expect(error.message).toBe('The embeddings server answered 503: 503 The embeddings model is not loaded.');
    expect(server.requests).toHaveLength(2);
  });

  it("tries a visitor's question once: no retry", async () => {
    server.mode = 'fail';
    const error = await failure(adapter({ maxRetries: 2 }).embed(['where can I park?'], { purpose: 'query' }));
    expect(error.code).toBe('EMBEDDINGS_FAILED');
    expect(server.requests).toHaveLength(1);
  });

  it('times out a server that never answers', async () => {
    server.mode = 'hang';
    const error = await failure(adapter({ timeoutMs: 1000 }).embed(['a'], { purpose: 'passages' }));
    expect(error.code).toBe('EMBEDDINGS_TIMEOUT');
    expect(error.message).toBe('The embeddings server took longer than 1000 ms.');
  });

  it('gives a question the shorter query timeout', async () => {
    server.mode = 'hang';
    const error = await failure(
      adapter({ timeoutMs: 60_000, queryTimeoutMs: 1000 }).embed(['a'], { purpose: 'query' }),
    );
    expect(error.code).toBe('EMBEDDINGS_TIMEOUT');
    expect(error.message).toBe('The embeddings server took longer than 1000 ms.');
  });

  it('says so when nothing listens at the address', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(
      adapter({ baseUrl: `http://127.0.0.1:${port}/v1` }).embed(['a'], { purpose: 'passages' }),
    );
    expect(error.code).toBe('EMBEDDINGS_FAILED');
    expect(error.message).toMatch(/^The embeddings server could not be reached: /);
  });

  describe('refuses answers it cannot trust', () => {
    let raw: http.Server;
    let rawUrl: string;
    let answer: unknown;

    beforeAll(async () => {
      raw = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
      });
      await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
      rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`;
    });
    afterAll(async () => {
      raw.closeAllConnections();
      await new Promise((resolve) => raw.close(resolve));
    });

    const item = (index: number, embedding: unknown) => ({ object: 'embedding', index, embedding });
    const cases: [string, unknown, string][] = [
      ['too few vectors', { data: [item(0, [1, 0])] }, 'The embeddings server answered 1 vectors for 2 texts.'],
      ['no data', { error: 'nope' }, 'The embeddings server answered no vectors for 2 texts.'],
      [
        'a vector that is not numbers',
        { data: [item(0, [1, 0]), item(1, ['x', 0])] },
        'The embeddings server answered a vector that is not numbers.',
      ],
      [
        'vectors of different lengths',
        { data: [item(0, [1, 0]), item(1, [1, 0, 0])] },
        'The embeddings server answered vectors of different lengths.',
      ],
      [
        'the same index twice',
        { data: [item(0, [1, 0]), item(0, [0, 1])] },
        'The embeddings server answered a vector for text 0.',
      ],
    ];
    it.each(cases)('refuses %s', async (_name, body, message) => {
      answer = body;
      const error = await failure(adapter({ baseUrl: rawUrl }).embed(['a', 'b'], { purpose: 'passages' }));
      expect(error.code).toBe('EMBEDDINGS_INVALID');
      expect(error.message).toBe(message);
    });

    it('puts vectors answered out of order back in input order', async () => {
      answer = { data: [item(1, [0, 2]), item(0, [3, 0])] };
      const vectors = await adapter({ baseUrl: rawUrl }).embed(['a', 'b'], { purpose: 'passages' });
      expect(vectors.map((v) => Array.from(v))).toEqual([
        [1, 0],
        [0, 1],
      ]);
    });
  });
});
