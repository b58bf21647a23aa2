import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import type request from 'supertest';
import { DataSource } from 'typeorm';
import { OFFLINE_MODEL_PREFIX } from '../../src/common/constants.js';
import { dataSourceOptions } from '../../src/database/database.options.js';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { KnowledgeSources1796700000000 } from '../../src/database/migrations/1796700000000-knowledge-sources.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { createBotViaApi, makeImageOnlyPdf, makePdf, makePng } from '../support/bot-factories.js';
import { parseSse } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createFileDatabase, serverUrl } from '../support/test-database.js';
import { makeDocx } from '../support/word-document.mjs';

const QUOTA_BYTES = 512 * 1024;
const SOURCE_ENV = {
  SOURCES_MAX_BYTES_PER_BOT: String(QUOTA_BYTES),
  // The test website is on loopback.
  CRAWL_ALLOW_PRIVATE: 'true',
  SOURCE_JOBS_POLL_MS: '50',
  OFFLINE_MODEL_WORD_DELAY_MS: '0',
};
const UNSUPPORTED = 'This file type is not supported. Upload a PDF, Word (DOCX), text, Markdown, HTML or CSV file.';

interface SourceBody {
  id: number;
  kind: string;
  name: string;
  status: string;
  error: string | null;
  pages: number | null;
  chunks: number;
  bytes: number;
  url: string | null;
  refreshSchedule: string | null;
  lastRefreshedAt: string | null;
  nextRefreshAt: string | null;
  notice: string | null;
  correction: boolean;
  question: string | null;
  embedded: number | null;
  createdAt: string;
  updatedAt: string;
}

/** Twenty lines of filler text about a topic (about 1,000 characters). */
function filler(topic: string): string[] {
  return Array.from({ length: 20 }, (_, i) => `${topic} line ${i}: our staff greet every guest at the door.`);
}

