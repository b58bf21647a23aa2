import fc from 'fast-check';
import { HEADER_MAX_CHARS } from '../../common/constants.js';
import {
  hostMatchesDomain,
  hostOf,
  isOriginAllowed,
  normalizeAllowedDomain,
  storablePageUrl,
  trimTrailingDots,
} from './domain-match.js';

/** Hostname labels from a tiny alphabet, so generated hosts collide with domains often. */
const label = fc.stringMatching(/^[a-c][a-c0-9-]{0,3}[a-c0-9]$|^[a-c]$/);
const hostname = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
const scheme = fc.constantFrom('http://', 'https://');
const port = fc.option(
  fc.integer({ min: 1, max: 65535 }).map((p) => `:${p}`),
  { nil: '' },
);
const path = fc.constantFrom('', '/', '/pricing?x=1', '/a/b#top');

describe('allowedDomain: exact host or a subdomain, never a look-alike', () => {
  it('allows the domain itself and any subdomain of it, whatever the scheme, port or path', () => {
    fc.assert(
      fc.property(hostname, fc.array(label, { maxLength: 3 }), scheme, port, path, (domain, sub, s, p, rest) => {
        const host = [...sub, domain].join('.');
        expect(isOriginAllowed(domain, `${s}${host}${p}`, undefined)).toBe(true);
        expect(isOriginAllowed(domain, undefined, `${s}${host}${p}${rest}`)).toBe(true);
      }),
    );
  });

  it('agrees with the label-boundary rule for any host and any domain', () => {
    fc.assert(
      fc.property(hostname, hostname, (domain, host) => {
        const expected = host === domain || host.endsWith(`.${domain}`);
        expect(isOriginAllowed(domain, `https://${host}`, undefined)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a host that merely starts with the domain or ends with it without a dot', () => {
    fc.assert(
      fc.property(hostname, label, hostname, (domain, glued, tail) => {
        expect(isOriginAllowed(domain, `https://${domain}.${tail}x`, undefined)).toBe(
          `${domain}.${tail}x`.endsWith(`.${domain}`),
        );
        expect(isOriginAllowed(domain, `https://${glued}${domain}`, undefined)).toBe(
          hostMatchesDomain(`${glued}${domain}`, domain),
        );
        expect(isOriginAllowed(domain, `https://${glued}-${domain}`, undefined)).toBe(false);
      }),
    );
  });

  it('refuses the classic look-alikes of example.com', () => {
    for (const origin of [
      'https://example.com.evil.net',
      'https://evil-example.com',
      'https://notexample.com',
      'https://example.co',
      'https://example.com@evil.net',
      'null',
      'file:///C:/example.com/index.html',
      'javascript:alert(1)//example.com',
    ]) {
      expect(isOriginAllowed('example.com', origin, undefined)).toBe(false);
    }
    for (const origin of [
      'https://example.com',
      'http://EXAMPLE.com:8080',
      'https://shop.example.com.',
      'https://a.b.example.com',
    ]) {
      expect(isOriginAllowed('example.com', origin, undefined)).toBe(true);
    }
  });

  it('reads what owners paste: scheme, path, port, wildcard, capitals, trailing dot, unicode', () => {
    expect(normalizeAllowedDomain(' https://Example.com/contact ')).toBe('example.com');
    expect(normalizeAllowedDomain('example.com:8443/shop')).toBe('example.com');
    expect(normalizeAllowedDomain('*.example.com')).toBe('example.com');
    expect(normalizeAllowedDomain('example.com.')).toBe('example.com');
    expect(normalizeAllowedDomain('bücher.de')).toBe('xn--bcher-kva.de');
    expect(isOriginAllowed('bücher.de', 'https://shop.xn--bcher-kva.de', undefined)).toBe(true);
  });

  it('allows every page when the domain is empty, and nothing when the entry names no host', () => {
    fc.assert(
      fc.property(fc.option(fc.webUrl(), { nil: undefined }), fc.option(fc.webUrl(), { nil: undefined }), (o, p) => {
        expect(isOriginAllowed('', o, p)).toBe(true);
        expect(isOriginAllowed('   ', o, p)).toBe(true);
        expect(isOriginAllowed('https://', o, p)).toBe(false);
        expect(isOriginAllowed('*', o, p)).toBe(false);
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a request that names no page at all when a domain is set', () => {
    expect(isOriginAllowed('example.com', undefined, undefined)).toBe(false);
    expect(isOriginAllowed('example.com', '', '')).toBe(false);
    expect(isOriginAllowed('example.com', undefined, 'not a url')).toBe(false);
  });

  it('trusts the Origin header over X-Page-Url when both are sent', () => {
    fc.assert(
      fc.property(hostname, hostname, (domain, other) => {
        fc.pre(!hostMatchesDomain(other, domain));
        expect(isOriginAllowed(domain, `https://${other}`, `https://${domain}/`)).toBe(false);
        expect(isOriginAllowed(domain, `https://${domain}`, `https://${other}/`)).toBe(true);
      }),
    );
  });
});

/**
 * Each input is crafted against the regex it replaced (the old `/\.+$/` took seconds on these).
 * What is checked here is the answer and the cap before parsing; the times are figures printed by
 * bench/header-parsing.mjs, not assertions.
 */
describe('host parsing on hostile values', () => {
  const dotsThenLetter = `a${'.'.repeat(64_000)}x`;

  it('trims trailing dots in one pass, whatever precedes them', () => {
    expect(trimTrailingDots('example.com...')).toBe('example.com');
    expect(trimTrailingDots('....')).toBe('');
    expect(trimTrailingDots('a.b')).toBe('a.b');
    expect(trimTrailingDots(dotsThenLetter)).toBe(dotsThenLetter);
    expect(trimTrailingDots(`${dotsThenLetter}...`)).toBe(dotsThenLetter);
  });

  it('refuses an over-long Origin or page URL before parsing it', () => {
    const origin = `http://${dotsThenLetter}`;
    expect(hostOf(origin, HEADER_MAX_CHARS.origin)).toBeNull();
    expect(isOriginAllowed('example.com', origin, undefined)).toBe(false);
    expect(isOriginAllowed('example.com', undefined, origin)).toBe(false);
    expect(
      isOriginAllowed('example.com', `https://example.com${'/'.repeat(HEADER_MAX_CHARS.pageUrl)}`, undefined),
    ).toBe(false);
    expect(isOriginAllowed('example.com', origin, origin)).toBe(false);
  });

  it('parses a host of many dots below the cap correctly', () => {
    const host = `a${'.'.repeat(HEADER_MAX_CHARS.origin - 20)}x`;
    expect(hostOf(`http://${host}`, HEADER_MAX_CHARS.origin)).toBe(host);
    expect(hostOf('http://Shop.Example.com.../x')).toBe('shop.example.com');
  });

  it.each([
    ['dots then a letter', dotsThenLetter],
    ['colons and digits', `a${':1'.repeat(32_000)}x`],
    ['a long port', `example.com:${'1'.repeat(64_000)}`],
    ['leading dots', `${'.'.repeat(64_000)}x`],
  ])('refuses an owner entry of %s', (_name, value) => {
    expect(normalizeAllowedDomain(value)).toBeNull();
  });

  it('still reads ports, wildcards and dots in an owner entry the same way', () => {
    expect(normalizeAllowedDomain('Example.com:8080')).toBe('example.com');
    expect(normalizeAllowedDomain('example.com:')).toBe('example.com');
    expect(normalizeAllowedDomain('*.example.com.')).toBe('example.com');
    expect(normalizeAllowedDomain('..example.com..')).toBe('example.com');
  });
});

describe('storablePageUrl', () => {
  it('keeps an http(s) page, on any site for an unlocked bot', () => {
    expect(storablePageUrl('', undefined, 'https://shop.example/help?x=1#top')).toBe(
      'https://shop.example/help?x=1#top',
    );
    expect(storablePageUrl('', undefined, 'http://other.example/')).toBe('http://other.example/');
    expect(storablePageUrl('', 'https://shop.example', undefined)).toBe('https://shop.example/');
  });

  it('never keeps a page that is not http(s), which the inbox would show as a link', () => {
    for (const page of [
      'javascript:alert(document.cookie)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<script>x</script>',
      'vbscript:x',
      'file:///etc/passwd',
      'not a url',
      '//shop.example/x',
    ]) {
      expect(storablePageUrl('', undefined, page)).toBeNull();
      // An unusable X-Page-Url is not replaced by the Origin.
      expect(storablePageUrl('', 'https://shop.example', page)).toBeNull();
    }
  });

  it('keeps only a page on the domain of a domain-locked bot (subdomains too)', () => {
    expect(storablePageUrl('example.com', undefined, 'https://shop.example.com/a')).toBe('https://shop.example.com/a');
    expect(storablePageUrl('example.com', undefined, 'https://example.com.evil.net/a')).toBeNull();
    expect(storablePageUrl('example.com', 'https://example.com', 'https://evil.example/phish')).toBeNull();
    expect(storablePageUrl('example.com', 'https://evil.example', undefined)).toBeNull();
  });

  it('drops credentials, encodes what a browser would, and refuses an overlong address', () => {
    expect(storablePageUrl('', undefined, 'https://user:secret@shop.example/a b')).toBe('https://shop.example/a%20b');
    expect(storablePageUrl('', undefined, `https://shop.example/${'a'.repeat(HEADER_MAX_CHARS.pageUrl)}`)).toBeNull();
  });

  it('is null or an http(s) URL on the allowed domain, whatever is sent', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', 'example.com', 'b.c'),
        fc.option(
          fc.oneof(
            fc.string(),
            fc.tuple(scheme, hostname, path).map((p) => p.join('')),
          ),
          { nil: undefined },
        ),
        fc.option(
          fc.oneof(
            fc.string(),
            fc.tuple(fc.constantFrom('javascript:', 'http://', 'https://'), hostname, path).map((p) => p.join('')),
          ),
          { nil: undefined },
        ),
        (domain, origin, page) => {
          const stored = storablePageUrl(domain, origin, page);
          if (stored === null) return;
          const url = new URL(stored);
          expect(['http:', 'https:']).toContain(url.protocol);
          if (domain) expect(hostMatchesDomain(url.hostname, domain)).toBe(true);
        },
      ),
    );
  });
});
