import { boundedWebSearch } from './web-search.js';

describe('boundedWebSearch', () => {
  it('leaves what a person types as it is', () => {
    for (const text of [
      'refund',
      '-spam refund',
      '"exact phrase" or parcel',
      '--refund',
      'e-mail -.-x',
      'a-b-c-d-e-f-g-h-i-j',
    ]) {
      expect(boundedWebSearch(text)).toBe(text);
    }
  });

  it('replaces a long run of negations by what it means: one NOT when odd, none when even', () => {
    expect(boundedWebSearch('-'.repeat(200))).toBe(' ');
    expect(boundedWebSearch(`${'-'.repeat(33)}refund`)).toBe(' -refund');
    expect(boundedWebSearch(`${'- '.repeat(40)}refund`)).toBe('  refund');
    expect(boundedWebSearch(`parcel ${'-&'.repeat(41)}x`)).toBe('parcel  -&x');
  });

  it('ends a run at a letter, a digit or a quote, in any script', () => {
    expect(boundedWebSearch('-é'.repeat(40))).toBe('-é'.repeat(40));
    expect(boundedWebSearch(`${'-'.repeat(4)}"${'-'.repeat(4)}x`)).toBe(`${'-'.repeat(4)}"${'-'.repeat(4)}x`);
  });
});
