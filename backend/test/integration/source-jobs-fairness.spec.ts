import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type request from 'supertest';
import { createBotViaApi } from '../support/bot-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { page, startTestWebsite, type TestWebsite } from '../support/test-website.js';

/*
 * Fair source jobs (docs/product.md#knowledge-sources), the attacks as the tests: one owner's slow
 * crawls do not hold back another owner's upload or crawl; an owner's second crawl waits while
 * their first runs (SOURCE_JOBS_PER_OWNER=1); deleting a crawling source, its bot or its account
 * stops the crawl within seconds and nothing of it is written; the daily limits on websites
 * added and refreshes asked for answer 429 with a sentence and store nothing.
 */
const WEBSITES_PER_DAY = 3;
const REFRESHES_PER_DAY = 2;
const SOURCE_ENV = {
  CRAWL_ALLOW_PRIVATE: 'true',
  SOURCE_JOBS_POLL_MS: '50',
  OFFLINE_MODEL_WORD_DELAY_MS: '0',
  SOURCE_JOBS_PER_OWNER: '1',
  WEBSITE_SOURCES_PER_OWNER_PER_DAY: String(WEBSITES_PER_DAY),
  SOURCE_REFRESHES_PER_OWNER_PER_DAY: String(REFRESHES_PER_DAY),
};
const WEBSITES_SENTENCE = `You can add up to ${WEBSITES_PER_DAY} websites a day. Try again tomorrow.`;
const REFRESHES_SENTENCE = `You can ask for up to ${REFRESHES_PER_DAY} sources to be read again a day. Try again tomorrow.`;
/** A victim's upload: 47 bytes of text, as in the issue. */
const SMALL_TEXT = 'The lighthouse tour starts at nine on Sundays.\n';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * A site that answers, then makes every crawler wait: robots.txt asks for a 10-second
 * Crawl-delay and the home page links to 20 more pages, so a crawl of it lasts minutes.
 */
function slowSite(name: string): Promise<TestWebsite> {
  const pages = Array.from({ length: 20 }, (_, i) => `/page-${i + 1}`);
  return startTestWebsite({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nCrawl-delay: 10\n' },
    '/': { body: page(name, `<p>${name} welcomes slow readers.</p>`, pages) },
    ...Object.fromEntries(pages.map((path) => [path, { body: page(path, `<p>${name} page ${path}.</p>`) }])),
  });
}

