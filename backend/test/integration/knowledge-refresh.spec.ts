import JSZip from 'jszip';
import type request from 'supertest';
import { createBotViaApi } from '../support/bot-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { page, startTestWebsite, type TestWebsite } from '../support/test-website.js';

/*
 * Website sources stay current: a refresh asks for each stored page conditionally and
 * re-indexes only the pages that changed; the owner picks how often that happens by itself;
 * the pages' text counts in the bot's quota.
 */
const QUOTA_BYTES = 64 * 1024;
const SOURCE_ENV = {
  SOURCES_MAX_BYTES_PER_BOT: String(QUOTA_BYTES),
  CRAWL_ALLOW_PRIVATE: 'true',
  SOURCE_JOBS_POLL_MS: '50',
  OFFLINE_MODEL_WORD_DELAY_MS: '0',
};
const SCHEDULE_SENTENCE = 'Choose how often the website is read again: "off", "daily" or "weekly".';
const DAY_MS = 24 * 60 * 60 * 1000;

interface SourceBody {
  id: number;
  kind: string;
  status: string;
  error: string | null;
  notice: string | null;
  pages: number | null;
  chunks: number;
  bytes: number;
  refreshSchedule: string | null;
  lastRefreshedAt: string | null;
  nextRefreshAt: string | null;
}

