import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type request from 'supertest';
import { EMBEDDING_DEFAULTS } from '../../src/common/constants.js';
import { KnowledgeSearchService } from '../../src/modules/knowledge/knowledge-search.service.js';
import { PassageVectorsRepository } from '../../src/modules/knowledge/passage-vectors.repository.js';
import { PassagesRepository } from '../../src/modules/knowledge/passages.repository.js';
import { reciprocalRankFusion } from '../../src/modules/knowledge/rank-fusion.js';
import { createBotViaApi } from '../support/bot-factories.js';
import { embedText, startEmbeddingsServer, type EmbeddingsServer } from '../support/embeddings-server.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Hybrid retrieval with an embeddings model configured (the deterministic local embeddings
 * server): passages get vectors in the background, a question is ranked by vector and full text,
 * fused by reciprocal rank fusion. On PGlite the vectors live in pgvector; on a PostgreSQL server
 * without the extension (CI's) they are bytes ranked by an exact cosine scan: the same tests run
 * on both.
 */
const MODEL = 'test-embed';
const SYNONYMS = [
  ['car', 'automobile', 'vehicle'],
  ['leave', 'put', 'store'],
  ['cost', 'price', 'fee', 'charge'],
  ['bicycle', 'bicycles', 'bike', 'bikes'],
];

interface SourceState {
  embedded_model: string | null;
  embed_attempts: number;
  embed_error: string | null;
  due: boolean | null;
}

describe('hybrid retrieval (embeddings configured)', () => {
  let embeddings: EmbeddingsServer;
  let t: TestApp;
  let owner: request.Agent;
  let search: KnowledgeSearchService;
  let vectors: PassageVectorsRepository;
  let passages: PassagesRepository;

  beforeAll(async () => {
    embeddings = await startEmbeddingsServer({ synonyms: SYNONYMS });
    t = await startTestApp({
      OPENAI_API_KEY: 'sk-test-embeddings',
      OPENAI_BASE_URL: embeddings.url,
      OPENAI_EMBEDDING_MODEL: MODEL,
      OPENAI_MAX_RETRIES: '0',
      SOURCE_JOBS_POLL_MS: '50',
    });
    owner = (await signedInAgent(t)).agent;
    search = t.app.get(KnowledgeSearchService);
    vectors = t.app.get(PassageVectorsRepository);
    passages = t.app.get(PassagesRepository);
  });
  afterAll(async () => {
    await t.close();
    await embeddings.close();
  });
  beforeEach(() => {
    embeddings.mode = 'ok';
  });

  async function addText(botId: number, name: string, text: string): Promise<number> {
    const response = await owner.post(`/api/bots/${botId}/sources/text`).set('Origin', t.origin).send({ name, text });
    expect(response.status).toBe(201);
    expect(response.body.source.status).toBe('ready');
    return response.body.source.id as number;
  }

  async function addFile(botId: number, filename: string, text: string): Promise<number> {
    const response = await owner
      .post(`/api/bots/${botId}/sources/files`)
      .set('Origin', t.origin)
      .attach('file', Buffer.from(text), { filename, contentType: 'text/plain' });
    expect(response.status).toBe(201);
    return response.body.source.id as number;
  }

  async function stateOf(sourceId: number): Promise<SourceState> {
    const [row] = await t.dataSource.query<SourceState[]>(
      `SELECT embedded_model, embed_attempts, embed_error, embed_retry_at > now() AS due
         FROM bot_sources WHERE id = $1`,
      [sourceId],
    );
    return row;
  }

  async function until<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const value = await probe();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const embedded = (sourceId: number) =>
    until(
      `source ${sourceId} embedded`,
      () => stateOf(sourceId),
      (s) => s.embedded_model === MODEL,
    );

  async function vectorsOfSource(sourceId: number): Promise<number> {
    const [{ n }] = await t.dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM passage_embeddings e JOIN document_chunks c ON c.id = e.chunk_id
        WHERE c.source_id = $1`,
      [sourceId],
    );
    return n;
  }

  it('keeps vectors in pgvector where the database has it, else as bytes ranked by a cosine scan', async () => {
    const available = await t.dataSource.query<unknown[]>(
      `SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`,
    );
    expect(await vectors.storage()).toBe(available.length > 0 ? 'pgvector' : 'scan');
    const [{ typname }] = await t.dataSource.query<{ typname: string }[]>(
      `SELECT t.typname FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
        WHERE a.attrelid = 'passage_embeddings'::regclass AND a.attname = 'embedding'`,
    );
    expect(typname).toBe(available.length > 0 ? 'vector' : 'bytea');
  });

  describe('a bot with a few sources', () => {
    let botId: number;
    let parking: number;
    let breakfast: number;
    let checkout: number;

    beforeAll(async () => {
      botId = await createBotViaApi(t, owner, 'Hotel');
      parking = await addFile(
        botId,
        'parking.txt',
        'Parking. Guests may leave the car in the garage beneath the hotel, free of charge.',
      );
      breakfast = await addText(botId, 'Breakfast', 'Breakfast is served from seven to ten in the dining room.');
      checkout = await addText(
        botId,
        'Check-out',
        'Check-out is at noon. A late check-out until three costs twenty euros; ask at the desk.',
      );
      for (const id of [parking, breakfast, checkout]) await embedded(id);
    });

    it('embeds every passage of each source in the background, through the configured model and key', async () => {
      for (const id of [parking, breakfast, checkout]) expect(await vectorsOfSource(id)).toBe(1);
      const list = await owner.get(`/api/bots/${botId}/sources`);
      expect(list.status).toBe(200);
      for (const source of list.body.sources as { chunks: number; embedded: number }[]) {
        expect(source).toMatchObject({ chunks: 1, embedded: 1 });
      }
      expect(embeddings.requests.length).toBeGreaterThan(0);
      expect(
        embeddings.requests.every((r) => r.model === MODEL && r.authorization === 'Bearer sk-test-embeddings'),
      ).toBe(true);
      expect(embeddings.requests.flatMap((r) => r.inputs)).toContain(
        'Breakfast is served from seven to ten in the dining room.',
      );
    });

    it('finds a passage by meaning when the question shares no word with it (full-text finds nothing)', async () => {
      const question = 'Where should I put my automobile?';
      expect(await passages.search(botId, question, 5)).toEqual([]);

      const found = await search.searchChunks(botId, question, 3);
      expect(found[0]).toEqual({
        page: 1,
        content: 'Parking. Guests may leave the car in the garage beneath the hotel, free of charge.',
        citation: { sourceId: parking, name: 'parking.txt', page: null, url: null },
      });
      // The question itself was embedded once, as a single input.
      expect(embeddings.requests.at(-1)?.inputs).toEqual([question]);
    });

    it('ranks by reciprocal rank fusion (k = 60) of the full-text and the vector ranking', async () => {
      const question = 'what is the price of a late check-out at the garage';
      const fullText = (await passages.search(botId, question, 50)).map((m) => m.id);
      const [queryVector] = [embedText(question, { synonyms: SYNONYMS })];
      const nearest = (await vectors.nearest(botId, MODEL, queryVector, 50)).map((n) => n.chunkId);
      // The two rankings disagree, so the fusion decides.
      expect(fullText.length).toBeGreaterThan(0);
      expect(nearest).toHaveLength(3);
      expect(fullText).not.toEqual(nearest);

      const fused = (await search.search(botId, question, 3)).map((m) => m.id);
      expect(fused).toEqual(reciprocalRankFusion([fullText, nearest], 60).slice(0, 3));
      // Every usable passage is a candidate of the vector ranking, so three come back.
      expect(fused).toHaveLength(3);
    });

    it('finds the vectors of a source added after the last question', async () => {
      expect((await search.searchChunks(botId, 'Where do I keep my bike?', 1))[0]?.citation.name).not.toBe('Bicycles');
      const bikes = await addText(botId, 'Bicycles', 'Bicycles may be locked in the courtyard shed.');
      await embedded(bikes);
      expect(await passages.search(botId, 'Where do I keep my bike?', 5)).toEqual([]);
      expect((await search.searchChunks(botId, 'Where do I keep my bike?', 1))[0].citation.sourceId).toBe(bikes);
      const response = await owner.delete(`/api/bots/${botId}/sources/${bikes}`).set('Origin', t.origin);
      expect(response.status).toBe(204);
    });

    it('answers from full-text search alone while the embeddings server is down', async () => {
      embeddings.mode = 'fail';
      const found = await search.searchChunks(botId, 'breakfast dining room', 2);
      expect(found[0].citation.sourceId).toBe(breakfast);
    });

    it("removes a deleted source's vectors with its passages", async () => {
      const extra = await addText(botId, 'Pets', 'Dogs are welcome in every room for a small fee.');
      await embedded(extra);
      expect(await vectorsOfSource(extra)).toBe(1);
      const before = await vectors.countForBot(botId);

      const [{ id: extraChunk }] = await t.dataSource.query<{ id: number }[]>(
        'SELECT id FROM document_chunks WHERE source_id = $1',
        [extra],
      );
      const dogs = embedText('can I bring my dog', { synonyms: SYNONYMS });
      expect((await vectors.nearest(botId, MODEL, dogs, 50)).map((n) => n.chunkId)).toContain(extraChunk);

      const response = await owner.delete(`/api/bots/${botId}/sources/${extra}`).set('Origin', t.origin);
      expect(response.status).toBe(204);
      expect(await vectorsOfSource(extra)).toBe(0);
      expect((await vectors.nearest(botId, MODEL, dogs, 50)).map((n) => n.chunkId)).not.toContain(extraChunk);
      expect(await vectors.countForBot(botId)).toBe(before - 1);
      const found = await search.search(botId, 'can I bring my dog', 5);
      expect(found.map((m) => m.sourceId)).not.toContain(extra);
    });
  });

  describe('when the embeddings server is down while a source is indexed', () => {
    it('keeps the source ready on full-text search, logs and records the failure, and embeds it on a later try', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn');
      try {
        embeddings.mode = 'fail';
        const botId = await createBotViaApi(t, owner, 'Outage');
        const sourceId = await addText(botId, 'Spa', 'The spa and sauna open at eight in the morning.');

        const failed = await until(
          'a recorded failure',
          () => stateOf(sourceId),
          (s) => s.embed_error !== null,
        );
        expect(failed).toMatchObject({ embedded_model: null, embed_attempts: 1, due: true });
        expect(failed.embed_error).toBe(
          'Embedding failed (attempt 1); it is tried again in 60 s. ' +
            'The embeddings server answered 503: 503 The embeddings model is not loaded.',
        );
        expect(
          warn.mock.calls.some(([message]) => String(message).includes(`Source ${sourceId}: Embedding failed`)),
        ).toBe(true);
        expect(await vectorsOfSource(sourceId)).toBe(0);
        const list = await owner.get(`/api/bots/${botId}/sources`);
        expect(list.body.sources[0]).toMatchObject({
          id: sourceId,
          status: 'ready',
          error: null,
          chunks: 1,
          embedded: 0,
        });
        expect((await search.searchChunks(botId, 'when does the sauna open', 1))[0].citation.sourceId).toBe(sourceId);

        // The server is back and the retry is due.
        embeddings.mode = 'ok';
        await t.dataSource.query('UPDATE bot_sources SET embed_retry_at = now() WHERE id = $1', [sourceId]);
        const done = await embedded(sourceId);
        expect(done).toMatchObject({ embed_attempts: 0, embed_error: null, due: null });
        expect(await vectorsOfSource(sourceId)).toBe(1);
        const after = await owner.get(`/api/bots/${botId}/sources`);
        expect(after.body.sources[0]).toMatchObject({ id: sourceId, chunks: 1, embedded: 1 });
      } finally {
        warn.mockRestore();
      }
    });

    it('marks the source after its last attempt and stops trying', async () => {
      embeddings.mode = 'fail';
      const botId = await createBotViaApi(t, owner, 'Outage for good');
      const sourceId = await addText(botId, 'Gym', 'The gym is on the fourth floor.');
      await until(
        'a first failure',
        () => stateOf(sourceId),
        (s) => s.embed_error !== null,
      );
      await t.dataSource.query(
        'UPDATE bot_sources SET embed_attempts = $2, embed_retry_at = now(), embed_error = NULL WHERE id = $1',
        [sourceId, EMBEDDING_DEFAULTS.maxAttempts - 1],
      );

      const marked = await until(
        'the last failure',
        () => stateOf(sourceId),
        (s) => s.embed_error !== null,
      );
      expect(marked).toMatchObject({ embedded_model: null, embed_attempts: EMBEDDING_DEFAULTS.maxAttempts, due: null });
      expect(marked.embed_error).toMatch(
        /^Embedding failed 6 times; this source answers by keyword search only until it is read again\. Last error: /,
      );
      expect((await search.searchChunks(botId, 'gym floor', 1))[0].citation.sourceId).toBe(sourceId);
    });
  });
});
