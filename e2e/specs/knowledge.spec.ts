import http from 'node:http';
import type { AddressInfo } from 'node:net';
import crypto from 'node:crypto';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../support/app-server.js';
import { collectPageErrors, DESKTOP, launchBrowser, screenshot } from '../support/browser.js';
import { payWithTestCard, signUpAndIn } from '../support/owner.js';

/**
 * Knowledge sources from the owner's side to the visitor's: a Markdown file and a small website
 * (served here on 127.0.0.1) are added in the dashboard's Knowledge section and become ready;
 * the widget then answers a question from the website with the offline model and cites the page.
 * The app runs on its own with CRAWL_ALLOW_PRIVATE=true, the crawler's switch for intranets and
 * tests (without it a loopback site is refused), on a fresh PostgreSQL database when a server is
 * reachable (it starts in seconds), else on embedded PGlite.
 */

const adminUrl = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

/** A new empty database on the PostgreSQL server, or null when none is reachable. */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    await admin.end().catch(() => undefined);
    return null;
  }
  const name = `botsmith_e2e_knowledge_${crypto.randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>` +
  `<nav><a href="/">Home</a> <a href="/hours">Opening hours</a></nav><main>${body}</main>` +
  `<footer>© Trailhead Cafe</footer></body></html>`;

const SITE: Record<string, string> = {
  '/': page(
    'Trailhead Cafe',
    '<h1>Trailhead Cafe</h1><p>A small cafe at the start of the Ridge Loop, with coffee and cake for hikers.</p>',
  ),
  '/hours': page(
    'Opening hours | Trailhead Cafe',
    '<h1>Opening hours</h1><p>The Trailhead Cafe opens at 7 am on weekdays and closes at 3 pm. ' +
      'On Saturdays and Sundays it opens at 8 am.</p>',
  ),
};

interface Site {
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

/** A tiny website on loopback: two pages, no sitemap, no robots.txt (both 404). */
async function startSite(): Promise<Site> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    requests.push(path);
    const body = SITE[path];
    if (!body) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('knowledge in the browser: add a file and a website, watch them get ready, see the widget cite the site', () => {
  let server: AppServer;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let site: Site;
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  let errors: string[];
  let botId: number;
  const botName = `Cafe Helper ${crypto.randomBytes(2).toString('hex')}`;

  beforeAll(async () => {
    site = await startSite();
    database = await freshDatabase();
    server = await startAppServer({
      CRAWL_ALLOW_PRIVATE: 'true',
      OFFLINE_MODEL_WORD_DELAY_MS: '0',
      ...(database && { DATABASE_URL: database.url }),
    });
    browser = await launchBrowser();
    context = await browser.newContext(DESKTOP);
    tab = await context.newPage();
    errors = collectPageErrors(tab);
    await signUpAndIn(context, server.baseUrl, server.dataDir, 'knowledge');
    await payWithTestCard(tab, server.baseUrl);
    const created = await context.request.post(`${server.baseUrl}/api/bots`, {
      data: { botName },
      headers: { Origin: server.baseUrl },
    });
    expect(created.status()).toBe(201);
    botId = ((await created.json()) as { bot: { id: number } }).bot.id;
  }, 240_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await database?.drop();
    await site?.close();
  });

  it('adds a Markdown file and a website in the Knowledge section; both become ready', async () => {
    await tab.goto(`${server.baseUrl}/dashboard`);
    await tab.getByRole('button', { name: `${botName} settings` }).click();
    const dialog = tab.getByRole('dialog', { name: botName });
    // Knowledge is a tab of its own (issue 27), no longer a section of the Prompting tab.
    await dialog.getByRole('tab', { name: /^Knowledge/ }).click();
    const section = dialog.getByRole('region', { name: 'Knowledge' });
    await section.getByText('No knowledge yet').waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(tab, 'knowledge-empty');

    await section.getByRole('button', { name: 'Add' }).click();
    await tab.getByRole('menuitem', { name: /Files/ }).click();
    const files = tab.getByRole('dialog', { name: 'Add files' });
    await files.getByTestId('knowledge-file-input').setInputFiles({
      name: 'cafe-menu.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Menu\n\nThe Ridge Breakfast costs 9 dollars: two eggs, toast and a coffee.\n'),
    });
    await files.waitFor({ state: 'hidden' });
    const fileRow = section.getByRole('listitem', { name: 'cafe-menu.md' });
    await fileRow.getByText('Ready').waitFor({ timeout: 30_000 });

    await section.getByRole('button', { name: 'Add' }).click();
    await tab.getByRole('menuitem', { name: /Website/ }).click();
    const website = tab.getByRole('dialog', { name: 'Add a website' });
    await website.getByLabel('Website address').fill(`${site.origin}/`);
    await website.getByLabel('Pages to read at most').fill('10');
    await screenshot(tab, 'knowledge-add-website');
    await website.getByRole('button', { name: 'Add website' }).click();
    await website.waitFor({ state: 'hidden' });
    const siteRow = section.getByRole('listitem', { name: new URL(site.origin).host });
    // Live: the list is read again while the crawl runs, without any reload.
    await siteRow.getByText('Ready').waitFor({ timeout: 30_000 });
    expect(await siteRow.textContent()).toContain('2 pages');
    expect(site.requests).toEqual(expect.arrayContaining(['/robots.txt', '/', '/hours']));
    expect(await fileRow.textContent()).toContain('1 passage');
    // The Add dialogs' forms are their own: adding saved nothing of the Prompting form.
    expect(await tab.locator('#notistack-snackbar', { hasText: 'Prompting settings saved!' }).count()).toBe(0);
    await section.scrollIntoViewIfNeeded();
    await screenshot(tab, 'knowledge-ready');
    expect(errors).toEqual([]);
  }, 120_000);

  it('answers in the widget from the website and cites the page as a link', async () => {
    const visitor = await browser.newContext(DESKTOP);
    const widgetPage = await visitor.newPage();
    const widgetErrors = collectPageErrors(widgetPage);
    await widgetPage.goto(`${server.baseUrl}/widget?botId=${botId}`);
    const message = widgetPage.getByRole('textbox', { name: 'Message' });
    await message.fill('When does the cafe open on weekdays?');
    await message.press('Enter');
    const sources = widgetPage.getByRole('list', { name: 'Sources' });
    await sources.waitFor({ timeout: 30_000 });
    const answer = widgetPage.locator('.m.assistant').last();
    expect(await answer.textContent()).toContain('opens at 7 am on weekdays');
    const link = sources.getByRole('link', { name: 'Opening hours | Trailhead Cafe' });
    expect(await link.getAttribute('href')).toBe(`${site.origin}/hours`);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    await screenshot(widgetPage, 'knowledge-widget-citation');
    expect(widgetErrors).toEqual([]);
    await visitor.close();
  });
});
