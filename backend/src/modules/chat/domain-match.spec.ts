import fc from 'fast-check';
import { hostMatchesDomain, isOriginAllowed, normalizeAllowedDomain } from './domain-match.js';

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