describe('knowledge sources', () => {
  let t: TestApp;
  let owner: request.Agent;
  let other: request.Agent;

  beforeAll(async () => {
    t = await startTestApp(SOURCE_ENV);
    owner = (await signedInAgent(t)).agent;
    other = (await signedInAgent(t)).agent;
  });
  afterAll(async () => {
    await t.close();
  });

  function sourcesFolder(): string[] {
    const root = path.join(t.config.dataDir, 'uploads', 'sources');
    return fs.existsSync(root) ? fs.readdirSync(root) : [];
  }

  function uploadFile(agent: request.Agent, botId: number, bytes: Buffer, filename: string) {
    return agent
      .post(`/api/bots/${botId}/sources/files`)
      .set('Origin', t.origin)
      .attach('file', bytes, { filename, contentType: 'application/octet-stream' });
  }

  function addText(agent: request.Agent, botId: number, body: object) {
    return agent.post(`/api/bots/${botId}/sources/text`).set('Origin', t.origin).send(body);
  }

  async function listSources(botId: number, agent = owner): Promise<SourceBody[]> {
    const response = await agent.get(`/api/bots/${botId}/sources`);
    expect(response.status).toBe(200);
    return response.body.sources as SourceBody[];
  }

  /** Polls the list, as the dashboard does, until the source leaves 'processing'. */
  async function settled(botId: number, sourceId: number, agent = owner): Promise<SourceBody> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const source = (await listSources(botId, agent)).find((s) => s.id === sourceId);
      if (!source) throw new Error(`Source ${sourceId} is gone`);
      if (source.status !== 'processing') return source;
      if (Date.now() > deadline) throw new Error(`Source ${sourceId} still processing`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  function ask(botId: number, prompt: string) {
    return t.http().post('/api/chat').set('Origin', 'https://shop.example').send({ botId, prompt });
  }

  async function passagesOf(sourceId: number): Promise<number> {
    const [{ n }] = await t.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM document_chunks WHERE source_id = $1',
      [sourceId],
    );
    return n;
  }

  describe('each kind, from upload to a cited answer of the offline model', () => {
    let botId: number;
    beforeAll(async () => {
      botId = await createBotViaApi(t, owner, 'Knowledge');
    });

    it('a written answer is ready at once and cited by its name', async () => {
      const response = await addText(owner, botId, {
        name: '  Opening hours  ',
        text: 'The bakery opens at seven in the morning on weekdays. On Sundays the bakery stays closed.',
      });
      expect(response.status).toBe(201);
      const source = response.body.source as SourceBody;
      expect(source).toEqual({
        id: expect.any(Number),
        kind: 'text',
        name: 'Opening hours',
        status: 'ready',
        error: null,
        pages: null,
        chunks: 1,
        bytes: Buffer.byteLength(
          'The bakery opens at seven in the morning on weekdays. On Sundays the bakery stays closed.',
        ),
        url: null,
        refreshSchedule: null,
        lastRefreshedAt: null,
        nextRefreshAt: null,
        notice: null,
        correction: false,
        question: null,
        reference: false,
        // No embeddings model is configured here: full-text search only, nothing to embed.
        embedded: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const answer = await ask(botId, 'When does the bakery open on weekdays?');
      expect(answer.status).toBe(200);
      expect(answer.body.message).toMatch(/The bakery opens at seven in the morning on weekdays\./);
      expect(answer.body.message.startsWith(OFFLINE_MODEL_PREFIX)).toBe(true);
      expect(answer.body.citations).toEqual([{ sourceId: source.id, name: 'Opening hours', page: null, url: null }]);
    });

    const files: Array<{
      kind: string;
      name: string;
      make: () => Promise<Buffer>;
      question: string;
      expected: string;
      page: number | null;
    }> = [
      {
        kind: 'txt',
        name: 'parking.txt',
        make: async () => Buffer.from('Parking notes.\nVisitors park free of charge behind the warehouse gate.\n'),
        question: 'Where can visitors park?',
        expected: 'Visitors park free of charge behind the warehouse gate.',
        page: null,
      },
      {
        kind: 'md',
        name: 'pets.md',
        make: async () =>
          Buffer.from('# Pets\n\n- **Dogs** are welcome on the terrace when kept on a leash.\n- Cats stay home.\n'),
        question: 'Are dogs welcome on the terrace?',
        expected: 'Dogs are welcome on the terrace when kept on a leash.',
        page: null,
      },
      {
        kind: 'html',
        name: 'wifi.html',
        make: async () =>
          Buffer.from(
            '<!doctype html><html><head><title>Wifi</title><script>var zebrafoxtrot = 1;</script></head><body>' +
              '<nav>Home Menu Zebrafoxtrot</nav><main><h1>Wireless</h1><p>The guest wifi password is printed on ' +
              'every receipt.</p></main><footer>Copyright zebrafoxtrot</footer></body></html>',
          ),
        question: 'What is the guest wifi password?',
        expected: 'The guest wifi password is printed on every receipt.',
        page: null,
      },
      {
        kind: 'csv',
        name: 'menu.csv',
        make: async () =>
          Buffer.from('Dish,Price,Allergens\nLentil soup,4.50,celery\n"Walnut cake, large",6.00,nuts\n'),
        question: 'How much is the walnut cake?',
        expected: 'Dish: Walnut cake, large; Price: 6.00; Allergens: nuts.',
        page: null,
      },
      {
        kind: 'docx',
        name: 'returns.docx',
        make: () => makeDocx(['Returns policy', 'Unworn shoes may be returned within sixty days of delivery.']),
        question: 'Can unworn shoes be returned?',
        expected: 'Unworn shoes may be returned within sixty days of delivery.',
        page: null,
      },
      {
        kind: 'pdf',
        name: 'Menu.pdf',
        make: () =>
          // Pages long enough that each is a passage of its own (short pages share one).
          makePdf([
            [...filler('Welcome'), 'Welcome to the diner.'],
            [...filler('Breakfast'), 'Breakfast is served until eleven.'],
            [...filler('Burgers'), 'The vegan burger comes with sweet potato fries.'],
          ]),
        question: 'What comes with the vegan burger?',
        expected: 'The vegan burger comes with sweet potato fries.',
        page: 3,
      },
    ];

    it.each(files)('$kind: 201 processing, then ready, then a cited answer', async (file) => {
      const bytes = await file.make();
      const response = await uploadFile(owner, botId, bytes, file.name);
      expect(response.status).toBe(201);
      const created = response.body.source as SourceBody;
      expect(created).toMatchObject({ kind: 'file', name: file.name, status: 'processing', bytes: bytes.length });

      const ready = await settled(botId, created.id);
      expect(ready).toMatchObject({ status: 'ready', error: null, pages: file.page === null ? null : 3 });
      expect(ready.chunks).toBeGreaterThan(0);
      expect(await passagesOf(created.id)).toBe(ready.chunks);

      const answer = await ask(botId, file.question);
      expect(answer.status).toBe(200);
      expect(answer.body.message).toContain(file.expected);
      expect(answer.body.citations).toEqual([{ sourceId: created.id, name: file.name, page: file.page, url: null }]);
    });

    it("keeps an HTML page's scripts, navigation and footer out of its passages", async () => {
      const [{ n }] = await t.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM document_chunks WHERE bot_id = $1 AND content ILIKE '%zebrafoxtrot%'`,
        [botId],
      );
      expect(n).toBe(0);
    });

    it('sends the citations in the final event of a streamed answer', async () => {
      const response = await t
        .http()
        .post('/api/chat')
        .set('Origin', 'https://shop.example')
        .set('Accept', 'text/event-stream')
        .send({ botId, prompt: 'What comes with the vegan burger?' })
        .buffer(true)
        .parse((res, done) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => done(null, text));
        });
      expect(response.status).toBe(200);
      const done = parseSse(response.body as string).filter((e) => e.event === 'done');
      expect(done).toHaveLength(1);
      const sources = await listSources(botId);
      const menu = sources.find((s) => s.name === 'Menu.pdf')!;
      expect((done[0].data as { citations: unknown }).citations).toEqual([
        { sourceId: menu.id, name: 'Menu.pdf', page: 3, url: null },
      ]);
    });

    it('lists every source of the bot, oldest first', async () => {
      const sources = await listSources(botId);
      expect(sources.map((s) => s.name)).toEqual([
        'Opening hours',
        'parking.txt',
        'pets.md',
        'wifi.html',
        'menu.csv',
        'returns.docx',
        'Menu.pdf',
      ]);
      expect(sources.every((s) => s.status === 'ready')).toBe(true);
    });
  });

  describe('refused files and texts: a sentence, nothing stored', () => {
    let botId: number;
    beforeAll(async () => {
      botId = await createBotViaApi(t, owner, 'Refusals');
    });

    async function expectNothingStored(): Promise<void> {
      expect(await listSources(botId)).toEqual([]);
      const [{ n }] = await t.dataSource.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM document_chunks WHERE bot_id = $1',
        [botId],
      );
      expect(n).toBe(0);
    }

    it.each([
      ['a PNG image', makePng(), 'photo.png'],
      ['a PNG image named .txt', makePng(), 'notes.txt'],
      ['text under a foreign extension', Buffer.from('console.log("hi")'), 'script.js'],
      ['binary bytes named .txt', crypto.randomBytes(2048), 'random.txt'],
      ['Latin-1 text (not UTF-8)', Buffer.from('Caf\xe9 cr\xe8me', 'latin1'), 'menu.txt'],
      ['a zip that is not a Word document', Buffer.from('PK\x03\x04' + 'x'.repeat(200), 'latin1'), 'file.docx'],
    ])('415 for %s', async (_label, bytes, filename) => {
      const before = sourcesFolder().length;
      const response = await uploadFile(owner, botId, bytes, filename);
      expect(response.status).toBe(415);
      expect(response.body).toEqual({ error: UNSUPPORTED, code: 'UNSUPPORTED_FILE_TYPE' });
      expect(sourcesFolder().length).toBe(before);
      await expectNothingStored();
    });

    it('413 for a file over 10 MB', async () => {
      const response = await uploadFile(owner, botId, Buffer.alloc(10 * 1024 * 1024 + 1, 'a'), 'big.txt');
      expect(response.status).toBe(413);
      expect(response.body).toEqual({
        error: 'This file is too big. Keep each file under 10 MB.',
        code: 'FILE_TOO_LARGE',
      });
      await expectNothingStored();
    });

    it('422 for a text file with no text', async () => {
      const before = sourcesFolder().length;
      const response = await uploadFile(owner, botId, Buffer.from(' \n\t \n'), 'empty.txt');
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'This file has no text to read.', code: 'FILE_NO_TEXT' });
      expect(sourcesFolder().length).toBe(before);
      await expectNothingStored();
    });

    it('400 for a written answer without a name or text, or over the limits', async () => {
      const cases: Array<[object, string]> = [
        [{ name: '   ', text: 'Hello there.' }, 'Give the written answer a name.'],
        [{ name: 'x'.repeat(201), text: 'Hello there.' }, 'The name can be at most 200 characters.'],
        [{ name: 'Note', text: '   ' }, 'Write the answer in "text".'],
        [{ name: 'Note', text: 'a '.repeat(50_001) }, 'The text can be at most 100,000 characters.'],
      ];
      for (const [body, sentence] of cases) {
        const response = await addText(owner, botId, body);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: sentence, code: 'VALIDATION_FAILED' });
      }
      for (const body of [{ name: 'Note', text: 42 }, { name: 'Note', text: 'a\u0000b' }, { name: 'Note' }]) {
        expect((await addText(owner, botId, body)).status).toBe(400);
      }
      await expectNothingStored();
    });

    it('a PDF without text fails in the background with a sentence, and keeps no passages', async () => {
      const response = await uploadFile(owner, botId, await makeImageOnlyPdf(), 'scan.pdf');
      expect(response.status).toBe(201);
      const source = await settled(botId, response.body.source.id as number);
      expect(source).toMatchObject({
        status: 'failed',
        error: 'This PDF has no extractable text. Please upload a text-based PDF.',
        chunks: 0,
      });
      expect(await passagesOf(source.id)).toBe(0);
      await owner.delete(`/api/bots/${botId}/sources/${source.id}`).set('Origin', t.origin).expect(204);
    });

    it('a damaged Word document fails in the background with a sentence', async () => {
      const zip = await JSZip.loadAsync(await makeDocx(['Fine text.']));
      zip.file('word/document.xml', '<w:document><w:body><w:p>not closed');
      const damaged = await zip.generateAsync({ type: 'nodebuffer' });
      const response = await uploadFile(owner, botId, damaged, 'damaged.docx');
      expect(response.status).toBe(201);
      const source = await settled(botId, response.body.source.id as number);
      expect(source).toMatchObject({
        status: 'failed',
        error: 'This Word document could not be read. It may be damaged or incomplete.',
        chunks: 0,
      });
      await owner.delete(`/api/bots/${botId}/sources/${source.id}`).set('Origin', t.origin).expect(204);
    });

    it("413 once the bot's sources would pass SOURCES_MAX_BYTES_PER_BOT, counting every source", async () => {
      expect(t.config.sources.maxBytesPerBot).toBe(QUOTA_BYTES);
      const first = await uploadFile(owner, botId, Buffer.from(`${'Apples are red. '.repeat(27_000)}`), 'a.txt');
      expect(first.status).toBe(201);
      const before = sourcesFolder().length;
      const second = await uploadFile(owner, botId, Buffer.from(`${'Pears are green. '.repeat(15_000)}`), 'b.txt');
      expect(second.status).toBe(413);
      expect(second.body).toEqual({
        error: "This bot's sources can hold 0.5 MB in all. Delete a source or add a smaller one.",
        code: 'SOURCES_QUOTA_EXCEEDED',
      });
      expect(sourcesFolder().length).toBe(before);
      const text = await addText(owner, botId, { name: 'Big note', text: 'Plums are purple. '.repeat(5_500) });
      expect(text.status).toBe(413);
      expect(text.body.code).toBe('SOURCES_QUOTA_EXCEEDED');
      expect((await listSources(botId)).map((s) => s.name)).toEqual(['a.txt']);
      await settled(botId, first.body.source.id as number);
      // Another bot of the same owner has its own quota.
      const otherBot = await createBotViaApi(t, owner, 'Second');
      expect((await uploadFile(owner, otherBot, Buffer.from('Pears are green. '.repeat(15_000)), 'b.txt')).status).toBe(
        201,
      );
    });
  });

  describe('a website', () => {
    let site: http.Server;
    let base: string;
    let botId: number;
    const PAGES: Record<string, string> = {
      '/': '<html><head><title>Diner</title></head><body><nav><a href="/menu">Menu</a> <a href="/visit">Visit</a></nav><main><h1>Diner</h1><p>Welcome to the corner diner.</p></main></body></html>',
      '/menu':
        '<html><head><title>Menu of the diner</title></head><body><nav>Home</nav><main><p>The pancake stack costs nine dollars with maple syrup.</p></main></body></html>',
      '/visit':
        '<html><head><title>Visit us</title></head><body><main><p>The diner is next to the old harbour crane.</p></main><footer>Footer text</footer></body></html>',
    };

    beforeAll(async () => {
      site = http.createServer((req, res) => {
        const page = PAGES[req.url ?? ''];
        if (!page) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      botId = await createBotViaApi(t, owner, 'Website');
    });
    afterAll(async () => {
      await new Promise((resolve) => site.close(resolve));
    });

    function addWebsite(body: object, agent = owner, bot = botId) {
      return agent.post(`/api/bots/${bot}/sources/website`).set('Origin', t.origin).send(body);
    }

    it('is crawled in the background; answers cite the page (title and address)', async () => {
      const response = await addWebsite({ url: `${base}/`, maxPages: 10 });
      expect(response.status).toBe(201);
      const created = response.body.source as SourceBody;
      expect(created).toMatchObject({
        kind: 'website',
        name: new URL(base).host,
        status: 'processing',
        url: `${base}/`,
        bytes: 0,
      });
      const ready = await settled(botId, created.id);
      expect(ready).toMatchObject({ status: 'ready', error: null, pages: 3 });
      expect(await passagesOf(created.id)).toBe(ready.chunks);

      const answer = await ask(botId, 'How much is the pancake stack?');
      expect(answer.status).toBe(200);
      expect(answer.body.message).toContain('The pancake stack costs nine dollars with maple syrup.');
      expect(answer.body.citations).toEqual([
        { sourceId: created.id, name: 'Menu of the diner', page: null, url: `${base}/menu` },
      ]);
      const [{ n }] = await t.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM document_chunks WHERE source_id = $1 AND content ILIKE '%footer text%'`,
        [created.id],
      );
      expect(n).toBe(0);

      // Refresh crawls it again.
      const refresh = await owner.post(`/api/bots/${botId}/sources/${created.id}/refresh`).set('Origin', t.origin);
      expect(refresh.status).toBe(202);
      expect(await settled(botId, created.id)).toMatchObject({ status: 'ready', pages: 3, chunks: ready.chunks });
    });

    it('reads at most maxPages pages', async () => {
      const response = await addWebsite({ url: `${base}/`, maxPages: 1 });
      expect(await settled(botId, response.body.source.id as number)).toMatchObject({ status: 'ready', pages: 1 });
    });

    it('fails with a sentence when the site cannot be reached', async () => {
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const response = await addWebsite({ url: `http://127.0.0.1:${port}/` });
      expect(response.status).toBe(201);
      const source = await settled(botId, response.body.source.id as number);
      expect(source).toMatchObject({
        status: 'failed',
        error: 'The website could not be reached. Check the address and try again.',
        chunks: 0,
      });
    });

    it('400 for an address that is not http(s) or a page count out of range', async () => {
      for (const url of ['ftp://example.com/', 'example.com', 'javascript:alert(1)', '']) {
        const response = await addWebsite({ url });
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('Enter a full web address starting with http:// or https://.');
      }
      for (const maxPages of [0, 501, 2.5, '10']) {
        const response = await addWebsite({ url: `${base}/`, maxPages });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          error: 'Choose a whole number of pages from 1 to 500.',
          code: 'VALIDATION_FAILED',
        });
      }
      const other404 = await addWebsite({ url: `${base}/` }, other);
      expect(other404.status).toBe(404);
    });
  });

  describe('refresh and delete', () => {
    let botId: number;
    beforeAll(async () => {
      botId = await createBotViaApi(t, owner, 'Lifecycle');
    });

    it('DELETE removes the source, its passages at once and its stored file', async () => {
      const created = await uploadFile(owner, botId, Buffer.from('Lockers cost two coins per day.'), 'lockers.txt');
      const source = await settled(botId, created.body.source.id as number);
      expect(await passagesOf(source.id)).toBe(1);
      const files = sourcesFolder();
      const response = await owner.delete(`/api/bots/${botId}/sources/${source.id}`).set('Origin', t.origin);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(await passagesOf(source.id)).toBe(0);
      expect(sourcesFolder().length).toBe(files.length - 1);
      expect(await listSources(botId)).toEqual([]);
      const answer = await ask(botId, 'How much do lockers cost?');
      expect(answer.body.citations).toEqual([]);
      const again = await owner.delete(`/api/bots/${botId}/sources/${source.id}`).set('Origin', t.origin);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: 'Source not found.', code: 'SOURCE_NOT_FOUND' });
    });

    it('refresh reads a file again (202, processing, then ready with the same passages)', async () => {
      const created = await uploadFile(owner, botId, Buffer.from('Bikes are rented by the hour.'), 'bikes.txt');
      const first = await settled(botId, created.body.source.id as number);
      const response = await owner.post(`/api/bots/${botId}/sources/${first.id}/refresh`).set('Origin', t.origin);
      expect(response.status).toBe(202);
      expect(response.body.source).toMatchObject({ id: first.id, status: 'processing' });
      const again = await settled(botId, first.id);
      expect(again).toMatchObject({ status: 'ready', chunks: first.chunks });
      expect(await passagesOf(first.id)).toBe(first.chunks);
    });

    it('refresh of a written answer is 409', async () => {
      const text = await addText(owner, botId, { name: 'Note', text: 'Umbrellas are lent at the desk.' });
      const response = await owner
        .post(`/api/bots/${botId}/sources/${text.body.source.id}/refresh`)
        .set('Origin', t.origin);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        error: 'Only a file or a website can be read again.',
        code: 'SOURCE_NOT_REFRESHABLE',
      });
    });

    it('deleting the bot removes its sources, passages and stored files', async () => {
      const bot = await createBotViaApi(t, owner, 'Doomed');
      const created = await uploadFile(owner, bot, Buffer.from('Doomed bots know little.'), 'doomed.txt');
      await settled(bot, created.body.source.id as number);
      const before = sourcesFolder().length;
      await owner.delete(`/api/bots/${bot}`).set('Origin', t.origin).expect(200);
      const [{ n }] = await t.dataSource.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM bot_sources WHERE bot_id = $1',
        [bot],
      );
      expect(n).toBe(0);
      expect(await passagesOf(created.body.source.id as number)).toBe(0);
      expect(sourcesFolder().length).toBe(before - 1);
    });
  });

  describe('another owner', () => {
    let botId: number;
    let sourceId: number;
    let otherBotId: number;
    beforeAll(async () => {
      botId = await createBotViaApi(t, owner, 'Private');
      sourceId = (await addText(owner, botId, { name: 'Secret', text: 'The safe code is 4711.' })).body.source
        .id as number;
      otherBotId = await createBotViaApi(t, other, 'Theirs');
    });

    it('gets 404 on every route for a bot or source that is not theirs, and changes nothing', async () => {
      const notFound = { error: 'Bot not found.', code: 'BOT_NOT_FOUND' };
      const attempts = [
        other.get(`/api/bots/${botId}/sources`),
        other.post(`/api/bots/${botId}/sources/text`).set('Origin', t.origin).send({ name: 'x', text: 'y' }),
        uploadFile(other, botId, Buffer.from('Injected text.'), 'x.txt'),
        other.post(`/api/bots/${botId}/sources/website`).set('Origin', t.origin).send({ url: 'http://127.0.0.1:9/' }),
        other.post(`/api/bots/${botId}/sources/${sourceId}/refresh`).set('Origin', t.origin),
        other.delete(`/api/bots/${botId}/sources/${sourceId}`).set('Origin', t.origin),
      ];
      for (const attempt of attempts) {
        const response = await attempt;
        expect(response.status).toBe(404);
        expect(response.body).toEqual(notFound);
      }
      // Their own bot, our source id: the source is not found under their bot.
      for (const attempt of [
        other.post(`/api/bots/${otherBotId}/sources/${sourceId}/refresh`).set('Origin', t.origin),
        other.delete(`/api/bots/${otherBotId}/sources/${sourceId}`).set('Origin', t.origin),
      ]) {
        const response = await attempt;
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: 'Source not found.', code: 'SOURCE_NOT_FOUND' });
      }
      expect((await listSources(botId)).map((s) => s.name)).toEqual(['Secret']);
      expect(await passagesOf(sourceId)).toBe(1);
    });

    it('needs a session, and the Origin check on changes', async () => {
      expect((await t.http().get(`/api/bots/${botId}/sources`)).status).toBe(401);
      const noOrigin = await owner.post(`/api/bots/${botId}/sources/text`).send({ name: 'x', text: 'y' });
      expect(noOrigin.status).toBe(403);
      const foreign = await owner
        .delete(`/api/bots/${botId}/sources/${sourceId}`)
        .set('Origin', 'https://evil.example');
      expect(foreign.status).toBe(403);
      expect(await passagesOf(sourceId)).toBe(1);
    });
  });

  describe('the update-document route', () => {
    it('replaces the bot\'s "reference document" source and keeps the others', async () => {
      const botId = await createBotViaApi(t, owner, 'Reference');
      await addText(owner, botId, { name: 'Note', text: 'Gift cards never expire.' }).expect(201);
      const upload = (pdf: Buffer, filename: string) =>
        owner
          .post(`/api/upload/update-document/${botId}`)
          .set('Origin', t.origin)
          .attach('document', pdf, { filename, contentType: 'application/pdf' });
      const first = await upload(await makePdf([['Old opening hours are nine to five.']]), 'old.pdf');
      expect(first.status).toBe(200);
      expect(first.body.document.originalName).toBe('old.pdf');
      const second = await upload(await makePdf([['New opening hours are ten to six.']]), 'new.pdf');
      expect(second.status).toBe(200);
      const sources = await listSources(botId);
      expect(sources.map((s) => [s.kind, s.name, s.status, s.pages])).toEqual([
        ['text', 'Note', 'ready', null],
        ['file', 'new.pdf', 'ready', 1],
      ]);
      const answer = await ask(botId, 'What are the opening hours?');
      expect(answer.body.message).toContain('New opening hours are ten to six.');
      expect(answer.body.citations).toEqual([{ sourceId: sources[1].id, name: 'new.pdf', page: 1, url: null }]);

      // Deleting it through the sources API removes the bot's reference document too.
      await owner.delete(`/api/bots/${botId}/sources/${sources[1].id}`).set('Origin', t.origin).expect(204);
      const bot = await owner.get(`/api/bots/${botId}`);
      expect(bot.body.bot.document ?? null).toBeNull();
    });
  });

  describe('extraction jobs', () => {
    it('takes over a job whose instance died holding it, once its lease has run out', async () => {
      const botId = await createBotViaApi(t, owner, 'Orphan');
      const created = await uploadFile(owner, botId, Buffer.from('Ferries leave every hour.'), 'ferry.txt');
      const source = await settled(botId, created.body.source.id as number);
      // As if another instance had claimed a re-read and died: a live lease is respected...
      await t.dataSource.query(
        `UPDATE bot_sources SET status = 'processing', job_token = $2, job_lease_until = now() + interval '1 hour',
                job_attempts = 1 WHERE id = $1`,
        [source.id, crypto.randomUUID()],
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await listSources(botId)).find((s) => s.id === source.id)!.status).toBe('processing');
      // ...and an expired one is taken over.
      await t.dataSource.query(`UPDATE bot_sources SET job_lease_until = now() - interval '1 second' WHERE id = $1`, [
        source.id,
      ]);
      expect(await settled(botId, source.id)).toMatchObject({ status: 'ready', chunks: 1 });
      const [{ job_attempts: attempts }] = await t.dataSource.query<{ job_attempts: number }[]>(
        'SELECT job_attempts FROM bot_sources WHERE id = $1',
        [source.id],
      );
      expect(attempts).toBe(2);
      expect(await passagesOf(source.id)).toBe(1);
    });

    it('marks a job failed after it was claimed too often (a file that kills its worker)', async () => {
      const botId = await createBotViaApi(t, owner, 'Poison');
      const created = await uploadFile(owner, botId, Buffer.from('Poison pills are rare.'), 'poison.txt');
      const source = await settled(botId, created.body.source.id as number);
      await t.dataSource.query(
        `UPDATE bot_sources SET status = 'processing', job_token = NULL, job_lease_until = NULL, job_attempts = 3
          WHERE id = $1`,
        [source.id],
      );
      expect(await settled(botId, source.id)).toMatchObject({
        status: 'failed',
        error: 'This file could not be processed. Please check it and upload it again.',
        chunks: 0,
      });
      expect(await passagesOf(source.id)).toBe(0);
    });
  });
});

