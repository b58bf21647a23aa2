// Plain JavaScript (typed by sitemap.d.mts) because the crawler's page reader
// (../extraction/file-text.worker.mjs) runs it in a child process, which has no TypeScript
// loader; the build copies it into dist (allowJs).
import { gunzipSync } from 'node:zlib';

/**
 * The URLs of a sitemap (urlset) or the child sitemaps of a sitemap index. Sitemaps are a flat,
 * fixed XML vocabulary, so reading the `<loc>` elements is all the parsing they need.
 *
 * The file is a site owner's, so it is read by forward scans (indexOf), never by a regular
 * expression that could backtrack: each character is looked at a bounded number of times, so
 * time grows with the file's length whatever it holds (an unclosed `<loc>` followed by
 * thousands of spaces took the former regex minutes; docs/product.md#knowledge-sources).
 */

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** The sitemap protocol's own limit of URLs per file. */
export const SITEMAP_MAX_LOCATIONS = 50_000;
/** Longest entity name looked at ("#x10FFFF"). */
const MAX_ENTITY = 10;
/** Longest tag name looked at (with its namespace prefix): sitemap tags are short. */
const MAX_TAG_NAME = 64;

/**
 * A sitemap's bytes (gzip-compressed or not) as a Sitemap, or null when it is neither a urlset
 * nor a sitemap index or cannot be unpacked within `maxBytes`.
 */
export function readSitemap(bytes, maxBytes) {
  let body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // sitemap.xml.gz, served as a file rather than with Content-Encoding.
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      body = gunzipSync(body, { maxOutputLength: maxBytes });
    } catch {
      return null;
    }
  }
  return parseSitemap(body.toString('utf8'));
}

/** The locations of a sitemap's text, or null when it is neither a urlset nor an index. */
export function parseSitemap(xml, maxLocations = SITEMAP_MAX_LOCATIONS) {
  let kind = null;
  const locations = [];
  let at = xml.indexOf('<');
  while (at !== -1 && at < xml.length) {
    if (xml.startsWith('<!--', at)) {
      const end = xml.indexOf('-->', at + 4);
      if (end === -1) break;
      at = xml.indexOf('<', end + 3);
      continue;
    }
    const tag = tagName(xml, at + 1);
    if (tag === 'sitemapindex' || tag === 'urlset') {
      const after = xml[at + 1 + tag.length + prefixLength(xml, at + 1)];
      if (after === '>' || isSpace(after)) kind = tag === 'sitemapindex' ? 'index' : (kind ?? 'urlset');
    }
    if (tag === 'loc' && xml[at + 1 + prefixLength(xml, at + 1) + 3] === '>') {
      const loc = readLoc(xml, at + 1 + prefixLength(xml, at + 1) + 4);
      if (loc.value && locations.length < maxLocations) locations.push(loc.value);
      at = xml.indexOf('<', loc.next);
      continue;
    }
    at = xml.indexOf('<', at + 1);
  }
  return kind === null ? null : { kind, locations };
}

/**
 * The text of one `<loc>` starting at `start` (just after its `>`): CDATA as written, other text
 * with its entities decoded, both trimmed; an empty value when the element does not close right
 * after its text. `next` is where scanning goes on.
 */
function readLoc(xml, start) {
  let at = start;
  while (isSpace(xml[at])) at += 1;
  let value;
  let end;
  if (xml.startsWith('<![CDATA[', at)) {
    const close = xml.indexOf(']]>', at + 9);
    if (close === -1) return { value: '', next: xml.length };
    value = xml.slice(at + 9, close).trim();
    end = close + 3;
    while (isSpace(xml[end])) end += 1;
  } else {
    end = xml.indexOf('<', at);
    if (end === -1) return { value: '', next: xml.length };
    value = decodeEntities(xml.slice(at, end)).trim();
  }
  if (!xml.startsWith('</', end) || tagName(xml, end + 2) !== 'loc') return { value: '', next: end };
  const closeAt = end + 2 + prefixLength(xml, end + 2) + 3;
  if (xml[closeAt] !== '>') return { value: '', next: end };
  return { value, next: closeAt + 1 };
}

/** The local name (lower case, without a namespace prefix) of the tag whose name starts at `at`. */
function tagName(xml, at) {
  let end = at;
  while (end < xml.length && end - at <= MAX_TAG_NAME && isNameChar(xml.charCodeAt(end))) end += 1;
  const name = xml.slice(at, end);
  const colon = name.indexOf(':');
  return (colon === -1 ? name : name.slice(colon + 1)).toLowerCase();
}

/** The length of the namespace prefix and its colon ("sm:") of the tag name starting at `at`. */
function prefixLength(xml, at) {
  let end = at;
  while (end < xml.length && end - at <= MAX_TAG_NAME && isNameChar(xml.charCodeAt(end))) {
    if (xml[end] === ':') return end - at + 1;
    end += 1;
  }
  return 0;
}

function isNameChar(code) {
  return (
    (code >= 0x30 && code <= 0x39) || // 0-9
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    code === 0x5f || // _
    code === 0x2d || // -
    code === 0x3a // :
  );
}

function isSpace(char) {
  return char === ' ' || char === '\n' || char === '\r' || char === '\t';
}

/** XML's five named entities and numeric references; anything else is left as written. */
export function decodeEntities(text) {
  let at = text.indexOf('&');
  if (at === -1) return text;
  let out = '';
  let from = 0;
  // The next ';' is searched for again only once `at` has passed it: one pass over the text.
  let end = -1;
  while (at !== -1) {
    if (end <= at) end = text.indexOf(';', at + 1);
    if (end === -1) break;
    const decoded = end - at <= MAX_ENTITY + 1 ? entity(text.slice(at + 1, end)) : null;
    if (decoded === null) {
      at = text.indexOf('&', at + 1);
      continue;
    }
    out += text.slice(from, at) + decoded;
    from = end + 1;
    at = text.indexOf('&', from);
  }
  return out + text.slice(from);
}

function entity(name) {
  if (name.length === 0) return null;
  let code = NaN;
  if (name[0] === '#' && (name[1] === 'x' || name[1] === 'X')) {
    if (/^[0-9a-f]+$/i.test(name.slice(2))) code = parseInt(name.slice(2), 16);
  } else if (name[0] === '#') {
    if (/^[0-9]+$/.test(name.slice(1))) code = parseInt(name.slice(1), 10);
  } else {
    const key = name.toLowerCase();
    return Object.hasOwn(ENTITIES, key) ? ENTITIES[key] : null;
  }
  return Number.isInteger(code) && code <= 0x10ffff ? String.fromCodePoint(code) : null;
}
