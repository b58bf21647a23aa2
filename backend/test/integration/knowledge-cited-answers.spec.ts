import JSZip from 'jszip';
import type request from 'supertest';
import { OFFLINE_MODEL_PREFIX } from '../../src/common/constants.js';
import { createBotViaApi, makePdf } from '../support/bot-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { page, startTestWebsite, type TestWebsite } from '../support/test-website.js';

/*
 * Each kind of source, from upload or crawl to a cited answer (and an owner's correction), in one short run: `npm test` runs
 * this file on the embedded database too (PGlite), so both engines see the whole path. The
 * thorough cases live in knowledge-sources.spec.ts and knowledge-refresh.spec.ts.
 */
const SOURCE_ENV = {
  CRAWL_ALLOW_PRIVATE: 'true',
  SOURCE_JOBS_POLL_MS: '50',
  OFFLINE_MODEL_WORD_DELAY_MS: '0',
};

describe('knowledge smoke: each kind of source to a cited answer', () => {
  let t: TestApp;
  let owner: request.Agent;
  let site: TestWebsite;
  let botId: number;
  let menu = 'The pancake stack costs nine dollars.';

  beforeAll(async () => {
    t = await startTestApp(SOURCE_ENV);
    owner = (await signedInAgent(t)).agent;
    botId = await createBotViaApi(t, owner, 'Smoke');
    site = await startTestWebsite({
      '/': { body: page('Diner', '<p>Welcome to the corner diner.</p>', ['/menu']) },
      '/menu': () => ({ body: page('Menu', `<p>${menu}</p>`) }),
    });
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  async function settled(sourceId: number): Promise<{ status: string; chunks: number; pages: number | null }> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const sources = (await owner.get(`/api/bots/${botId}/sources`)).body.sources as {
        id: number;
        status: string;
        chunks: number;
        pages: number | null;
      }[];
      const source = sources.find((s) => s.id === sourceId)!;
      if (source.status !== 'processing') return source;
      if (Date.now() > deadline) throw new Error(`source ${sourceId} still processing`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  function ask(prompt: string) {
    return t.http().post('/api/chat').set('Origin', 'https://shop.example').send({ botId, prompt });
  }

  function upload(bytes: Buffer, filename: string) {
    return owner.post(`/api/bots/${botId}/sources/files`).set('Origin', t.origin).attach('file', bytes, { filename });
  }

  it('a written answer', async () => {
    const created = await owner
      .post(`/api/bots/${botId}/sources/text`)
      .set('Origin', t.origin)
      .send({ name: 'Parking', text: 'Guests park for free behind the bakery.' });
    expect(created.status).toBe(201);
    const answer = await ask('Where do guests park?');
    expect(answer.body.message).toContain('Guests park for free behind the bakery.');
    expect(answer.body.citations).toEqual([
      { sourceId: created.body.source.id, name: 'Parking', page: null, url: null },
    ]);
  });

  it("a correction: the owner's answer to a question, given first for it and its close variants", async () => {
    const before = await ask('Is parking free for guests?');
    expect(before.body.message).toContain('Guests park for free behind the bakery.');
    const created = await owner
      .post(`/api/bots/${botId}/corrections`)
      .set('Origin', t.origin)
      .send({ question: 'Is parking free for guests?', answer: 'Parking costs two dollars since May.' });
    expect(created.status).toBe(201);
    expect(created.body.source).toMatchObject({
      kind: 'text',
      correction: true,
      question: 'Is parking free for guests?',
    });
    for (const question of ['is parking free for guests', 'Is parking free?']) {
      const answer = await ask(question);
      expect(answer.body.message).toBe(`${OFFLINE_MODEL_PREFIX}Parking costs two dollars since May.`);
      expect(answer.body.citations).toEqual([
        { sourceId: created.body.source.id, name: 'Is parking free for guests?', page: null, url: null },
      ]);
    }
    expect((await ask('Do guests get free parking?')).body.message).toContain('two dollars');
    expect((await ask('Do guests get free coffee?')).body.message).not.toContain('two dollars');
  });

  it('files: a PDF and a Word document (read in worker threads)', async () => {
    const pdf = await upload(await makePdf([['The ferry leaves the harbour at noon.']]), 'Ferry.pdf');
    expect(pdf.status).toBe(201);
    expect(await settled(pdf.body.source.id)).toMatchObject({ status: 'ready', pages: 1 });
    const pdfAnswer = await ask('When does the ferry leave?');
    expect(pdfAnswer.body.message).toContain('The ferry leaves the harbour at noon.');
    expect(pdfAnswer.body.citations).toEqual([{ sourceId: pdf.body.source.id, name: 'Ferry.pdf', page: 1, url: null }]);

    const zip = new JSZip();
    zip.file(
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    );
    zip.file(
      '_rels/.rels',
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    );
    zip.file(
      'word/document.xml',
      '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
        '<w:p><w:r><w:t>Lockers are rented for two coins a day.</w:t></w:r></w:p></w:body></w:document>',
    );
    const docx = await upload(await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }), 'lockers.docx');
    expect(docx.status).toBe(201);
    expect(await settled(docx.body.source.id)).toMatchObject({ status: 'ready', chunks: 1 });
    const docxAnswer = await ask('How much are the lockers?');
    expect(docxAnswer.body.citations).toEqual([
      { sourceId: docx.body.source.id, name: 'lockers.docx', page: null, url: null },
    ]);
  });

  it('a website, and a refresh that re-indexes only its changed page', async () => {
    const created = await owner
      .post(`/api/bots/${botId}/sources/website`)
      .set('Origin', t.origin)
      .send({ url: `${site.origin}/`, maxPages: 5, refreshSchedule: 'daily' });
    expect(created.status).toBe(201);
    const id = created.body.source.id as number;
    expect(await settled(id)).toMatchObject({ status: 'ready', pages: 2 });
    const answer = await ask('How much is the pancake stack?');
    expect(answer.body.message).toContain('The pancake stack costs nine dollars.');
    expect(answer.body.citations).toEqual([{ sourceId: id, name: 'Menu', page: null, url: `${site.origin}/menu` }]);

    const ids = async () =>
      t.dataSource.query<{ id: number; page_url: string }[]>(
        'SELECT id, page_url FROM document_chunks WHERE source_id = $1 ORDER BY page_url',
        [id],
      );
    const before = await ids();
    menu = 'The pancake stack now costs ten dollars.';
    await owner.post(`/api/bots/${botId}/sources/${id}/refresh`).set('Origin', t.origin).expect(202);
    expect(await settled(id)).toMatchObject({ status: 'ready', pages: 2 });
    const after = await ids();
    expect(after.find((row) => row.page_url === `${site.origin}/`)).toEqual(
      before.find((row) => row.page_url === `${site.origin}/`),
    );
    expect(after.find((row) => row.page_url === `${site.origin}/menu`)?.id).not.toBe(
      before.find((row) => row.page_url === `${site.origin}/menu`)?.id,
    );
    expect((await ask('How much is the pancake stack?')).body.message).toContain('ten dollars');
  });

  it('an answer rated by its visitor; one about nothing the bot knows is flagged unanswered', async () => {
    const answered = await ask('Where do guests park?');
    const token = answered.headers['x-visitor-token'];
    const missed = await t
      .http()
      .post('/api/chat')
      .set('Origin', 'https://shop.example')
      .set('X-Visitor-Token', token)
      .send({ botId, prompt: 'Is there a swimming pool?' });
    const rate = (messageId: number, rating: string, as = token) =>
      t
        .http()
        .post('/api/chat/feedback')
        .set('Origin', 'https://shop.example')
        .set('X-Visitor-Token', as)
        .send({ botId, messageId, rating });
    expect((await rate(answered.body.messageId, 'up')).status).toBe(204);
    expect((await rate(missed.body.messageId, 'up')).status).toBe(204);
    expect((await rate(missed.body.messageId, 'down')).status).toBe(204);
    expect((await rate(missed.body.messageId, 'down', 'v1.forged')).status).toBe(404);
    const rows = await t.dataSource.query<{ id: number; rating: string; unanswered: boolean }[]>(
      'SELECT id, rating, unanswered FROM messages WHERE id = ANY($1::int[]) ORDER BY id',
      [[answered.body.messageId, missed.body.messageId]],
    );
    expect(rows).toEqual([
      { id: answered.body.messageId, rating: 'up', unanswered: false },
      { id: missed.body.messageId, rating: 'down', unanswered: true },
    ]);
    const [totals] = await t.dataSource.query<{ up_count: number; down_count: number; unanswered_count: number }[]>(
      'SELECT up_count, down_count, unanswered_count FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE m.id = $1',
      [answered.body.messageId],
    );
    expect(totals).toEqual({ up_count: 1, down_count: 1, unanswered_count: 1 });
  });
});
