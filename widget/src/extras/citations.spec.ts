import { describe, expect, it } from 'vitest';
import { citationLabel, readCitations } from './citations';

describe('readCitations', () => {
  it('keeps a name with its page or an http(s) address, and nothing else', () => {
    expect(
      readCitations([
        { sourceId: 1, name: ' Menu.pdf ', page: 3, url: null },
        { sourceId: 2, name: 'Hours', page: null, url: 'https://cafe.example/hours' },
        { sourceId: 3, name: 'Evil', page: null, url: 'javascript:alert(1)' },
        { name: 'Data', url: 'data:text/html,<b>x</b>' },
        { name: 'Half page', page: 1.5 },
        { name: '   ' },
        null,
        'Menu.pdf',
      ]),
    ).toEqual([
      { name: 'Menu.pdf', page: 3 },
      { name: 'Hours', url: 'https://cafe.example/hours' },
      { name: 'Evil' },
      { name: 'Data' },
      { name: 'Half page' },
    ]);
  });

  it('shows at most five, and nothing for a value that is not a list or an empty one', () => {
    expect(readCitations(Array.from({ length: 8 }, (_, i) => ({ name: `S${i}` })))).toHaveLength(5);
    expect(readCitations('Menu.pdf')).toBeUndefined();
    expect(readCitations([])).toBeUndefined();
  });

  it('labels a file with its page', () => {
    expect(citationLabel({ name: 'Menu.pdf', page: 3 })).toBe('Menu.pdf, p. 3');
    expect(citationLabel({ name: 'Hours', url: 'https://cafe.example/hours' })).toBe('Hours');
  });
});