describe('website refresh', () => {
  let t: TestApp;
  let owner: request.Agent;
  let other: request.Agent;
  let site: TestWebsite;
  const texts: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp(SOURCE_ENV);
    owner = (await signedInAgent(t)).agent;
    other = (await signedInAgent(t)).agent;
    // Each page's text is read from `texts` at request time; "/tagged" answers 304 to its ETag.
    const route = (path: string, title: string) => () => ({ body: page(title, `<p>${texts[path]}</p>`, links()) });
    const links = () => Object.keys(texts).filter((path) => path !== '/' && path !== '/tagged' && texts[path] !== '');
    site = await startTestWebsite({
      '/': () => ({ body: page('Home', `<p>${texts['/']}</p>`, [...links(), '/tagged']) }),
      '/hours': route('/hours', 'Opening hours'),
      '/menu': route('/menu', 'Menu'),
      '/parking': () => (texts['/parking'] === '' ? { status: 404, body: 'gone' } : route('/parking', 'Parking')()),
      '/tagged': (req) =>
        req.headers['if-none-match'] === '"t1"'
          ? { status: 304, headers: { etag: '"t1"' } }
          : { headers: { etag: '"t1"' }, body: page('Tagged', `<p>${texts['/tagged']}</p>`) },
    });
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  function resetTexts(): void {
    Object.assign(texts, {
      '/': 'Welcome to the harbour cafe.',
      '/hours': 'The cafe opens at eight in the morning.',
      '/menu': 'The fish soup costs seven euros.',
      '/parking': 'Bicycles are parked behind the boathouse.',
      '/tagged': 'The tagged page never changes.',
    });
  }

  async function source(botId: number, id: number, agent = owner): Promise<SourceBody> {
    const response = await agent.get(`/api/bots/${botId}/sources`);
    expect(response.status).toBe(200);
    const found = (response.body.sources as SourceBody[]).find((s) => s.id === id);
    if (!found) throw new Error(`source ${id} is gone`);
    return found;
  }

  async function settled(botId: number, id: number): Promise<SourceBody> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = await source(botId, id);
      if (found.status !== 'processing') return found;
      if (Date.now() > deadline) throw new Error(`source ${id} still processing`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Passage ids by the page they come from. */
  async function passageIds(sourceId: number): Promise<Record<string, number[]>> {
    const rows = await t.dataSource.query<{ id: number; page_url: string }[]>(
      'SELECT id, page_url FROM document_chunks WHERE source_id = $1 ORDER BY id',
      [sourceId],
    );
    const byPage: Record<string, number[]> = {};
    for (const row of rows) (byPage[row.page_url.replace(site.origin, '')] ??= []).push(row.id);
    return byPage;
  }

  async function storedPages(sourceId: number): Promise<string[]> {
    const rows = await t.dataSource.query<{ url: string }[]>(
      'SELECT url FROM source_pages WHERE source_id = $1 ORDER BY url',
      [sourceId],
    );
    return rows.map((row) => row.url.replace(site.origin, ''));
  }

  function addWebsite(botId: number, body: object, agent = owner) {
    return agent.post(`/api/bots/${botId}/sources/website`).set('Origin', t.origin).send(body);
  }

  function patch(botId: number, sourceId: number, body: unknown, agent = owner) {
    return agent
      .patch(`/api/bots/${botId}/sources/${sourceId}`)
      .set('Origin', t.origin)
      .send(body as object);
  }

  function ask(botId: number, prompt: string) {
    return t.http().post('/api/chat').set('Origin', 'https://shop.example').send({ botId, prompt });
  }

  it('re-indexes only the page that changed, adds a new page, and drops a removed one', async () => {
    resetTexts();
    const botId = await createBotViaApi(t, owner, 'Harbour cafe');
    const created = await addWebsite(botId, { url: `${site.origin}/`, maxPages: 20 });
    expect(created.status).toBe(201);
    const id = created.body.source.id as number;
    const first = await settled(botId, id);
    expect(first).toMatchObject({ status: 'ready', pages: 5, notice: null });
    const bytes = Object.values(texts).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    expect(first.bytes).toBe(bytes);
    expect(await storedPages(id)).toEqual(['/', '/hours', '/menu', '/parking', '/tagged']);
    const before = await passageIds(id);

    texts['/menu'] = 'The fish soup now costs nine euros.';
    site.requests.length = 0;
    expect((await owner.post(`/api/bots/${botId}/sources/${id}/refresh`).set('Origin', t.origin)).status).toBe(202);
    const second = await settled(botId, id);
    expect(second).toMatchObject({ status: 'ready', pages: 5, chunks: first.chunks });
    const after = await passageIds(id);
    // Every other page keeps its passages (same ids); the changed one has new ones.
    for (const path of ['/', '/hours', '/parking', '/tagged']) expect(after[path]).toEqual(before[path]);
    expect(after['/menu']).toHaveLength(before['/menu'].length);
    expect(after['/menu'].some((passage) => before['/menu'].includes(passage))).toBe(false);
    // The page was asked for conditionally.
    expect(site.requests.find((r) => r.path === '/tagged')?.headers['if-none-match']).toBe('"t1"');
    const answer = await ask(botId, 'How much is the fish soup?');
    expect(answer.body.message).toContain('The fish soup now costs nine euros.');
    expect(answer.body.citations).toEqual([{ sourceId: id, name: 'Menu', page: null, url: `${site.origin}/menu` }]);

    // A page removed from the site loses its passages; a new page is added; the others stay.
    texts['/parking'] = '';
    texts['/boats'] = 'Rowing boats are rented by the hour.';
    site.routes.set('/boats', () => ({ body: page('Boats', `<p>${texts['/boats']}</p>`) }));
    await owner.post(`/api/bots/${botId}/sources/${id}/refresh`).set('Origin', t.origin).expect(202);
    const third = await settled(botId, id);
    expect(third).toMatchObject({ status: 'ready', pages: 5 });
    expect(await storedPages(id)).toEqual(['/', '/boats', '/hours', '/menu', '/tagged']);
    const last = await passageIds(id);
    expect(last['/parking']).toBeUndefined();
    expect(last['/boats']).toHaveLength(1);
    for (const path of ['/', '/hours', '/menu', '/tagged']) expect(last[path]).toEqual(after[path]);
    expect(third.chunks).toBe(Object.values(last).flat().length);
    const parking = await ask(botId, 'Where are bicycles parked?');
    expect(parking.body.citations).toEqual([]);
    delete texts['/boats'];
    site.routes.delete('/boats');
  });

  it('a refresh that cannot reach the site keeps the pages read before, with a notice', async () => {
    resetTexts();
    const botId = await createBotViaApi(t, owner, 'Outage');
    const created = await addWebsite(botId, { url: `${site.origin}/`, maxPages: 20 });
    const first = await settled(botId, created.body.source.id as number);
    const before = await passageIds(first.id);
    site.routes.set('/robots.txt', { status: 503, body: 'down' });
    try {
      await owner.post(`/api/bots/${botId}/sources/${first.id}/refresh`).set('Origin', t.origin).expect(202);
      const after = await settled(botId, first.id);
      expect(after).toMatchObject({
        status: 'ready',
        error: null,
        pages: first.pages,
        chunks: first.chunks,
        notice:
          'The last refresh did not finish: The website could not be reached. Check the address and try again. ' +
          'The pages read before still answer questions.',
        lastRefreshedAt: first.lastRefreshedAt,
      });
      expect(await passageIds(first.id)).toEqual(before);
    } finally {
      site.routes.delete('/robots.txt');
    }
  });

  describe('schedule', () => {
    let botId: number;
    beforeAll(async () => {
      resetTexts();
      botId = await createBotViaApi(t, owner, 'Schedules');
    });

    it('is weekly unless chosen; next refresh is one period after the last; PATCH changes it', async () => {
      const weekly = await addWebsite(botId, { url: `${site.origin}/`, maxPages: 2 });
      expect(weekly.body.source).toMatchObject({
        refreshSchedule: 'weekly',
        lastRefreshedAt: null,
        nextRefreshAt: null,
      });
      const ready = await settled(botId, weekly.body.source.id as number);
      const last = Date.parse(ready.lastRefreshedAt!);
      expect(Date.parse(ready.nextRefreshAt!) - last).toBe(7 * DAY_MS);

      const daily = await patch(botId, ready.id, { refreshSchedule: 'daily' });
      expect(daily.status).toBe(200);
      expect(daily.body.source).toMatchObject({
        id: ready.id,
        refreshSchedule: 'daily',
        lastRefreshedAt: ready.lastRefreshedAt,
      });
      expect(Date.parse(daily.body.source.nextRefreshAt) - last).toBe(DAY_MS);

      const off = await patch(botId, ready.id, { refreshSchedule: 'off' });
      expect(off.body.source).toMatchObject({ refreshSchedule: 'off', nextRefreshAt: null });
      expect((await source(botId, ready.id)).refreshSchedule).toBe('off');

      const chosen = await addWebsite(botId, { url: `${site.origin}/`, maxPages: 1, refreshSchedule: 'off' });
      expect(chosen.status).toBe(201);
      expect(chosen.body.source.refreshSchedule).toBe('off');
      expect(await settled(botId, chosen.body.source.id as number)).toMatchObject({
        status: 'ready',
        refreshSchedule: 'off',
        nextRefreshAt: null,
      });
    });

    it('reads a website again by itself when its refresh is due, and never when the schedule is off', async () => {
      const due = await settled(
        botId,
        (await addWebsite(botId, { url: `${site.origin}/`, maxPages: 1, refreshSchedule: 'daily' })).body.source.id,
      );
      const off = await settled(
        botId,
        (await addWebsite(botId, { url: `${site.origin}/`, maxPages: 1, refreshSchedule: 'off' })).body.source.id,
      );
      // As if the last reads were long ago: the daily one is due, the one that is off is not.
      await t.dataSource.query(
        `UPDATE bot_sources SET last_refreshed_at = now() - interval '30 days',
                next_refresh_at = CASE WHEN refresh_schedule = 'off' THEN NULL ELSE now() - interval '1 second' END
          WHERE id IN ($1, $2)`,
        [due.id, off.id],
      );
      const deadline = Date.now() + 20_000;
      let refreshed = await source(botId, due.id);
      while (Date.parse(refreshed.lastRefreshedAt!) <= Date.parse(due.lastRefreshedAt!) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        refreshed = await source(botId, due.id);
      }
      expect(refreshed.status).toBe('ready');
      expect(Date.parse(refreshed.lastRefreshedAt!)).toBeGreaterThan(Date.parse(due.lastRefreshedAt!));
      expect(Date.parse(refreshed.nextRefreshAt!) - Date.parse(refreshed.lastRefreshedAt!)).toBe(DAY_MS);
      // Many polls later, the source whose schedule is off was not read.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const untouched = await source(botId, off.id);
      expect(untouched).toMatchObject({ status: 'ready', nextRefreshAt: null });
      expect(Date.now() - Date.parse(untouched.lastRefreshedAt!)).toBeGreaterThan(29 * DAY_MS);
    });

    it('400 for a schedule that is not off, daily or weekly; 409 for a source that is not a website', async () => {
      const website = await addWebsite(botId, { url: `${site.origin}/`, maxPages: 1 });
      const id = website.body.source.id as number;
      await settled(botId, id);
      for (const value of ['hourly', 'WEEKLY', '', null, 7, ['daily'], { a: 1 }]) {
        const response = await patch(botId, id, { refreshSchedule: value });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: SCHEDULE_SENTENCE, code: 'VALIDATION_FAILED' });
      }
      expect((await patch(botId, id, {})).status).toBe(400);
      const bad = await addWebsite(botId, { url: `${site.origin}/`, refreshSchedule: 'monthly' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: SCHEDULE_SENTENCE, code: 'VALIDATION_FAILED' });
      expect((await source(botId, id)).refreshSchedule).toBe('weekly');

      const text = await owner
        .post(`/api/bots/${botId}/sources/text`)
        .set('Origin', t.origin)
        .send({ name: 'Note', text: 'Towels are at the desk.' });
      const response = await patch(botId, text.body.source.id as number, { refreshSchedule: 'daily' });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        error: 'Only a website can be read again on a schedule.',
        code: 'SOURCE_NOT_SCHEDULABLE',
      });
    });

    it("another owner's bot or source is 404, and its schedule does not change", async () => {
      const website = await addWebsite(botId, { url: `${site.origin}/`, maxPages: 1, refreshSchedule: 'daily' });
      const id = website.body.source.id as number;
      const theirs = await createBotViaApi(t, other, 'Theirs');
      const onOurBot = await patch(botId, id, { refreshSchedule: 'off' }, other);
      expect(onOurBot.status).toBe(404);
      expect(onOurBot.body).toEqual({ error: 'Bot not found.', code: 'BOT_NOT_FOUND' });
      const onTheirBot = await patch(theirs, id, { refreshSchedule: 'off' }, other);
      expect(onTheirBot.status).toBe(404);
      expect(onTheirBot.body).toEqual({ error: 'Source not found.', code: 'SOURCE_NOT_FOUND' });
      expect((await patch(botId, 999_999, { refreshSchedule: 'off' })).status).toBe(404);
      expect((await source(botId, id)).refreshSchedule).toBe('daily');
      expect((await t.http().patch(`/api/bots/${botId}/sources/${id}`).send({ refreshSchedule: 'off' })).status).toBe(
        401,
      );
    });
  });

  it("counts page text in the bot's quota: the crawl stops at the quota and says so", async () => {
    resetTexts();
    const botId = await createBotViaApi(t, owner, 'Full');
    // A file leaves room for two pages of 5,999 bytes (about 15,000 bytes), not three.
    const big = Buffer.from('Anchors are heavy. '.repeat(Math.floor((QUOTA_BYTES - 15_000) / 19)));
    const file = await owner
      .post(`/api/bots/${botId}/sources/files`)
      .set('Origin', t.origin)
      .attach('file', big, { filename: 'anchors.txt' });
    expect(file.status).toBe(201);
    await settled(botId, file.body.source.id as number);
    const long = (word: string) => `${word} `.repeat(1000).trim();
    texts['/'] = long('Hello');
    texts['/hours'] = long('Hours');
    texts['/menu'] = long('Menus');
    texts['/parking'] = long('Parks');
    const created = await addWebsite(botId, { url: `${site.origin}/`, maxPages: 20 });
    const full = await settled(botId, created.body.source.id as number);
    expect(full).toMatchObject({
      status: 'ready',
      pages: 2,
      notice:
        "This bot's sources can hold 0.1 MB in all: 2 pages were read before that limit was reached. " +
        'Delete a source to make room for more.',
    });
    expect(big.length + full.bytes).toBeLessThanOrEqual(QUOTA_BYTES);
    expect(full.bytes).toBe(2 * 5_999);
    expect(await storedPages(full.id)).toHaveLength(2);

    // The website's pages count against later uploads.
    const more = await owner
      .post(`/api/bots/${botId}/sources/files`)
      .set('Origin', t.origin)
      .attach('file', Buffer.from('Ropes are long. '.repeat(300)), { filename: 'ropes.txt' });
    expect(more.status).toBe(413);
    expect(more.body.code).toBe('SOURCES_QUOTA_EXCEEDED');

    // With no room at all, the website fails with a sentence.
    const none = await addWebsite(botId, { url: `${site.origin}/`, maxPages: 20 });
    expect(await settled(botId, none.body.source.id as number)).toMatchObject({
      status: 'failed',
      error: "This bot's sources are full: not one page of this website fits. Delete a source to make room.",
      chunks: 0,
      bytes: 0,
    });
  });

  it('refuses a Word document whose text would inflate past 50 MB (422, nothing stored)', async () => {
    const botId = await createBotViaApi(t, owner, 'Inflation');
    const zip = new JSZip();
    zip.file(
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    );
    zip.file('word/document.xml', `<w:document><w:body><w:p><w:r><w:t>${'a'.repeat(51 * 1024 * 1024)}`);
    const bomb = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const response = await owner
      .post(`/api/bots/${botId}/sources/files`)
      .set('Origin', t.origin)
      .attach('file', bomb, { filename: 'bomb.docx' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error:
        'This Word document is too large to read: its text would take more than 50 MB once unpacked. ' +
        'Split it into smaller documents.',
      code: 'DOCX_TOO_LARGE',
    });
    expect((await owner.get(`/api/bots/${botId}/sources`)).body.sources).toEqual([]);
  });
  it('a page too complex to read is left out and named in the notice; the rest of the site answers', async () => {
    const heavy = await startTestWebsite({
      '/': () => ({ body: page('Home', '<p>The bakery sells rye bread.</p>', ['/prices', '/huge']) }),
      '/prices': () => ({ body: page('Prices', '<p>A loaf of rye bread costs four euros.</p>') }),
      // Unclosed elements: the page parser runs past its time limit (PAGE_EXTRACTION) on this.
      '/huge': () => ({ body: page('Huge', '<div>'.repeat(100_000)) }),
    });
    try {
      const botId = await createBotViaApi(t, owner, 'Bakery');
      const created = await addWebsite(botId, { url: `${heavy.origin}/`, maxPages: 10, refreshSchedule: 'off' });
      expect(created.status).toBe(201);
      const id = created.body.source.id as number;
      const deadline = Date.now() + 45_000;
      let found = await source(botId, id);
      while (found.status === 'processing' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        found = await source(botId, id);
      }
      expect(found).toMatchObject({
        status: 'ready',
        pages: 2,
        notice: `This page needs too much time or memory to read, so it does not answer questions: ${heavy.origin}/huge.`,
      });
      const answer = await ask(botId, 'How much is a loaf of rye bread?');
      expect(answer.body.message).toContain('A loaf of rye bread costs four euros.');
    } finally {
      await heavy.close();
    }
  }, 90_000);
});