describe('migration of an existing reference document', () => {
  it('turns each bot_documents row into a ready file source that owns its passages', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-migrate-'));
    const server = serverUrl() ? await createFileDatabase() : undefined;
    // A bare folder, not the migrated template: this test runs the migrations itself.
    const embedded = server ? undefined : await EmbeddedPostgres.start(dir, { template: false });
    const target = server
      ? { url: server.url, embedded: false, poolSize: 2 }
      : { url: embedded!.url, embedded: true, poolSize: 1 };
    // Every migration before this one (the later ones build on it).
    const before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(KnowledgeSources1796700000000));
    try {
      const old = new DataSource({ ...dataSourceOptions(target), migrations: before });
      await old.initialize();
      await old.runMigrations();
      const [user] = await old.query<{ id: number }[]>(
        `INSERT INTO users (email, password_hash) VALUES ('m@example.com', 'x') RETURNING id`,
      );
      const [bot] = await old.query<{ id: number }[]>(
        `INSERT INTO bots (owner_id, name, api_key, prompt, custom_greeting, model, allowed_domain,
           bubble_icon, bubble_color, bubble_text_color, bubble_border_radius, chat_window_border_radius, banner_color,
           banner_text_color, banner_disclaimer, placeholder_text, placeholder_text_color, send_button_color,
           send_arrow_color, widget_bubble_color, assistant_bubble_color, assistant_bubble_text_color,
           widget_background_color, animation, widget_position, max_tokens, temperature, usage_limit_dollars)
         VALUES ($1, 'Legacy', $2, 'p', 'Hi', 'gpt-4o', '', '', 'c', 'c', '50%', '10px', 'c', 'c', '', 'p',
           'c', 'c', 'c', 'c', 'c', 'c', 'c', 'none', 'right', 300, 0.3, 0) RETURNING id`,
        [user.id, crypto.randomBytes(16).toString('hex')],
      );
      const [document] = await old.query<{ id: number }[]>(
        `INSERT INTO bot_documents (bot_id, original_name, storage_key, file_path, size_bytes, page_count)
         VALUES ($1, 'handbook.pdf', 'documents/k.pdf', '/uploads/documents/k.pdf', 1234, 7) RETURNING id`,
        [bot.id],
      );
      for (const [ordinal, content] of ['Refunds take thirty days.', 'Shipping is free.'].entries()) {
        await old.query(
          `INSERT INTO document_chunks (document_id, bot_id, page, ordinal, content) VALUES ($1, $2, $3, $4, $5)`,
          [document.id, bot.id, ordinal + 2, ordinal, content],
        );
      }
      // The new migration runs on the same connection (the embedded database serves one at a time).
      const runner = old.createQueryRunner();
      try {
        await new KnowledgeSources1796700000000().up(runner);
      } finally {
        await runner.release();
      }
      const migrated = old;
      const sources = await migrated.query(
        `SELECT kind, name, status, format, pages, chunks, bytes, storage_key, is_reference FROM bot_sources WHERE bot_id = $1`,
        [bot.id],
      );
      expect(sources).toEqual([
        {
          kind: 'file',
          name: 'handbook.pdf',
          status: 'ready',
          format: 'pdf',
          pages: 7,
          chunks: 2,
          bytes: 1234,
          storage_key: 'documents/k.pdf',
          is_reference: true,
        },
      ]);
      const passages = await migrated.query(
        `SELECT c.page, s.name FROM document_chunks c JOIN bot_sources s ON s.id = c.source_id
          WHERE c.bot_id = $1 ORDER BY c.ordinal`,
        [bot.id],
      );
      expect(passages).toEqual([
        { page: 2, name: 'handbook.pdf' },
        { page: 3, name: 'handbook.pdf' },
      ]);
      await migrated.destroy();
    } finally {
      await embedded?.stop();
      await server?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
