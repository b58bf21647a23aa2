import type request from 'supertest';
import { createBotViaApi, makePdf } from '../support/bot-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { page, startTestWebsite, type TestWebsite } from '../support/test-website.js';

/*
 * The dashboard's Knowledge tab (docs/product.md#knowledge-sources): a website source's pages
 * with each page's status, written answers and corrections edited in place, and the reference
 * document as one of the sources, never a second copy of a file already there.
 */
const QUOTA_BYTES = 4096;
const ENV = {
  SOURCES_MAX_BYTES_PER_BOT: String(QUOTA_BYTES),
  CRAWL_ALLOW_PRIVATE: 'true',
  SOURCE_JOBS_POLL_MS: '50',
};
const BAD_CURSOR = 'This page link is not valid any more. Please reload the list.';

interface SourceBody {
  id: number;
  kind: string;
  name: string;
  status: string;
  bytes: number;
  chunks: number;
  question: string | null;
  correction: boolean;
  reference: boolean;
}

describe('Knowledge tab routes', () => {
  let t: TestApp;
  let owner: request.Agent;
  let other: request.Agent;
  let site: TestWebsite;

  beforeAll(async () => {
    t = await startTestApp(ENV);
    owner = (await signedInAgent(t)).agent;
    other = (await signedInAgent(t)).agent;
    site = await startTestWebsite({
      '/': { body: page('Home', '<p>Welcome to the harbour cafe by the sea.</p>', ['/hours', '/menu']) },
      '/hours': { body: page('Opening hours', '<p>The cafe opens at eight in the morning.</p>') },
      '/menu': { body: page('Menu', '<p>The fish soup costs seven euros.</p>') },
    });
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  async function sources(botId: number, agent = owner): Promise<SourceBody[]> {
    const response = await agent.get(`/api/bots/${botId}/sources`);
    expect(response.status).toBe(200);
    return response.body.sources as SourceBody[];
  }

  async function settled(botId: number, id: number): Promise<SourceBody> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = (await sources(botId)).find((source) => source.id === id);
      if (!found) throw new Error(`source ${id} is gone`);
      if (found.status !== 'processing') return found;
      if (Date.now() > deadline) throw new Error(`source ${id} still processing`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function passages(sourceId: number): Promise<string[]> {
    const rows = await t.dataSource.query<{ content: string }[]>(
      'SELECT content FROM document_chunks WHERE source_id = $1 ORDER BY id',
      [sourceId],
    );
    return rows.map((row) => row.content);
  }

  function addText(botId: number, name: string, text: string, agent = owner) {
    return agent.post(`/api/bots/${botId}/sources/text`).set('Origin', t.origin).send({ name, text });
  }

  function editText(botId: number, sourceId: number | string, body: object, agent = owner) {
    return agent.put(`/api/bots/${botId}/sources/${sourceId}/text`).set('Origin', t.origin).send(body);
  }

  function editCorrection(botId: number, sourceId: number | string, body: object, agent = owner) {
    return agent.put(`/api/bots/${botId}/corrections/${sourceId}`).set('Origin', t.origin).send(body);
  }

  async function crawledSite(botId: number): Promise<SourceBody> {
    const added = await owner
      .post(`/api/bots/${botId}/sources/website`)
      .set('Origin', t.origin)
      .send({ url: `${site.origin}/` });
    expect(added.status).toBe(201);
    const ready = await settled(botId, added.body.source.id);
    expect(ready.status).toBe('ready');
    return ready;
  }

  describe('GET /api/bots/{id}/sources/{sourceId}/pages', () => {
    it("lists a crawled website's pages with each page's status, 50 at a time, to its owner only", async () => {
      const botId = await createBotViaApi(t, owner, 'Pages Bot');
      const website = await crawledSite(botId);
      const first = await owner.get(`/api/bots/${botId}/sources/${website.id}/pages`);
      expect(first.status).toBe(200);
      expect(first.body.nextCursor).toBeNull();
      expect(first.body.pages.map((p: { url: string }) => p.url).sort()).toEqual(
        [`${site.origin}/`, `${site.origin}/hours`, `${site.origin}/menu`].sort(),
      );
      expect(first.body.pages.find((p: { url: string }) => p.url === `${site.origin}/hours`)).toEqual({
        url: `${site.origin}/hours`,
        title: 'Opening hours',
        status: 'ready',
        chunks: 1,
        bytes: expect.any(Number),
        readAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });

      // 60 more pages, the last read without any text: two pages of 50, then the rest.
      for (let i = 0; i < 60; i++) {
        await t.dataSource.query(
          `INSERT INTO source_pages (source_id, url, title, content_hash, chunks, bytes)
           VALUES ($1, $2, $3, repeat('a', 64), $4, 10)`,
          [website.id, `${site.origin}/extra-${i}`, `Extra ${i}`, i === 59 ? 0 : 1],
        );
      }
      const one = await owner.get(`/api/bots/${botId}/sources/${website.id}/pages`);
      expect(one.status).toBe(200);
      expect(one.body.pages).toHaveLength(50);
      expect(typeof one.body.nextCursor).toBe('string');
      const two = await owner
        .get(`/api/bots/${botId}/sources/${website.id}/pages`)
        .query({ cursor: one.body.nextCursor });
      expect(two.status).toBe(200);
      expect(two.body.pages).toHaveLength(13);
      expect(two.body.nextCursor).toBeNull();
      const seen = [...one.body.pages, ...two.body.pages].map((p: { url: string }) => p.url);
      expect(new Set(seen).size).toBe(63);
      expect(two.body.pages[12]).toMatchObject({ url: `${site.origin}/extra-59`, status: 'no_text', chunks: 0 });
      expect(two.body.pages[11]).toMatchObject({ url: `${site.origin}/extra-58`, status: 'ready' });

      // Another owner: not the bot, not the source under their own bot, not with a valid cursor.
      const otherBot = await createBotViaApi(t, other, 'Other Bot');
      for (const [path, code] of [
        [`/api/bots/${botId}/sources/${website.id}/pages`, 'BOT_NOT_FOUND'],
        [`/api/bots/${otherBot}/sources/${website.id}/pages`, 'SOURCE_NOT_FOUND'],
        [`/api/bots/${botId}/sources/${website.id}/pages?cursor=${one.body.nextCursor as string}`, 'BOT_NOT_FOUND'],
      ]) {
        const refused = await other.get(path);
        expect(refused.status).toBe(404);
        expect(refused.body).toEqual({ error: expect.any(String), code });
        expect(JSON.stringify(refused.body)).not.toContain('extra-');
      }
    });

    it('refuses a cursor it did not issue and a source that is not a website', async () => {
      const botId = await createBotViaApi(t, owner, 'Cursor Bot');
      const website = await crawledSite(botId);
      const url = `/api/bots/${botId}/sources/${website.id}/pages`;
      const forged = [
        'abc',
        Buffer.from('p0').toString('base64url'),
        Buffer.from('p99999999999').toString('base64url'),
        Buffer.from('p-1').toString('base64url'),
        Buffer.from("p1' OR 1=1 --").toString('base64url'),
        'x'.repeat(201),
        '../../etc/passwd',
      ];
      for (const cursor of forged) {
        const refused = await owner.get(url).query({ cursor });
        expect(refused.status).toBe(400);
        expect(refused.body.code).toMatch(/^(INVALID_CURSOR|VALIDATION_FAILED)$/);
        expect(refused.body.error).toBe(BAD_CURSOR);
      }
      const text = await addText(botId, 'Parking', 'Bicycles are parked behind the boathouse.');
      const notWebsite = await owner.get(`/api/bots/${botId}/sources/${text.body.source.id}/pages`);
      expect(notWebsite.status).toBe(409);
      expect(notWebsite.body).toEqual({ error: 'Only a website has pages to list.', code: 'SOURCE_HAS_NO_PAGES' });
      const missing = await owner.get(`/api/bots/${botId}/sources/2147483647/pages`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'Source not found.', code: 'SOURCE_NOT_FOUND' });
      const badId = await owner.get(`/api/bots/${botId}/sources/1.5/pages`);
      expect(badId.status).toBe(400);
    });
  });

  describe('PUT /api/bots/{id}/sources/{sourceId}/text', () => {
    it("replaces a written answer's question and answer, and only its passages", async () => {
      const botId = await createBotViaApi(t, owner, 'Edit Bot');
      const created = await addText(botId, 'Opening hours', 'The bakery opens at seven in the morning.');
      expect(created.status).toBe(201);
      const kept = await addText(botId, 'Parking', 'Bicycles are parked behind the boathouse.');
      const id = created.body.source.id as number;

      const edited = await editText(botId, id, {
        name: '  When do you open?  ',
        text: 'The bakery opens at six on weekdays and at eight on Saturdays.',
      });
      expect(edited.status).toBe(200);
      expect(edited.body.source).toMatchObject({
        id,
        kind: 'text',
        name: 'When do you open?',
        status: 'ready',
        chunks: 1,
        bytes: Buffer.byteLength('The bakery opens at six on weekdays and at eight on Saturdays.'),
        correction: false,
        question: null,
        reference: false,
      });
      expect(await passages(id)).toEqual(['The bakery opens at six on weekdays and at eight on Saturdays.']);
      expect(await passages(kept.body.source.id as number)).toEqual(['Bicycles are parked behind the boathouse.']);
      const listed = await sources(botId);
      expect(listed.map((source) => source.name)).toEqual(['When do you open?', 'Parking']);

      // The text as written, line breaks kept, is what the edit form opens with.
      const twoLines = 'Weekdays: six to six.\nSaturdays: eight to noon.';
      expect((await editText(botId, id, { name: 'When do you open?', text: twoLines })).status).toBe(200);
      const read = await owner.get(`/api/bots/${botId}/sources/${id}/text`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ text: twoLines });
      const foreign = await other.get(`/api/bots/${botId}/sources/${id}/text`);
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('BOT_NOT_FOUND');
      expect(JSON.stringify(foreign.body)).not.toContain('Saturdays');
    });

    it("refuses another owner's ids, other kinds of source, hostile values and growth past the quota, changing nothing", async () => {
      const botId = await createBotViaApi(t, owner, 'Guarded Bot');
      const created = await addText(botId, 'Opening hours', 'The bakery opens at seven in the morning.');
      const id = created.body.source.id as number;
      const before = await passages(id);
      const otherBot = await createBotViaApi(t, other, 'Intruder Bot');
      const body = { name: 'Hijacked', text: 'Everything is free today.' };

      const foreignBot = await editText(botId, id, body, other);
      expect(foreignBot.status).toBe(404);
      expect(foreignBot.body.code).toBe('BOT_NOT_FOUND');
      const foreignSource = await editText(otherBot, id, body, other);
      expect(foreignSource.status).toBe(404);
      expect(foreignSource.body).toEqual({ error: 'Source not found.', code: 'SOURCE_NOT_FOUND' });

      const correction = await owner
        .post(`/api/bots/${botId}/corrections`)
        .set('Origin', t.origin)
        .send({ question: 'Is parking free?', answer: 'Parking costs two dollars.' });
      const asText = await editText(botId, correction.body.source.id as number, body);
      expect(asText.status).toBe(409);
      expect(asText.body.code).toBe('SOURCE_NOT_EDITABLE');

      const website = await crawledSite(botId);
      const websiteText = await owner.get(`/api/bots/${botId}/sources/${website.id}/text`);
      expect(websiteText.status).toBe(409);
      expect(websiteText.body.code).toBe('SOURCE_NOT_EDITABLE');
      const asWebsite = await editText(botId, website.id, body);
      expect(asWebsite.status).toBe(409);
      expect(asWebsite.body).toEqual({
        error: 'Only a written answer can be edited here. Upload a file again or read a website again instead.',
        code: 'SOURCE_NOT_EDITABLE',
      });

      for (const hostile of [
        { name: '', text: 'x' },
        { name: '   ', text: 'Some answer.' },
        { name: 'Hours', text: '   ' },
        { name: 'x'.repeat(201), text: 'Some answer.' },
        { name: 'Hours', text: 'x'.repeat(100_001) },
        { name: 'Hours', text: 'Some answer.', correction: true },
        { name: ['Hours'], text: 'Some answer.' },
        { name: 'Hours' },
      ]) {
        const refused = await editText(botId, id, hostile);
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual({ error: expect.any(String), code: expect.any(String) });
      }
      const noWords = await editText(botId, id, { name: 'Hours', text: '\u0000\u0001' });
      expect([400, 422]).toContain(noWords.status);

      const tooBig = await editText(botId, id, { name: 'Hours', text: 'word '.repeat(QUOTA_BYTES / 5 + 10) });
      expect(tooBig.status).toBe(413);
      expect(tooBig.body.code).toBe('SOURCES_QUOTA_EXCEEDED');

      const withoutOrigin = await owner.put(`/api/bots/${botId}/sources/${id}/text`).send(body);
      expect(withoutOrigin.status).toBe(403);

      // Nothing changed by any refusal.
      expect(await passages(id)).toEqual(before);
      const after = (await sources(botId)).find((source) => source.id === id);
      expect(after).toMatchObject({ name: 'Opening hours', bytes: Buffer.byteLength(before[0]) });
    });
  });

  describe('PUT /api/bots/{id}/corrections/{sourceId}', () => {
    it("edits a correction's question and answer; refuses other owners and other sources", async () => {
      const botId = await createBotViaApi(t, owner, 'Correction Bot');
      const created = await owner
        .post(`/api/bots/${botId}/corrections`)
        .set('Origin', t.origin)
        .send({ question: 'Is parking free?', answer: 'Parking costs two dollars.' });
      expect(created.status).toBe(201);
      const id = created.body.source.id as number;

      const edited = await editCorrection(botId, id, {
        question: ' Can I park for free? ',
        answer: 'Parking is free after six in the evening.',
      });
      expect(edited.status).toBe(200);
      expect(edited.body.source).toMatchObject({
        id,
        kind: 'text',
        name: 'Can I park for free?',
        correction: true,
        question: 'Can I park for free?',
        status: 'ready',
      });
      expect(await passages(id)).toEqual(['Parking is free after six in the evening.']);
      const read = await owner.get(`/api/bots/${botId}/sources/${id}/text`);
      expect(read.body).toEqual({ text: 'Parking is free after six in the evening.' });

      const otherBot = await createBotViaApi(t, other, 'Intruder Bot 2');
      const body = { question: 'Hijacked?', answer: 'Everything is free.' };
      const foreign = await editCorrection(botId, id, body, other);
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('BOT_NOT_FOUND');
      const foreignSource = await editCorrection(otherBot, id, body, other);
      expect(foreignSource.status).toBe(404);
      expect(foreignSource.body.code).toBe('SOURCE_NOT_FOUND');
      const text = await addText(botId, 'Hours', 'We open at seven.');
      const notCorrection = await editCorrection(botId, text.body.source.id as number, body);
      expect(notCorrection.status).toBe(404);
      expect(notCorrection.body).toEqual({ error: 'Correction not found.', code: 'SOURCE_NOT_FOUND' });
      for (const hostile of [
        { question: '', answer: 'x' },
        { question: 'q'.repeat(1001), answer: 'x' },
        { question: 'Why?', answer: 'a'.repeat(4001) },
        { question: 'Why?', answer: 'Because.', name: 'extra' },
      ]) {
        const refused = await editCorrection(botId, id, hostile);
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual({ error: expect.any(String), code: expect.any(String) });
      }
      expect(await passages(id)).toEqual(['Parking is free after six in the evening.']);
      const listed = (await sources(botId)).find((source) => source.id === id);
      expect(listed).toMatchObject({ question: 'Can I park for free?' });
    });
  });

  describe('the reference document is one of the sources', () => {
    it('uploading a PDF already among the file sources as the reference document keeps one copy', async () => {
      const botId = await createBotViaApi(t, owner, 'Reference Bot');
      const pdf = await makePdf([['The harbour cafe serves breakfast until eleven.']]);
      const tours = await makePdf([['A different leaflet about the boat tours.']]);
      const asFile = await owner
        .post(`/api/bots/${botId}/sources/files`)
        .set('Origin', t.origin)
        .attach('file', pdf, { filename: 'leaflet.pdf', contentType: 'application/pdf' });
      expect(asFile.status).toBe(201);
      const second = await owner
        .post(`/api/bots/${botId}/sources/files`)
        .set('Origin', t.origin)
        .attach('file', tours, { filename: 'tours.pdf', contentType: 'application/pdf' });
      await settled(botId, asFile.body.source.id as number);
      await settled(botId, second.body.source.id as number);

      const asReference = await owner
        .post(`/api/upload/update-document/${botId}`)
        .set('Origin', t.origin)
        .attach('document', pdf, { filename: 'leaflet.pdf', contentType: 'application/pdf' });
      expect(asReference.status).toBe(200);
      expect(asReference.body.document).toEqual({ originalName: 'leaflet.pdf', filePath: expect.any(String) });

      const listed = await sources(botId);
      expect(listed.filter((source) => source.kind === 'file').map((s) => [s.name, s.reference])).toEqual([
        ['tours.pdf', false],
        ['leaflet.pdf', true],
      ]);
      const rows = await t.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM document_chunks WHERE bot_id = $1 AND content LIKE '%breakfast%'`,
        [botId],
      );
      expect(rows[0].n).toBe(1);
      // The bot's document field (docs/product.md#edit-bot-modal) still names it.
      const bot = await owner.get(`/api/bots/${botId}`);
      expect(bot.body.bot.document).toMatchObject({ originalName: 'leaflet.pdf' });
    });
  });
});
