import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GRADIENT_DIRECTIONS, GRADIENT_MAX_CHARS } from './bots.js';
import { isHex, normaliseAllowedDomain, normaliseGradient, normaliseRadius, parseGradient } from './style-values.js';

const hexDigit = fc.constantFrom(...'0123456789abcdefABCDEF'.split(''));
const hex = fc.oneof(
  fc.array(hexDigit, { minLength: 3, maxLength: 3 }).map((d) => `#${d.join('')}`),
  fc.array(hexDigit, { minLength: 6, maxLength: 6 }).map((d) => `#${d.join('')}`),
);
const space = fc.constantFrom('', ' ', '  ', '\t');

describe('parseGradient', () => {
  it('accepts each of the five directions with 3- and 6-digit hex colours', () => {
    for (const direction of GRADIENT_DIRECTIONS) {
      expect(parseGradient(`linear-gradient(${direction}, #fff, #2ecc71)`)).toEqual({
        direction,
        from: '#fff',
        to: '#2ecc71',
      });
    }
  });

  it('normalises spacing and case to one stored spelling', () => {
    expect(normaliseGradient('  LINEAR-GRADIENT( To   Right ,#ABC,  #00FF00 )  ')).toBe(
      'linear-gradient(to right, #abc, #00ff00)',
    );
  });

  it('accepts every well-formed gradient, and normalising is idempotent', () => {
    fc.assert(
      fc.property(fc.constantFrom(...GRADIENT_DIRECTIONS), hex, hex, space, space, (direction, a, b, s1, s2) => {
        const value = `linear-gradient(${s1}${direction}${s2},${s1}${a}${s2},${s2}${b}${s1})`;
        const normalised = normaliseGradient(value);
        expect(normalised).toBe(`linear-gradient(${direction}, ${a.toLowerCase()}, ${b.toLowerCase()})`);
        expect(normaliseGradient(normalised!)).toBe(normalised);
      }),
    );
  });

  it.each([
    ['a bare hex colour', '#2ecc71'],
    ['a named colour stop', 'linear-gradient(to right, red, #fff)'],
    ['rgb() stops', 'linear-gradient(to right, rgb(0,0,0), #fff)'],
    ['a 4-digit hex', 'linear-gradient(to right, #ffff, #fff)'],
    ['an 8-digit hex', 'linear-gradient(to right, #ffffffff, #fff)'],
    ['a 5-digit hex', 'linear-gradient(to right, #fffff, #fff)'],
    ['a non-hex digit', 'linear-gradient(to right, #ggg, #fff)'],
    ['three stops', 'linear-gradient(to right, #fff, #000, #111)'],
    ['one stop', 'linear-gradient(to right, #fff)'],
    ['an unlisted direction', 'linear-gradient(45deg, #fff, #000)'],
    ['to bottom right', 'linear-gradient(to bottom right, #fff, #000)'],
    ['a radial gradient', 'radial-gradient(to right, #fff, #000)'],
    ['trailing text', 'linear-gradient(to right, #fff, #000); background:url(x)'],
    ['a CSS injection in the direction', 'linear-gradient(to right;x:y, #fff, #000)'],
    ['a url()', 'linear-gradient(to right, url(http://x), #000)'],
    ['stop positions', 'linear-gradient(to right, #fff 10%, #000)'],
    ['the empty string', ''],
  ])('refuses %s', (_label, value) => {
    expect(parseGradient(value)).toBeNull();
  });

  it('refuses arbitrary strings without throwing', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const parsed = parseGradient(value);
        if (parsed) expect(value).toMatch(/linear-gradient/i);
      }),
    );
  });
});

describe('normaliseRadius', () => {
  it.each([
    ['0', '0'],
    ['50%', '50%'],
    ['12px', '12px'],
    [' 10PX ', '10px'],
    ['10.5px', '10.5px'],
    ['999px', '999px'],
    ['100%', '100%'],
    ['0px', '0px'],
  ])('accepts %j as %j', (value, expected) => {
    expect(normaliseRadius(value)).toBe(expected);
  });

  it.each(['', '12', '-1px', '1000px', '101%', '12em', 'calc(1px)', '1e2px', '12 px', '.5px', '12px;x'])(
    'refuses %j',
    (value) => {
      expect(normaliseRadius(value)).toBeNull();
    },
  );
});

describe('normaliseAllowedDomain', () => {
  it.each([
    ['', ''],
    ['example.com', 'example.com'],
    ['  Shop.Example.CO.uk ', 'shop.example.co.uk'],
    ['example.com.', 'example.com'],
    ['localhost', 'localhost'],
    ['my-site.io', 'my-site.io'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['ＥＸＡＭＰＬＥ.com', 'example.com'],
  ])('accepts %j as %j', (value, expected) => {
    expect(normaliseAllowedDomain(value)).toBe(expected);
  });

  it.each([
    'https://example.com',
    'http://example.com/',
    'example.com/path',
    'example.com:8080',
    'user@example.com',
    '*.example.com',
    'example.com?x=1',
    'example.com#top',
    '-example.com',
    'example-.com',
    'exa mple.com',
    '192.168.0.1',
    '[::1]',
    'a..com',
    `${'a'.repeat(64)}.com`,
    'example.com\\evil',
    'exa%41mple.com',
    'example.123',
  ])('refuses %j', (value) => {
    expect(normaliseAllowedDomain(value)).toBeNull();
  });
});

describe('isHex', () => {
  it('accepts 3- and 6-digit hex colours only', () => {
    expect(['#fff', '#2ECC71'].every(isHex)).toBe(true);
    expect(['fff', '#ffff', '#12345678', 'red', ''].some(isHex)).toBe(false);
  });
});

describe('the parsers on hostile values', () => {
  // Crafted against the regexes these parsers once used: a lazy group followed by optional
  // spaces. How long they take is measured by bench/style-values.mjs, not asserted here.
  it.each([
    ['spaces after the parenthesis', `linear-gradient(${' '.repeat(16_000)}x`],
    ['spaces before a comma', `linear-gradient(to right${' '.repeat(16_000)},#fff,#000`],
    ['many commas', `linear-gradient(${','.repeat(16_000)})`],
    ['spaces just under the length cap', `linear-gradient(${' '.repeat(GRADIENT_MAX_CHARS - 17)}`],
  ])('refuses a gradient of %s', (_name, value) => {
    expect(parseGradient(value)).toBeNull();
  });

  it('refuses a 16 KB radius or allowed domain, and values that are not strings', () => {
    expect(normaliseRadius(`${'1'.repeat(16_000)}px`)).toBeNull();
    expect(normaliseAllowedDomain('a.'.repeat(8_000))).toBeNull();
    for (const value of [undefined, null, 12, {}, ['#fff']]) {
      expect(parseGradient(value)).toBeNull();
      expect(normaliseRadius(value)).toBeNull();
      expect(normaliseAllowedDomain(value)).toBeNull();
    }
  });
});
