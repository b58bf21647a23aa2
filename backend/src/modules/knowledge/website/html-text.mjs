// Plain JavaScript (typed by html-text.d.mts) because the file-text worker
// (../extraction/file-text.worker.mjs) reads uploaded HTML files with it in a child process, which
// has no TypeScript loader; the crawler imports the same module. The build copies it into dist
// (allowJs).
import { parse } from 'node-html-parser';

/**
 * The readable part of an HTML page: its title, its main text without the site's chrome, and
 * what the crawler needs to go on (links, canonical URL, robots meta).
 *
 * The main text is the page's `<main>` (or `role="main"`) when it has one, else its `<body>`,
 * minus scripts, styles, navigation, sidebars and the page-level header and footer. A header or
 * footer inside an article or section belongs to that content (an article's title, a
 * section's note) and stays.
 */

const NEVER_TEXT = [
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'nav',
  'aside',
  'dialog',
  'button',
  'select',
  'textarea',
  '[role=navigation]',
  '[role=banner]',
  '[role=contentinfo]',
  '[role=complementary]',
  '[role=search]',
  '[aria-hidden=true]',
  '[hidden]',
].join(',');

const SECTIONING = new Set(['ARTICLE', 'SECTION', 'MAIN']);

/** The page's title, main text, links, canonical URL and robots meta; see html-text.d.mts. */
export function extractPage(html, pageUrl) {
  const document = parse(html, { comment: false, blockTextElements: { script: true, style: true, pre: true } });
  const base = baseUrl(document, pageUrl);
  const robots = (metaContent(document, 'robots') ?? '').toLowerCase();
  const links = [];
  for (const anchor of document.querySelectorAll('a[href], area[href]')) {
    const absolute = resolve(anchor.getAttribute('href') ?? '', base);
    if (absolute) links.push(absolute);
  }
  const canonicalHref = document.querySelector('link[rel=canonical][href]')?.getAttribute('href');
  return {
    title: titleOf(document, pageUrl),
    text: mainText(document),
    links,
    canonical: canonicalHref ? resolve(canonicalHref, base) : null,
    noindex: /\b(noindex|none)\b/.test(robots),
    nofollow: /\b(nofollow|none)\b/.test(robots),
  };
}

function mainText(document) {
  const root =
    document.querySelector('main:not([hidden])') ??
    document.querySelector('[role=main]') ??
    document.querySelector('body') ??
    document;
  for (const element of root.querySelectorAll(NEVER_TEXT)) element.remove();
  for (const element of root.querySelectorAll('header, footer')) {
    if (!insideSectioning(element, root)) element.remove();
  }
  return tidy(root.structuredText);
}

function insideSectioning(element, root) {
  for (let parent = element.parentNode; parent && parent !== root; parent = parent.parentNode) {
    if (SECTIONING.has(parent.tagName)) return true;
  }
  return root.tagName !== undefined && SECTIONING.has(root.tagName);
}

function titleOf(document, pageUrl) {
  const candidates = [
    document.querySelector('title')?.text,
    document.querySelector('meta[property="og:title"]')?.getAttribute('content'),
    document.querySelector('h1')?.text,
  ];
  for (const candidate of candidates) {
    const title = candidate?.replace(/\s+/g, ' ').trim();
    if (title) return title.slice(0, 300);
  }
  const url = new URL(pageUrl);
  return url.pathname === '/' ? url.host : decodeURIComponent(url.pathname);
}

function metaContent(document, name) {
  for (const meta of document.querySelectorAll('meta[name][content]')) {
    if (meta.getAttribute('name')?.toLowerCase() === name) return meta.getAttribute('content') ?? null;
  }
  return null;
}

function baseUrl(document, pageUrl) {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  return (href && resolve(href, pageUrl)) || pageUrl;
}

function resolve(href, base) {
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return null;
  }
}

/** Collapses runs of spaces inside lines and of empty lines between them. */
function tidy(text) {
  return text
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter((line, index, lines) => line !== '' || (index > 0 && lines[index - 1] !== ''))
    .join('\n')
    .trim();
}

/**
 * The main text of an uploaded HTML file, by the same rules as a crawled page (its `<main>`, else
 * its body, without scripts, navigation and the page-level header and footer).
 */
export function htmlMainText(html) {
  // The address only resolves the page's links, which a file source does not follow.
  const page = extractPage(html, 'https://uploaded-file.invalid/');
  return { title: page.title, text: page.text };
}
