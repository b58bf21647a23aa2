import { detectSourceFormat, isUtf8Text } from './source-formats.js';
import { csvAsText, htmlMainText, markdownAsText, parseCsv } from './text-extraction.js';

describe('source formats', () => {
  it('tells text kinds apart by extension once the bytes are UTF-8 text', async () => {
    const text = Buffer.from('Hello, world.');
    expect(await detectSourceFormat(text, 'a.txt')).toBe('txt');
    expect(await detectSourceFormat(text, 'A.MD')).toBe('md');
    expect(await detectSourceFormat(text, 'page.htm')).toBe('html');
    expect(await detectSourceFormat(text, 'rows.csv')).toBe('csv');
    expect(await detectSourceFormat(text, 'noextension')).toBe('txt');
    expect(await detectSourceFormat(Buffer.from('<!DOCTYPE html><p>x</p>'), 'noextension')).toBe('html');
    expect(await detectSourceFormat(text, 'run.sh')).toBeNull();
  });

  it('refuses NUL bytes and invalid UTF-8 as text, accepts a byte-order mark', () => {
    expect(isUtf8Text(Buffer.from('a\u0000b'))).toBe(false);
    expect(isUtf8Text(Buffer.from([0xc3, 0x28]))).toBe(false);
    expect(isUtf8Text(Buffer.from('\ufeffCafé'))).toBe(true);
  });
});

describe('text extraction', () => {
  it('parses quoted CSV fields with commas, doubled quotes and line breaks', () => {
    expect(parseCsv('a,b\n"x, y","say ""hi"""\r\n"multi\nline",2\n\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['multi\nline', '2'],
    ]);
  });

  it('writes CSV rows as sentences naming each column', () => {
    expect(csvAsText('Dish,Price\nSoup,4.50\nCake,\n')).toBe('Dish: Soup; Price: 4.50.\nDish: Cake.');
    expect(csvAsText('only,a,header')).toBe('only, a, header.');
  });

  it('keeps the main text of a page, not its scripts, navigation or footer', () => {
    const page = htmlMainText(
      '<html><head><title> Menu </title><style>p{}</style></head><body><nav>Home</nav><header>Logo</header>' +
        '<article><h1>Soups</h1><p>Lentil <b>soup</b></p><script>alert(1)</script></article><footer>(c)</footer></body></html>',
    );
    expect(page).toEqual({ title: 'Menu', text: 'Soups\nLentil soup' });
  });

  it('drops Markdown markup and keeps link texts', () => {
    expect(markdownAsText('# Title\n\n- **Bold** item with [a link](https://x.test)\n> quote')).toBe(
      'Title\n\nBold item with a link\nquote',
    );
  });
});
