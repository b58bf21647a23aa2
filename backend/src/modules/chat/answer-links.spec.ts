import fc from 'fast-check';
import { LinkFilter, linkPolicy, reduceLinks } from './answer-links.js';

const policy = linkPolicy({
  allowedDomain: 'acme.example',
  sourceSites: ['https://www.docs-site.example/guide/'],
  ownerTexts: [
    'You are the Acme helper. Book a table at https://booking.partner.example/acme.',
    'Write to help@support-desk.example for anything else.',
  ],
});

describe('linkPolicy', () => {
  it("keeps the allowed domain, the sources' sites (with their subdomains) and the owner's addresses", () => {
    for (const href of [
      'https://acme.example/pricing',
      'https://shop.acme.example/',
      'https://docs-site.example/faq',
      'https://www.docs-site.example/guide/setup',
      'https://booking.partner.example/acme',
      'https://booking.partner.example/acme/tables?day=1',
      'mailto:help@support-desk.example',
      'mailto:sales@acme.example',
    ]) {
      expect([href, policy.allows(href)]).toEqual([href, true]);
    }
  });

  it('refuses any other site, look-alikes, other schemes and pages the owner did not write', () => {
    for (const href of [
      'https://evil.example/login',
      'https://acme.example.evil.net/',
      'https://evil-acme.example/',
      'https://booking.partner.example/other-restaurant',
      'https://booking.partner.example/acmeevil',
      'javascript:alert(1)',
      'data:text/html,x',
      'mailto:ceo@evil.example',
      'not a url',
    ]) {
      expect([href, policy.allows(href)]).toEqual([href, false]);
    }
  });
});

describe('reduceLinks', () => {
  it('reduces a link to another site to its text, in each form the widget links', () => {
    expect(reduceLinks('Log in [here](https://evil.example/login) now.', policy)).toBe('Log in here now.');
    expect(reduceLinks('See ![a map](https://evil.example/map.png).', policy)).toBe('See a map.');
    expect(reduceLinks('Go to <https://evil.example/x> or https://evil.example/y.', policy)).toBe(
      'Go to evil.example/x or evil.example/y.',
    );
    expect(reduceLinks('[https://evil.example/a](https://evil.example/b)', policy)).toBe('evil.example/a');
    expect(reduceLinks('Mail <mailto:ceo@evil.example>.', policy)).toBe('Mail ceo@evil.example.');
    expect(reduceLinks('HTTPS://EVIL.EXAMPLE/x', policy)).toBe('EVIL.EXAMPLE/x');
  });

  it('keeps allowed links exactly as written', () => {
    const text =
      'Prices: [our page](https://acme.example/pricing "Prices"), <https://shop.acme.example/> and https://booking.partner.example/acme.';
    expect(reduceLinks(text, policy)).toBe(text);
  });
});

describe('LinkFilter (a streamed answer)', () => {
  it('never lets a link out before it is complete and checked', () => {
    const filter = new LinkFilter(policy);
    const out: string[] = [];
    for (const token of [
      'Log ',
      'in [he',
      're](https://ev',
      'il.example/lo',
      'gin) or ',
      'https://evil',
      '.example/x',
      ' done.',
    ]) {
      out.push(filter.push(token));
    }
    out.push(filter.end());
    expect(out.join('')).toBe('Log in here or evil.example/x done.');
    expect(out.some((piece) => piece.includes('https://evil'))).toBe(false);
  });

  it('streams out, put together, exactly reduceLinks of the whole answer, however it is cut', () => {
    const piece = fc.constantFrom(
      'Hello ',
      'see ',
      '[our page](https://acme.example/p) ',
      '[click here](https://evil.example/x "t i") ',
      '![img](https://evil.example/i.png)',
      '<https://evil.example/a>',
      'https://evil.example/b. ',
      'https://acme.example/c ',
      '[unclosed ',
      '](',
      ')',
      '[',
      ']',
      '\n',
      ' ',
      'a_(b)',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat(200), { maxLength: 10 }), (pieces, cuts) => {
        const text = pieces.join('');
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const filter = new LinkFilter(policy);
        let streamed = '';
        let from = 0;
        for (const point of [...points, text.length]) {
          streamed += filter.push(text.slice(from, point));
          from = point;
        }
        streamed += filter.end();
        expect(streamed).toBe(reduceLinks(text, policy));
      }),
      { numRuns: 500 },
    );
  });
});
