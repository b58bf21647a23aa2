import { extractPage } from './html-text.mjs';

describe('extractPage', () => {
  it('takes <main> when there is one, keeping an article header inside it', () => {
    const page = extractPage(
      `<html><head><title> Pricing  &amp; plans </title></head><body>
        <header>Logo and menu</header>
        <main><article><header><h1>Plans</h1></header><p>Basic costs 5&nbsp;dollars.</p>
        <nav>Previous / next</nav><footer>Updated in May</footer></article></main>
        <footer>© Acme</footer></body></html>`,
      'https://acme.test/pricing',
    );
    expect(page.title).toBe('Pricing & plans');
    expect(page.text).toBe('Plans\nBasic costs 5 dollars.\nUpdated in May');
  });

  it('takes the body without its page-level chrome when there is no <main>', () => {
    const page = extractPage(
      `<body><div role="navigation">Menu</div><div class="content"><h2>Hours</h2><p>Open<br>9 to 5</p>
       <ul><li>Mon</li><li>Tue</li></ul></div><div aria-hidden="true">Icon</div><noscript>Enable JS</noscript>
       <footer>Contact</footer><div role="contentinfo">Legal</div></body>`,
      'https://acme.test/hours',
    );
    expect(page.text).toBe('Hours\nOpen\n9 to 5\nMon\nTue');
  });

  it('resolves links against <base>, reads the canonical URL and the robots meta', () => {
    const page = extractPage(
      `<head><base href="https://acme.test/docs/"><link rel="canonical" href="guide">
       <meta name="ROBOTS" content="NOINDEX, follow"></head>
       <body><a href="intro">Intro</a><a href="/faq#q1">FAQ</a><a href="http://[bad">bad</a></body>`,
      'https://acme.test/docs/print/guide',
    );
    expect(page.links).toEqual(['https://acme.test/docs/intro', 'https://acme.test/faq#q1']);
    expect(page.canonical).toBe('https://acme.test/docs/guide');
    expect([page.noindex, page.nofollow]).toEqual([true, false]);
  });

  it('falls back to the first heading, then the address, for a title', () => {
    expect(extractPage('<body><h1>Menu</h1><p>Soup</p></body>', 'https://acme.test/menu').title).toBe('Menu');
    expect(extractPage('<body><p>Soup</p></body>', 'https://acme.test/menu').title).toBe('/menu');
    expect(extractPage('<body><p>Soup</p></body>', 'https://acme.test/').title).toBe('acme.test');
  });
});
