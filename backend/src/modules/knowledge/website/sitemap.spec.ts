import { gzipSync } from 'node:zlib';
import { decodeEntities, parseSitemap, readSitemap } from './sitemap.mjs';

/** Milliseconds `run` takes. */
function timed(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

describe('parseSitemap', () => {
  it('reads a urlset with namespaces, entities, CDATA, spaces and comments', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <!-- <url><loc>https://acme.test/commented-out</loc></url> -->
        <url><loc>
          https://acme.test/menu?day=mon&amp;lang=en&#38;x=&#x31;
        </loc><lastmod>2026-01-01</lastmod></url>
        <url><LOC><![CDATA[ https://acme.test/a&amp;b ]]></LOC></url>
        <url><sm:loc>https://acme.test/prefixed</sm:loc></url>
        <url><loc></loc></url>
      </urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      locations: [
        'https://acme.test/menu?day=mon&lang=en&x=1',
        'https://acme.test/a&amp;b',
        'https://acme.test/prefixed',
      ],
    });
  });

  it('reads a sitemap index, even when a urlset tag comes first in its text', () => {
    expect(
      parseSitemap(`<sitemapindex><sitemap><loc>https://acme.test/s1.xml</loc></sitemap>
        <sitemap><loc>https://acme.test/s2.xml.gz</loc></sitemap></sitemapindex>`),
    ).toEqual({ kind: 'index', locations: ['https://acme.test/s1.xml', 'https://acme.test/s2.xml.gz'] });
    expect(parseSitemap('<!-- <urlset> --><sitemapindex><sitemap><loc>/s.xml</loc></sitemap></sitemapindex>')).toEqual({
      kind: 'index',
      locations: ['/s.xml'],
    });
  });

  it('refuses what is neither, and skips a loc that does not close right after its text', () => {
    expect(parseSitemap('<html><body>Not found</body></html>')).toBeNull();
    expect(parseSitemap('<urlsets><loc>https://acme.test/</loc></urlsets>')).toBeNull();
    expect(
      parseSitemap('<urlset><loc>https://acme.test/a<b>x</b></loc><loc>https://acme.test/b</loc></urlset>'),
    ).toEqual({ kind: 'urlset', locations: ['https://acme.test/b'] });
    expect(parseSitemap('<urlset><loc id="1">https://acme.test/a</loc></urlset>')).toEqual({
      kind: 'urlset',
      locations: [],
    });
  });

  it('keeps at most the locations it is asked for', () => {
    const xml = `<urlset>${'<url><loc>https://acme.test/p</loc></url>'.repeat(10)}</urlset>`;
    expect(parseSitemap(xml, 3)?.locations).toHaveLength(3);
  });

  // The former regex took 23 s on 5,000 spaces and minutes on 8,000: time must grow with the
  // length, not with its cube. Each case is about 2 MB (a crawl's largest sitemap).
  it.each([
    ['an unclosed <loc> and 8,000 spaces', '<urlset><loc>' + ' '.repeat(8_000)],
    ['an unclosed <loc> and 2 MB of spaces', '<urlset><loc>' + ' '.repeat(2_000_000)],
    ['400,000 opened <loc> tags', '<urlset>' + '<loc>'.repeat(400_000)],
    ['unclosed CDATA sections', '<urlset>' + '<loc><![CDATA['.repeat(140_000)],
    ['ampersands and one far semicolon', '<urlset><loc>' + '&'.repeat(2_000_000) + ';</loc>'],
    ['an unclosed comment', '<urlset><!--' + '<loc>x</loc>'.repeat(150_000)],
    ['a tag name of 2 MB', '<urlset><' + 'l'.repeat(2_000_000)],
  ])('reads %s in linear time', (_name, xml) => {
    expect(timed(() => parseSitemap(xml))).toBeLessThan(5_000); // a guard, not a speed test
  });
});

describe('readSitemap', () => {
  it('unpacks a gzip file, and refuses one that unpacks past its limit', () => {
    const xml = '<urlset><url><loc>https://acme.test/zipped</loc></url></urlset>';
    expect(readSitemap(gzipSync(xml), 1024 * 1024)).toEqual({
      kind: 'urlset',
      locations: ['https://acme.test/zipped'],
    });
    expect(readSitemap(gzipSync(xml + ' '.repeat(10_000)), 1_000)).toBeNull();
    expect(readSitemap(Buffer.from([0x1f, 0x8b, 1, 2, 3]), 1_000)).toBeNull();
  });
});

describe('decodeEntities', () => {
  it('decodes the XML entities and character references, leaving anything else as written', () => {
    expect(decodeEntities('a&amp;b&lt;&gt;&quot;&apos;&#65;&#x42;')).toBe('a&b<>"\'AB');
    expect(decodeEntities('&nbsp;&constructor;&#x110000;&#;&;&amp')).toBe('&nbsp;&constructor;&#x110000;&#;&;&amp');
  });
});
