import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createBotViaApi } from '../support/bot-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SourcesRepository } from '../../src/modules/knowledge/sources.repository.js';
import { createFileDatabase, describeOnServer } from '../support/test-database.js';
import { page, startTestWebsite } from '../support/test-website.js';

/*
 * Extraction jobs live in the database: a job queued on an instance that stops is run after a
 * restart, instances sharing a database run each job once, and a crawl cut short by its
 * instance closing is given back and finished by another. Needs a PostgreSQL server
 * (TEST_DATABASE_URL): instances of the embedded database cannot share it. A file of its own,
 * because passport's session serializer is process-wide and must belong to a running app.
 */
const SOURCE_ENV = { SOURCE_JOBS_POLL_MS: '50', OFFLINE_MODEL_WORD_DELAY_MS: '0', CRAWL_ALLOW_PRIVATE: 'true' };

describeOnServer('knowledge jobs across restarts and instances (PostgreSQL server)', () => {
  let database: { url: string; drop: () => Promise<void> };
  let shared: string;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    database = await createFileDatabase();
    shared = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-sources-'));
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await database.drop();
    fs.rmSync(shared, { recursive: true, force: true });
  });

  /** The source's job state, read with a connection of its own (no app needed). */
  async function adminRows(sourceId: number): Promise<{
    status: string;
    job_token: string | null;
    job_lease_until: Date | null;
    job_attempts: number;
  }> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const result = await client.query(
        'SELECT status, job_token, job_lease_until, job_attempts FROM bot_sources WHERE id = $1',
        [sourceId],
      );
      return result.rows[0];
    } finally {
      await client.end();
    }
  }

  async function instance(pollMs: string): Promise<TestApp> {
    const app = await startTestApp({
      ...SOURCE_ENV,
      SOURCES_MAX_BYTES_PER_BOT: String(50 * 1024 * 1024),
      DATABASE_URL: database.url,
      DATA_DIR: shared,
      SESSION_SECRET: 'knowledge-jobs-test-secret-0123456789',
      SOURCE_JOBS_POLL_MS: pollMs,
    });
    apps.push(app);
    return app;
  }

  it('jobs queued on an instance that stopped are run after a restart, each exactly once across two instances', async () => {
    // An instance that only serves requests (no worker) takes the uploads, then goes away.
    const web = await instance('0');
    const { agent } = await signedInAgent(web);
    const botId = await createBotViaApi(web, agent, 'Queued');
    const ids: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const response = await agent
        .post(`/api/bots/${botId}/sources/files`)
        .set('Origin', web.origin)
        .attach('file', Buffer.from(`Note ${i}: lighthouse number ${i} is painted red and white.`), {
          filename: `note-${i}.txt`,
        });
      expect(response.status).toBe(201);
      ids.push(response.body.source.id as number);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const waiting = await web.dataSource.query<{ status: string }[]>(
      'SELECT status FROM bot_sources WHERE bot_id = $1',
      [botId],
    );
    expect(waiting.every((row) => row.status === 'processing')).toBe(true);
    await web.close();
    apps.splice(apps.indexOf(web), 1);

    // Two workers start on the same database and share the queue.
    const [a, b] = await Promise.all([instance('20'), instance('20')]);
    const deadline = Date.now() + 20_000;
    let rows: { id: number; status: string; chunks: number; job_attempts: number; passages: number }[] = [];
    while (Date.now() < deadline) {
      rows = await a.dataSource.query(
        `SELECT s.id, s.status, s.chunks, s.job_attempts,
                (SELECT count(*)::int FROM document_chunks c WHERE c.source_id = s.id) AS passages
           FROM bot_sources s WHERE s.bot_id = $1 ORDER BY s.id`,
        [botId],
      );
      if (rows.every((row) => row.status !== 'processing')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(rows.map((row) => row.id)).toEqual(ids);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'ready', chunks: 1, job_attempts: 1, passages: 1 });
    }
    expect(b).toBeDefined();
    for (const app of apps.splice(0)) await app.close();
  });

  it('a crawl cut short by its instance closing is given back, and another instance finishes it', async () => {
    // The site answers nothing while `hold` is set: the first instance is mid-crawl when it closes.
    let hold = true;
    let held = 0;
    const site = http.createServer((req, res) => {
      if (hold) {
        held += 1;
        return;
      }
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          '<html><head><title>Harbour</title></head><body><main><p>The ferry leaves at noon.</p></main></body></html>',
        );
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
      const first = await instance('20');
      const { agent } = await signedInAgent(first);
      const botId = await createBotViaApi(first, agent, 'Harbour');
      const response = await agent
        .post(`/api/bots/${botId}/sources/website`)
        .set('Origin', first.origin)
        .send({ url: base, maxPages: 5 });
      expect(response.status).toBe(201);
      const sourceId = response.body.source.id as number;
      const deadline = Date.now() + 10_000;
      while (held === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(held).toBeGreaterThan(0);

      await first.close();
      apps.splice(apps.indexOf(first), 1);
      const given = await adminRows(sourceId);
      // Given back at once: no lease to wait out, the claim not counted as an attempt.
      expect(given).toEqual({ status: 'processing', job_token: null, job_lease_until: null, job_attempts: 0 });

      hold = false;
      await instance('20');
      const finishedBy = Date.now() + 20_000;
      let row = given;
      while (row.status === 'processing' && Date.now() < finishedBy) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        row = await adminRows(sourceId);
      }
      expect(row).toMatchObject({ status: 'ready', job_attempts: 1 });
    } finally {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('a due scheduled refresh is queued once by two instances looking at the same moment, and read once', async () => {
    const site = await startTestWebsite({
      '/': { body: page('Harbour', '<p>The ferry leaves at noon.</p>') },
    });
    // No worker of an earlier test may take these jobs.
    for (const app of apps.splice(0)) await app.close();
    try {
      const first = await instance('20');
      const { agent } = await signedInAgent(first);
      const botId = await createBotViaApi(first, agent, 'Scheduled');
      const ids: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const response = await agent
          .post(`/api/bots/${botId}/sources/website`)
          .set('Origin', first.origin)
          .send({ url: `${site.origin}/`, maxPages: 1, refreshSchedule: i % 2 === 0 ? 'daily' : 'weekly' });
        ids.push(response.body.source.id as number);
      }
      const off = await agent
        .post(`/api/bots/${botId}/sources/website`)
        .set('Origin', first.origin)
        .send({ url: `${site.origin}/`, maxPages: 1, refreshSchedule: 'off' });
      const waitReady = async (app: TestApp) => {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const rows = await app.dataSource.query<{ status: string }[]>(
            'SELECT status FROM bot_sources WHERE bot_id = $1',
            [botId],
          );
          if (rows.every((row) => row.status === 'ready')) return;
          if (Date.now() > deadline) throw new Error('sources still processing');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      await waitReady(first);
      await first.close();
      apps.splice(apps.indexOf(first), 1);

      // Two instances without workers: each asks many times at once which refreshes are due.
      const [a, b] = await Promise.all([instance('0'), instance('0')]);
      const makeDue = (app: TestApp) =>
        app.dataSource.query(
          `UPDATE bot_sources SET last_refreshed_at = now() - interval '30 days',
                  next_refresh_at = CASE WHEN refresh_schedule = 'off' THEN NULL ELSE now() - interval '1 second' END
            WHERE bot_id = $1`,
          [botId],
        );
      await makeDue(a);
      const repositories = [a.app.get(SourcesRepository), b.app.get(SourcesRepository)];
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => repositories[i % 2].enqueueDueRefreshes()),
      );
      const queued = answers.flat().filter((id) => ids.includes(id) || id === off.body.source.id);
      expect(queued.sort((x, y) => x - y)).toEqual(ids);
      const statuses = await a.dataSource.query<{ id: number; status: string }[]>(
        'SELECT id, status FROM bot_sources WHERE bot_id = $1 ORDER BY id',
        [botId],
      );
      expect(statuses).toEqual([
        ...ids.map((id) => ({ id, status: 'processing' })),
        { id: off.body.source.id, status: 'ready' },
      ]);
      for (const app of apps.splice(0)) await app.close();

      // Two instances with workers on the same database: each queued refresh is read once.
      site.requests.length = 0;
      const [c, d] = await Promise.all([instance('20'), instance('20')]);
      await waitReady(c);
      expect(site.paths().filter((path) => path === '/')).toHaveLength(ids.length);
      // Due again: the workers' own polls queue them, once each.
      site.requests.length = 0;
      await makeDue(c);
      const deadline = Date.now() + 20_000;
      let rows: { id: number; last_refreshed_at: Date; next_refresh_at: Date | null }[] = [];
      while (Date.now() < deadline) {
        rows = await c.dataSource.query(
          'SELECT id, last_refreshed_at, next_refresh_at FROM bot_sources WHERE bot_id = $1 ORDER BY id',
          [botId],
        );
        if (
          rows.filter((row) => row.next_refresh_at !== null && row.next_refresh_at > new Date()).length === ids.length
        )
          break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await waitReady(d);
      expect(site.paths().filter((path) => path === '/')).toHaveLength(ids.length);
      const offRow = rows.find((row) => row.id === off.body.source.id)!;
      expect(offRow.next_refresh_at).toBeNull();
      expect(Date.now() - offRow.last_refreshed_at.getTime()).toBeGreaterThan(29 * 24 * 60 * 60 * 1000);
      for (const app of apps.splice(0)) await app.close();
    } finally {
      await site.close();
    }
  });
});