/** A site whose home page never answers; it notes when a request's connection is closed. */
async function hangingSite(): Promise<{
  origin: string;
  requests: string[];
  closedAt: number[];
  close(): Promise<void>;
}> {
  const requests: string[] = [];
  const closedAt: number[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '/');
    if (req.url === '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    req.on('close', () => closedAt.push(Date.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    closedAt,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('fair source jobs', () => {
  let t: TestApp;
  const sites: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    t = await startTestApp(SOURCE_ENV);
  });
  afterAll(async () => {
    await t.close();
    for (const site of sites) await site.close();
  });

  async function owner(): Promise<{ agent: request.Agent; botId: number; userId: number }> {
    const { agent, user } = await signedInAgent(t);
    return { agent, botId: await createBotViaApi(t, agent, 'Harbour'), userId: user.id };
  }

  async function addWebsite(agent: request.Agent, botId: number, url: string): Promise<number> {
    const response = await agent
      .post(`/api/bots/${botId}/sources/website`)
      .set('Origin', t.origin)
      .send({ url, maxPages: 50, refreshSchedule: 'off' });
    expect(response.status).toBe(201);
    return response.body.source.id as number;
  }

  async function statusOf(sourceId: number): Promise<string | null> {
    const rows = await t.dataSource.query<{ status: string }[]>('SELECT status FROM bot_sources WHERE id = $1', [
      sourceId,
    ]);
    return rows[0]?.status ?? null;
  }

  /** Rows a source leaves behind: itself, its pages, its passages. */
  async function rowsOf(sourceId: number): Promise<number> {
    const [row] = await t.dataSource.query<{ n: number }[]>(
      `SELECT (SELECT count(*) FROM bot_sources WHERE id = $1)::int
            + (SELECT count(*) FROM source_pages WHERE source_id = $1)::int
            + (SELECT count(*) FROM document_chunks WHERE source_id = $1)::int AS n`,
      [sourceId],
    );
    return row.n;
  }

  it("makes a victim's small upload ready while another owner's three slow crawls run, one at a time", async () => {
    const attackerSites = await Promise.all([slowSite('Alpha'), slowSite('Beta'), slowSite('Gamma')]);
    sites.push(...attackerSites);
    const attacker = await owner();
    const crawls: number[] = [];
    for (const site of attackerSites) crawls.push(await addWebsite(attacker.agent, attacker.botId, `${site.origin}/`));
    // The first crawl has read the home page and now waits out the site's Crawl-delay.
    const started = await until('a crawl to start', async () =>
      attackerSites.find((site) => site.paths().includes('/')),
    );

    const victim = await owner();
    const upload = await victim.agent
      .post(`/api/bots/${victim.botId}/sources/files`)
      .set('Origin', t.origin)
      .attach('file', Buffer.from(SMALL_TEXT), { filename: 'tours.txt' });
    expect(upload.status).toBe(201);
    expect(upload.body.source.status).toBe('processing');
    const uploadedAt = Date.now();
    const fileId = upload.body.source.id as number;
    await until('the upload to be ready', async () => (await statusOf(fileId)) === 'ready', 5_000);
    expect(Date.now() - uploadedAt).toBeLessThan(5_000);
    const list = await victim.agent.get(`/api/bots/${victim.botId}/sources`);
    expect(list.body.sources).toEqual([expect.objectContaining({ id: fileId, status: 'ready', chunks: 1 })]);

    // A third owner's website is read beside the attacker's crawl, not after their queue.
    const fast = await startTestWebsite({ '/': { body: page('Ferry', '<p>The ferry leaves at noon.</p>') } });
    sites.push(fast);
    const third = await owner();
    const thirdSite = await addWebsite(third.agent, third.botId, `${fast.origin}/`);
    await until('the third owner’s website to be ready', async () => (await statusOf(thirdSite)) === 'ready', 5_000);

    // Meanwhile the attacker's other two crawls have not begun: one of theirs runs at a time.
    for (const site of attackerSites) expect(site.requests.length > 0).toBe(site === started);
    for (const id of crawls) expect(await statusOf(id)).toBe('processing');

    // Their bot goes: the crawl stops, and the other two are never read.
    await attacker.agent.delete(`/api/bots/${attacker.botId}`).set('Origin', t.origin).expect(200);
    const seen = attackerSites.map((site) => site.requests.length);
    await sleep(3_000);
    expect(attackerSites.map((site) => site.requests.length)).toEqual(seen);
    for (const id of crawls) expect(await rowsOf(id)).toBe(0);
  });

  it('stops a crawl waiting out its Crawl-delay within seconds when its source is deleted, and writes nothing', async () => {
    const slow = await slowSite('Delta');
    const next = await startTestWebsite({ '/': { body: page('Quay', '<p>The quay opens at six.</p>') } });
    sites.push(slow, next);
    const { agent, botId } = await owner();
    const crawling = await addWebsite(agent, botId, `${slow.origin}/`);
    const waiting = await addWebsite(agent, botId, `${next.origin}/`);
    await until('the crawl to read the home page', async () => slow.paths().includes('/'));
    // The crawl now sleeps 10 s before its next request; the owner's second website waits for it.
    await sleep(500);
    expect(next.requests).toHaveLength(0);

    const deletedAt = Date.now();
    await agent.delete(`/api/bots/${botId}/sources/${crawling}`).set('Origin', t.origin).expect(204);
    // The slot is free within seconds (not after the Crawl-delay): the owner's next website is read.
    await until('the next website to be read', async () => next.paths().includes('/'), 3_000);
    expect(Date.now() - deletedAt).toBeLessThan(3_000);
    await until('the next website to be ready', async () => (await statusOf(waiting)) === 'ready');

    // The deleted crawl never asks the site again, even after its Crawl-delay has passed.
    const asked = slow.requests.length;
    const lastAt = slow.requests[asked - 1].at;
    await sleep(Math.max(0, 10_500 - (performance.now() - lastAt)));
    expect(slow.requests).toHaveLength(asked);
    expect(await rowsOf(crawling)).toBe(0);
  });

  it('stops a crawl within seconds when its bot is deleted', async () => {
    const site = await hangingSite();
    sites.push(site);
    const { agent, botId } = await owner();
    const crawling = await addWebsite(agent, botId, `${site.origin}/`);
    await until('the crawl to ask for the home page', async () => site.requests.includes('/'));
    expect(site.closedAt).toHaveLength(0);

    const deletedAt = Date.now();
    await agent.delete(`/api/bots/${botId}`).set('Origin', t.origin).expect(200);
    // The request in flight is dropped by the crawler within seconds.
    const closed = await until('the crawler to hang up', async () => site.closedAt[0], 5_000);
    expect(closed - deletedAt).toBeLessThan(3_000);
    const asked = site.requests.length;
    await sleep(1_500);
    expect(site.requests).toHaveLength(asked);
    expect(await rowsOf(crawling)).toBe(0);
  });

  it('stops a crawl within seconds when its account is deleted', async () => {
    const site = await hangingSite();
    sites.push(site);
    const { agent, botId } = await owner();
    const crawling = await addWebsite(agent, botId, `${site.origin}/`);
    await until('the crawl to ask for the home page', async () => site.requests.includes('/'));

    const deletedAt = Date.now();
    const response = await agent.delete('/api/auth/delete-account').set('Origin', t.origin);
    expect(response.status).toBe(200);
    const closed = await until('the crawler to hang up', async () => site.closedAt[0], 5_000);
    expect(closed - deletedAt).toBeLessThan(3_000);
    const asked = site.requests.length;
    await sleep(1_500);
    expect(site.requests).toHaveLength(asked);
    expect(await rowsOf(crawling)).toBe(0);
  });

  describe('daily limits', () => {
    let site: TestWebsite;

    beforeAll(async () => {
      site = await startTestWebsite({ '/': { body: page('Pier', '<p>The pier is lit at dusk.</p>') } });
      sites.push(site);
    });

    it('refuses a website past the daily limit with 429 and a sentence, across bots, and stores nothing', async () => {
      const { agent, botId, userId } = await owner();
      const added: number[] = [];
      for (let i = 0; i < WEBSITES_PER_DAY; i += 1) added.push(await addWebsite(agent, botId, `${site.origin}/`));
      const otherBot = await createBotViaApi(t, agent, 'Second');
      const countSources = async () =>
        (
          await t.dataSource.query<{ n: number }[]>(
            'SELECT count(*)::int AS n FROM bot_sources s JOIN bots b ON b.id = s.bot_id WHERE b.owner_id = $1',
            [userId],
          )
        )[0].n;

      for (const bot of [botId, otherBot]) {
        const refused = await agent
          .post(`/api/bots/${bot}/sources/website`)
          .set('Origin', t.origin)
          .send({ url: `${site.origin}/` });
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual({ error: WEBSITES_SENTENCE, code: 'WEBSITE_SOURCES_DAILY_LIMIT' });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(86_400);
      }
      expect(await countSources()).toBe(WEBSITES_PER_DAY);

      // Deleting a website does not give its place back: the day's count holds.
      await agent.delete(`/api/bots/${botId}/sources/${added[0]}`).set('Origin', t.origin).expect(204);
      const again = await agent
        .post(`/api/bots/${botId}/sources/website`)
        .set('Origin', t.origin)
        .send({ url: `${site.origin}/` });
      expect(again.status).toBe(429);
      expect(again.body.code).toBe('WEBSITE_SOURCES_DAILY_LIMIT');
      expect(await countSources()).toBe(WEBSITES_PER_DAY - 1);

      // Another owner is not affected, and a malformed address is still a 400 first.
      const other = await owner();
      await addWebsite(other.agent, other.botId, `${site.origin}/`);
      const malformed = await agent
        .post(`/api/bots/${botId}/sources/website`)
        .set('Origin', t.origin)
        .send({ url: 'harbour' });
      expect(malformed.status).toBe(400);
    });

    it('refuses a refresh past the daily limit with 429 and a sentence, and leaves the source as it was', async () => {
      const { agent, botId } = await owner();
      const website = await addWebsite(agent, botId, `${site.origin}/`);
      const file = await agent
        .post(`/api/bots/${botId}/sources/files`)
        .set('Origin', t.origin)
        .attach('file', Buffer.from(SMALL_TEXT), { filename: 'tours.txt' });
      expect(file.status).toBe(201);
      const fileId = file.body.source.id as number;
      const ready = async () => (await statusOf(website)) === 'ready' && (await statusOf(fileId)) === 'ready';
      await until('both sources to be ready', ready);

      // Files and websites count together.
      for (const id of [website, fileId]) {
        const response = await agent.post(`/api/bots/${botId}/sources/${id}/refresh`).set('Origin', t.origin);
        expect(response.status).toBe(202);
      }
      await until('both sources to be read again', ready);
      const before = await t.dataSource.query<unknown[]>(
        'SELECT id, status, job_token, job_attempts, updated_at FROM bot_sources WHERE bot_id = $1 ORDER BY id',
        [botId],
      );
      const requests = site.requests.length;

      const refused = await agent.post(`/api/bots/${botId}/sources/${website}/refresh`).set('Origin', t.origin);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: REFRESHES_SENTENCE, code: 'SOURCE_REFRESHES_DAILY_LIMIT' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      await sleep(300);
      expect(
        await t.dataSource.query(
          'SELECT id, status, job_token, job_attempts, updated_at FROM bot_sources WHERE bot_id = $1 ORDER BY id',
          [botId],
        ),
      ).toEqual(before);
      expect(site.requests).toHaveLength(requests);

      // A source that is not the owner's is still a 404, not a count.
      const stranger = await owner();
      const foreign = await stranger.agent
        .post(`/api/bots/${botId}/sources/${website}/refresh`)
        .set('Origin', t.origin);
      expect(foreign.status).toBe(404);
    });
  });
});
