import { gzipSync } from 'node:zlib';
import {
  WebsiteCrawler,
  type ChangedPage,
  type CrawlResult,
  type PreviousPage,
} from '../../src/modules/knowledge/website/website-crawler.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { crawlError, page, startTestWebsite, type TestRoute, type TestWebsite } from '../support/test-website.js';

/**
 * The crawler against a real site on 127.0.0.1 (CRAWL_ALLOW_PRIVATE=true, as on an intranet).
 * `localhost:<same port>` is a second host: links to it must not be followed.
 */

const USER_AGENT = 'BotsmithBot/1.0 (+http://botsmith.test)';

function crawler(overrides: Partial<ConstructorParameters<typeof WebsiteCrawler>[0]> = {}): WebsiteCrawler {
  return new WebsiteCrawler({ allowPrivate: true, userAgent: USER_AGENT, ...overrides });
}

function changed(result: CrawlResult): ChangedPage[] {
  return result.pages.filter((p): p is ChangedPage => !p.unchanged);
}

describe('WebsiteCrawler on a loopback site', () => {
  let site: TestWebsite;
  afterEach(async () => {
    await site.close();
  });

  describe('following links (no sitemap)', () => {
    let result: CrawlResult;
    beforeEach(async () => {
      site = await startTestWebsite({
        '/robots.txt': {
          headers: { 'content-type': 'text/plain' },
          body: 'User-agent: *\nDisallow: /secret/\n',
        },
        '/': {
          body: page('Home of Acme', '<h1>Welcome to Acme</h1><p>We sell anvils &amp; rockets.</p>', [
            '/about',
            '/about#team',
            '/about?utm_source=newsletter',
            'docs/',
            '/secret/plans',
            '/files/menu.pdf',
            '/data',
            'mailto:hello@acme.test',
            'javascript:void(0)',
          ]),
        },
        '/about': { body: page('About Acme', '<p>Acme was founded in 1949 in the desert.</p>', ['/']) },
        '/docs/': {
          body: page('Docs', '<p>Documentation index.</p>', ['guide', 'guide-print', 'LOCALHOST_LINK']),
        },
        '/docs/guide': { body: page('Anvil guide', '<p>Drop the anvil from a height.</p>') },
        '/docs/guide-print': {
          body: page(
            'Anvil guide (print)',
            '<p>Drop the anvil from a height, printed.</p>',
            [],
            '<link rel="canonical" href="/docs/guide">',
          ),
        },
        '/secret/plans': { body: page('Secret', '<p>The secret plans.</p>') },
        '/files/menu.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' },
        '/data': { headers: { 'content-type': 'application/json' }, body: '{"not":"html"}' },
      });
      const docs = site.routes.get('/docs/') as { body: string };
      docs.body = docs.body.replace('LOCALHOST_LINK', `http://localhost:${site.port}/elsewhere`);
      result = await crawler().crawl(`${site.origin}/`, { maxPages: 50 });
    });

    it('reads every page of the site once, by links', () => {
      expect(result.discovery).toBe('links');
      expect(result.stoppedBy).toBeNull();
      expect(result.pages.map((p) => p.url).sort()).toEqual(
        [`${site.origin}/`, `${site.origin}/about`, `${site.origin}/docs/`, `${site.origin}/docs/guide`].sort(),
      );
      expect(site.paths().filter((path) => path === '/about')).toHaveLength(1);
    });

    it('keeps the main text and titles and leaves navigation, header, aside, footer and scripts out', () => {
      const home = changed(result).find((p) => p.url === `${site.origin}/`);
      expect(home?.title).toBe('Home of Acme');
      expect(home?.text).toBe('Welcome to Acme\nWe sell anvils & rockets.');
      for (const p of changed(result)) {
        for (const chrome of [
          'Navigation menu',
          'Site banner',
          'Sidebar widget',
          'Footer copyright',
          'trackingScript',
          'color:red',
        ]) {
          expect(p.text).not.toContain(chrome);
        }
      }
      expect(changed(result).find((p) => p.url.endsWith('/about'))?.title).toBe('About Acme');
    });

    it('honours robots.txt: a disallowed page is never requested', () => {
      expect(site.paths()).not.toContain('/secret/plans');
      expect(result.skipped).toContainEqual({ url: `${site.origin}/secret/plans`, reason: 'robots_disallowed' });
      expect(site.requests.find((r) => r.path === '/robots.txt')?.headers['user-agent']).toBe(USER_AGENT);
    });

    it('skips files by extension without a request and non-HTML answers without keeping them', () => {
      expect(site.paths()).not.toContain('/files/menu.pdf');
      expect(result.skipped).toContainEqual({ url: `${site.origin}/files/menu.pdf`, reason: 'not_html' });
      expect(result.skipped).toContainEqual({ url: `${site.origin}/data`, reason: 'not_html' });
    });

    it('does not follow links to another host', () => {
      expect(site.requests.some((r) => r.host.startsWith('localhost'))).toBe(false);
      expect(site.paths()).not.toContain('/elsewhere');
    });

    it('collapses a page named by its canonical URL into that page', () => {
      expect(result.pages.map((p) => p.url)).not.toContain(`${site.origin}/docs/guide-print`);
      expect(result.skipped).toContainEqual({ url: `${site.origin}/docs/guide-print`, reason: 'duplicate' });
    });

    it('gives every page a sha256 content hash', () => {
      for (const p of result.pages) expect(p.contentHash).toMatch(/^[0-9a-f]{64}$/);
      expect(new Set(result.pages.map((p) => p.contentHash)).size).toBe(result.pages.length);
    });
  });

  describe('a page whose HTML is too slow to parse', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    it('is skipped as too_complex while the other pages are read and the server keeps answering', async () => {
      site = await startTestWebsite({
        '/': { body: page('Home', '<p>Home page text.</p>', ['/a', '/hostile', '/b']) },
        '/a': { body: page('Page A', '<p>Page A text.</p>') },
        // Unclosed nested elements: the HTML parser's time grows with their square (seconds).
        '/hostile': { body: page('Hostile', '<div>'.repeat(100_000)) },
        '/b': { body: page('Page B', '<p>Page B text.</p>') },
      });
      let crawlSettled = false;
      const crawl = crawler()
        .crawl(`${site.origin}/`)
        .finally(() => (crawlSettled = true));

      // Once the hostile page has been fetched (and is being parsed), the app still answers.
      while (!site.paths().includes('/hostile')) await new Promise((resolve) => setTimeout(resolve, 20));
      const health = await t.http().get('/api/health');
      expect(health.status).toBe(200);
      expect(crawlSettled).toBe(false);

      const result = await crawl;
      expect(changed(result).map((p) => [p.url, p.title, p.text])).toEqual([
        [`${site.origin}/`, 'Home', 'Home page text.'],
        [`${site.origin}/a`, 'Page A', 'Page A text.'],
        [`${site.origin}/b`, 'Page B', 'Page B text.'],
      ]);
      expect(result.skipped).toEqual([{ url: `${site.origin}/hostile`, reason: 'too_complex' }]);
      expect(result.stoppedBy).toBeNull();
    });
  });

  it('stops at maxPages and says so', async () => {
    const links = Array.from({ length: 10 }, (_, i) => `/p${i}`);
    const routes: Record<string, { body: string }> = { '/': { body: page('Index', '<p>Index page.</p>', links) } };
    for (const link of links) routes[link] = { body: page(link, `<p>Page ${link}.</p>`) };
    site = await startTestWebsite(routes);
    const result = await crawler().crawl(`${site.origin}/`, { maxPages: 3 });
    expect(result.pages).toHaveLength(3);
    expect(result.stoppedBy).toBe('maxPages');
    // Two in flight at once at most: no more than a couple of requests past the limit.
    expect(site.paths().filter((path) => path.startsWith('/p')).length).toBeLessThanOrEqual(4);
  });

  it('keeps connections alive across pages, redirects, error pages and unwanted answers (two at once at most)', async () => {
    const links = ['/moved', '/data', ...Array.from({ length: 8 }, (_, i) => `/p${i}`)];
    const routes: Record<string, TestRoute> = {
      '/': { body: page('Index', '<p>Index page.</p>', links) },
      '/moved': { status: 301, headers: { location: '/p0' }, body: 'Moved' },
      '/data': { headers: { 'content-type': 'application/json' }, body: '{}' },
    };
    for (const link of links.slice(2)) routes[link] = { body: page(link, `<p>Page ${link}.</p>`) };
    site = await startTestWebsite(routes);
    const result = await crawler().crawl(`${site.origin}/`);
    expect(result.pages).toHaveLength(9);
    expect(site.requests.length).toBeGreaterThan(12);
    expect(site.connections()).toBeLessThanOrEqual(2);
  });

  it('crawls the pages of the sitemap, not the links, when the site has one', async () => {
    site = await startTestWebsite({
      '/robots.txt': { status: 404 },
      '/': { body: page('Home', '<p>Home page text.</p>', ['/linked-only']) },
      '/a': { body: page('A', '<p>Page A text.</p>') },
      '/b': { body: page('B', '<p>Page B text.</p>') },
      '/linked-only': { body: page('Linked', '<p>Only linked.</p>') },
    });
    site.routes.set('/sitemap.xml', {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>${site.origin}/</loc></url>
  <url><loc>${site.origin}/a</loc><lastmod>2026-01-01</lastmod></url>
  <url><loc><![CDATA[${site.origin}/b]]></loc></url>
  <url><loc>http://localhost:${site.port}/other-host</loc></url>
</urlset>`,
    });
    const result = await crawler().crawl(`${site.origin}/`);
    expect(result.discovery).toBe('sitemap');
    expect(result.pages.map((p) => p.url)).toEqual([`${site.origin}/`, `${site.origin}/a`, `${site.origin}/b`]);
    expect(site.paths()).not.toContain('/linked-only');
    expect(site.requests.some((r) => r.host.startsWith('localhost'))).toBe(false);
  });

  it('follows a sitemap index named in robots.txt, gzipped children included', async () => {
    site = await startTestWebsite({ '/': { body: page('Home', '<p>Home.</p>') } });
    const child = (path: string) =>
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.origin}${path}</loc></url></urlset>`;
    site.routes.set('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: `Sitemap: ${site.origin}/maps/index.xml\n`,
    });
    site.routes.set('/maps/index.xml', {
      body: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>${site.origin}/maps/one.xml</loc></sitemap><sitemap><loc>${site.origin}/maps/two.xml.gz</loc></sitemap></sitemapindex>`,
    });
    site.routes.set('/maps/one.xml', { body: child('/one') });
    site.routes.set('/maps/two.xml.gz', {
      headers: { 'content-type': 'application/gzip' },
      body: gzipSync(child('/two')),
    });
    site.routes.set('/one', { body: page('One', '<p>One.</p>') });
    site.routes.set('/two', { body: page('Two', '<p>Two.</p>') });
    const result = await crawler().crawl(`${site.origin}/`);
    expect(result.pages.map((p) => p.url)).toEqual([`${site.origin}/`, `${site.origin}/one`, `${site.origin}/two`]);
    expect(site.paths()).not.toContain('/sitemap.xml');
  });

  it("obeys the group robots.txt has for our user agent over the '*' group", async () => {
    site = await startTestWebsite({
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nDisallow: /\n\nUser-agent: BotsmithBot\nDisallow: /drafts/\n',
      },
      '/': { body: page('Home', '<p>Home.</p>', ['/drafts/x', '/public']) },
      '/public': { body: page('Public', '<p>Public.</p>') },
    });
    const result = await crawler().crawl(`${site.origin}/`);
    expect(result.pages.map((p) => p.url)).toEqual([`${site.origin}/`, `${site.origin}/public`]);
    expect(site.paths()).not.toContain('/drafts/x');
  });

  it.each([
    ['the Crawl-delay robots.txt asks for', '0.2', {}, 195],
    ['a long Crawl-delay cut to the longest we obey', '30', { maxCrawlDelayMs: 150 }, 145],
  ])('waits %s between requests, one at a time', async (_name, delay, settings, gapMs) => {
    const links = ['/a', '/b', '/c'];
    site = await startTestWebsite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: `User-agent: *\nCrawl-delay: ${delay}\n` },
      '/': { body: page('Home', '<p>Home.</p>', links) },
      ...Object.fromEntries(links.map((link) => [link, { body: page(link, `<p>${link}</p>`) }])),
    });
    const result = await crawler(settings).crawl(`${site.origin}/`);
    expect(result.pages).toHaveLength(4);
    const pageRequests = site.requests.filter((r) => r.path !== '/robots.txt');
    expect(pageRequests.map((r) => r.path)).toEqual(['/', '/sitemap.xml', ...links]);
    // The crawler starts each request at least gapMs after the previous one started, but arrival
    // times at this (same-process) server jitter on a busy machine: one that arrives late makes
    // the next gap look short. So the span is allowed half a gap of lateness on its first
    // request, and each gap is held to a quarter of the delay: without the delay the four gaps
    // would take a few milliseconds, and requests at once would show gaps of about 0. (CI once saw
    // a gap of 8 ms against 195 ms when the next turn counted from when the last was due rather
    // than from when it started: an overrun sleep let two requests go back to back.)
    const span = pageRequests[pageRequests.length - 1].at - pageRequests[0].at;
    expect(span).toBeGreaterThanOrEqual((pageRequests.length - 1) * gapMs - gapMs / 2);
    for (let i = 1; i < pageRequests.length; i++) {
      expect(pageRequests[i].at - pageRequests[i - 1].at).toBeGreaterThanOrEqual(gapMs / 4);
    }
  });

  it('refuses a start page robots.txt forbids, after reading nothing but robots.txt', async () => {
    site = await startTestWebsite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /\n' },
      '/': { body: page('Home', '<p>Home.</p>') },
    });
    const error = await crawlError(crawler().crawl(`${site.origin}/`));
    expect(error.code).toBe('ROBOTS_DISALLOWED');
    expect(error.message).toBe("The website's robots.txt does not allow Botsmith to read this address.");
    expect(site.paths()).toEqual(['/robots.txt']);
  });

  it('refreshes: a 304 and an equal hash are unchanged, an edited page is changed', async () => {
    let aboutText = 'Acme was founded in 1949.';
    site = await startTestWebsite({
      '/': { body: page('Home', '<p>Home.</p>', ['/etag', '/about', '/stable']) },
      '/etag': (request) =>
        request.headers['if-none-match'] === '"v1"'
          ? { status: 304, headers: { etag: '"v1"' } }
          : { headers: { etag: '"v1"' }, body: page('Tagged', '<p>Tagged page.</p>') },
      '/about': () => ({
        headers: { 'last-modified': 'Mon, 02 Nov 2026 10:00:00 GMT' },
        body: page('About', `<p>${aboutText}</p>`),
      }),
      '/stable': { body: page('Stable', '<p>Never changes.</p>') },
    });
    const first = await crawler().crawl(`${site.origin}/`);
    expect(first.pages.every((p) => !p.unchanged)).toBe(true);
    const previous = new Map<string, PreviousPage>(
      first.pages.map((p) => [p.url, { contentHash: p.contentHash, etag: p.etag, lastModified: p.lastModified }]),
    );
    expect(previous.get(`${site.origin}/etag`)?.etag).toBe('"v1"');

    aboutText = 'Acme was founded in 1949 and moved in 2026.';
    site.requests.length = 0;
    const second = await crawler().crawl(`${site.origin}/`, { previous });
    const byUrl = new Map(second.pages.map((p) => [p.url.replace(site.origin, ''), p]));
    expect(byUrl.get('/etag')).toEqual({
      url: `${site.origin}/etag`,
      unchanged: true,
      contentHash: previous.get(`${site.origin}/etag`)?.contentHash,
      etag: '"v1"',
      lastModified: null,
      bytes: 0,
    });
    expect(site.requests.find((r) => r.path === '/etag')?.headers['if-none-match']).toBe('"v1"');
    expect(site.requests.find((r) => r.path === '/about')?.headers['if-modified-since']).toBe(
      'Mon, 02 Nov 2026 10:00:00 GMT',
    );
    expect(byUrl.get('/stable')?.unchanged).toBe(true);
    expect(byUrl.get('/')?.unchanged).toBe(true);
    const about = byUrl.get('/about');
    expect(about?.unchanged).toBe(false);
    expect(about && !about.unchanged && about.text).toBe('Acme was founded in 1949 and moved in 2026.');
    expect(changed(second)).toHaveLength(1);
  });

  it('revisits previously stored pages no link leads to any more, and reports a removed one', async () => {
    site = await startTestWebsite({
      '/': { body: page('Home', '<p>Home.</p>') },
      '/orphan': { body: page('Orphan', '<p>No link here any more.</p>') },
    });
    const previous = new Map<string, PreviousPage>([
      [`${site.origin}/orphan`, { contentHash: 'old' }],
      [`${site.origin}/gone`, { contentHash: 'old' }],
    ]);
    const result = await crawler().crawl(`${site.origin}/`, { previous });
    expect(result.pages.map((p) => p.url)).toContain(`${site.origin}/orphan`);
    expect(result.skipped).toContainEqual({ url: `${site.origin}/gone`, reason: 'http_error', status: 404 });
    expect(result.stoppedBy).toBeNull();
  });

  it('reads gzip-encoded pages and refuses bodies over the size cap', async () => {
    site = await startTestWebsite({
      '/': {
        headers: { 'content-encoding': 'gzip' },
        body: gzipSync(page('Zipped', '<p>Compressed text.</p>', ['/big', '/bomb'])),
      },
      '/big': { body: page('Big', `<p>${'x'.repeat(5000)}</p>`) },
      '/bomb': { headers: { 'content-encoding': 'gzip' }, body: gzipSync(Buffer.alloc(10_000_000, 0x20)) },
    });
    const result = await crawler({ maxPageBytes: 4000 }).crawl(`${site.origin}/`);
    expect(changed(result)[0]).toMatchObject({ title: 'Zipped', text: 'Compressed text.' });
    expect(result.skipped).toContainEqual({ url: `${site.origin}/big`, reason: 'too_large' });
    expect(result.skipped).toContainEqual({ url: `${site.origin}/bomb`, reason: 'too_large' });
  });

  it('gives up on a page that does not answer in time, and on redirect loops', async () => {
    site = await startTestWebsite({
      '/': { body: page('Home', '<p>Home.</p>', ['/slow', '/loop']) },
      '/slow': { hang: true },
      '/loop': { status: 302, headers: { location: '/loop2' } },
      '/loop2': { status: 302, headers: { location: '/loop' } },
    });
    const result = await crawler({ requestTimeoutMs: 500 }).crawl(`${site.origin}/`);
    expect(result.skipped).toContainEqual({ url: `${site.origin}/slow`, reason: 'timeout' });
    expect(result.skipped).toContainEqual({ url: `${site.origin}/loop`, reason: 'too_many_redirects' });
    expect(site.paths().filter((path) => path.startsWith('/loop')).length).toBe(6);
  });

  it('stops with CRAWL_ABORTED when the caller aborts', async () => {
    site = await startTestWebsite({
      '/': { body: page('Home', '<p>Home.</p>', ['/slow']) },
      '/slow': { hang: true },
    });
    const controller = new AbortController();
    const crawl = crawler().crawl(`${site.origin}/`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const error = await crawlError(crawl);
    expect(error.code).toBe('CRAWL_ABORTED');
  });

  it('returns what it read when the overall time runs out', async () => {
    site = await startTestWebsite({
      '/': { body: page('Home', '<p>Home.</p>', ['/slow']) },
      '/slow': { hang: true },
    });
    const result = await crawler({ crawlTimeoutMs: 1500 }).crawl(`${site.origin}/`);
    expect(result.pages.map((p) => p.url)).toEqual([`${site.origin}/`]);
    expect(result.stoppedBy).toBe('timeout');
  });

  it('moves to the host the start URL redirects to', async () => {
    site = await startTestWebsite({
      '/': { body: page('Home', '<p>Home.</p>', ['/next']) },
      '/next': { body: page('Next', '<p>Next.</p>') },
    });
    site.routes.set('/start', (request) =>
      request.headers.host?.startsWith('localhost')
        ? { status: 301, headers: { location: `${site.origin}/` } }
        : { status: 404 },
    );
    const result = await crawler().crawl(`http://localhost:${site.port}/start`);
    expect(result.pages.map((p) => p.url)).toEqual([`${site.origin}/`, `${site.origin}/next`]);
  });

  it('says which start addresses cannot be crawled', async () => {
    site = await startTestWebsite({});
    const closedPort = site.port;
    await site.close();
    site = await startTestWebsite({ '/': { headers: { 'content-type': 'application/pdf' }, body: '%PDF' } });
    expect((await crawlError(crawler().crawl(`http://127.0.0.1:${closedPort}/`))).code).toBe('SITE_UNREACHABLE');
    expect((await crawlError(crawler().crawl('ftp://example.com/'))).code).toBe('URL_INVALID');
    expect((await crawlError(crawler().crawl('example.com'))).code).toBe('URL_INVALID');
    const withPassword = await crawlError(crawler().crawl(`http://user:pw@127.0.0.1:${site.port}/`));
    expect([withPassword.code, withPassword.status]).toEqual(['URL_INVALID', 400]);
    const notHtml = await crawlError(crawler().crawl(`${site.origin}/`));
    expect([notHtml.code, notHtml.status, notHtml.message]).toEqual([
      'NO_READABLE_PAGES',
      422,
      'No readable pages were found at this address.',
    ]);
    await expect(crawler().crawl(`${site.origin}/`, { maxPages: 501 })).rejects.toThrow(RangeError);
  });
});
