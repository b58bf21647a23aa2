import { looksLikeFile, normaliseUrl, siteKey } from './crawl-urls.js';
import { parseSitemap } from './sitemap.mjs';

describe('normaliseUrl', () => {
  it('drops the fragment and tracking parameters, keeps the rest as written', () => {
    expect(normaliseUrl('/menu?utm_source=x&day=mon&fbclid=1#soups', 'https://Acme.TEST:443/a')).toBe(
      'https://acme.test/menu?day=mon',
    );
    expect(normaliseUrl('https://acme.test/search?q=a+b%20c')).toBe('https://acme.test/search?q=a+b%20c');
    expect(normaliseUrl('https://acme.test/docs/?utm_medium=mail')).toBe('https://acme.test/docs/');
    expect(normaliseUrl('../up', 'http://acme.test/a/b/c')).toBe('http://acme.test/a/up');
  });

  it('refuses what is not an http(s) page address', () => {
    for (const href of ['mailto:a@acme.test', 'javascript:alert(1)', 'tel:+123', 'data:text/html,hi', 'http://[bad']) {
      expect(normaliseUrl(href, 'https://acme.test/')).toBeNull();
    }
  });
});

describe('siteKey and looksLikeFile', () => {
  it('counts http and https of one host as one site, other ports and hosts as others', () => {
    expect(siteKey('http://acme.test/a')).toBe(siteKey('https://acme.test/b'));
    expect(siteKey('http://acme.test:8080/')).not.toBe(siteKey('http://acme.test/'));
    expect(siteKey('http://www.acme.test/')).not.toBe(siteKey('http://acme.test/'));
  });

  it('knows file addresses by their extension, whatever the query', () => {
    expect(looksLikeFile('https://acme.test/menu.PDF?v=2')).toBe(true);
    expect(looksLikeFile('https://acme.test/menu.html')).toBe(false);
    expect(looksLikeFile('https://acme.test/blog/2026/pdf')).toBe(false);
  });
});

describe('parseSitemap', () => {
  it('reads locations with entities, CDATA and namespace prefixes', () => {
    expect(
      parseSitemap(`<?xml version="1.0"?><ns:urlset xmlns:ns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <ns:url><ns:loc> https://acme.test/?a=1&amp;b=2 </ns:loc></ns:url>
        <ns:url><ns:loc><![CDATA[https://acme.test/x?c=3&d=4]]></ns:loc></ns:url></ns:urlset>`),
    ).toEqual({ kind: 'urlset', locations: ['https://acme.test/?a=1&b=2', 'https://acme.test/x?c=3&d=4'] });
  });

  it('tells an index from a urlset and refuses what is neither', () => {
    expect(parseSitemap('<sitemapindex><sitemap><loc>https://acme.test/s1.xml</loc></sitemap></sitemapindex>')).toEqual(
      {
        kind: 'index',
        locations: ['https://acme.test/s1.xml'],
      },
    );
    expect(parseSitemap('<html><body>Not found</body></html>')).toBeNull();
  });
});
