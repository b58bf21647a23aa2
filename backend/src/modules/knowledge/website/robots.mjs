// Plain JavaScript (typed by robots.d.mts) because the crawler's page reader
// (../extraction/file-text.worker.mjs) parses robots.txt with it in a child process, which has no
// TypeScript loader; the crawler matches URLs with the same module. The build copies it into
// dist (allowJs).

/**
 * robots.txt (RFC 9309) for one crawler: the rules of the group that names its product token
 * (else of the `*` group), its Crawl-delay, and the sitemaps the file lists.
 *
 * The file is a site owner's, so nothing here backtracks: lines are cut with indexOf, and a
 * rule is compiled once into its literal pieces between `*` wildcards, which a URL is matched
 * against left to right, each piece at its first place (enough for a pattern of literals and
 * `*`), so one match costs about the URL's length whatever the pattern. The number of rules and
 * the URL's length are bounded by the crawler (docs/product.md#knowledge-sources), so checking a
 * URL against every rule stays in the milliseconds.
 */

/** Sitemaps a file may name that are kept (the crawler reads at most 20 sitemap files). */
const MAX_SITEMAPS = 100;

/**
 * The robots.txt `bytes` as read for `productToken` (the part of our user agent before "/"), or
 * `{tooManyRules: true}` when the group that applies holds more than `maxRules` rules.
 */
export function readRobots(bytes, productToken, maxRules) {
  const text = new TextDecoder('utf-8').decode(bytes);
  return parseRobots(text, productToken, maxRules);
}

/** The same from the file's text. */

export function parseRobots(text, productToken, maxRules = Infinity) {
  const token = agentName(productToken);
  const own = { named: false, rules: [], crawlDelay: null };
  const anyone = { named: false, rules: [], crawlDelay: null };
  const sitemaps = [];
  let agents = [];
  let readingAgents = false;
  const lines = new LineReader(text);
  for (let raw = lines.next(); raw !== null; raw = lines.next()) {
    const line = lineParts(raw);
    if (line === null) continue;
    const [key, value] = line;
    if (key === 'user-agent') {
      if (!readingAgents) agents = [];
      readingAgents = true;
      const name = agentName(value);
      const group = name === token ? own : name === '*' ? anyone : null;
      if (group !== null && !agents.includes(group)) {
        group.named = true;
        agents.push(group);
      }
      continue;
    }
    readingAgents = false;
    if (key === 'allow' || key === 'disallow') {
      if (value === '') continue;
      // One past the limit is kept, to know the limit was passed; the rest are not.
      for (const group of agents)
        if (group.rules.length <= maxRules) group.rules.push(compileRule(value, key === 'allow'));
    } else if (key === 'crawl-delay') {
      const seconds = Number(value);
      if (value !== '' && Number.isFinite(seconds)) for (const group of agents) group.crawlDelay = seconds;
    } else if (key === 'sitemap' && value !== '' && sitemaps.length < MAX_SITEMAPS) {
      sitemaps.push(value);
    }
  }
  const group = own.named ? own : anyone;
  if (group.rules.length > maxRules) return { tooManyRules: true, rules: [], crawlDelay: null, sitemaps: [] };
  // The longest first, Allow before Disallow on a tie: the first rule that matches decides.
  const rules = group.rules.sort((a, b) => b.length - a.length || Number(b.allow) - Number(a.allow));
  return { tooManyRules: false, rules, crawlDelay: group.crawlDelay, sitemaps };
}

/** The lines of a text, split at "\n", "\r\n" or a lone "\r", each found by one forward search. */
class LineReader {
  constructor(text) {
    this.text = text;
    this.at = 0;
    this.lf = -1;
    this.cr = -1;
  }

  next() {
    const { text, at } = this;
    if (at > text.length) return null;
    if (this.lf < at && this.lf !== text.length) this.lf = indexOrEnd(text, '\n', at);
    if (this.cr < at && this.cr !== text.length) this.cr = indexOrEnd(text, '\r', at);
    const end = Math.min(this.lf, this.cr);
    this.at = end + (end === this.cr && text[end + 1] === '\n' ? 2 : 1);
    return text.slice(at, end);
  }
}

function indexOrEnd(text, char, from) {
  const found = text.indexOf(char, from);
  return found === -1 ? text.length : found;
}

/** A line's lower-case key and trimmed value, without its comment; null for a line without ":". */
function lineParts(raw) {
  const hash = raw.indexOf('#');
  const line = hash === -1 ? raw : raw.slice(0, hash);
  const colon = line.indexOf(':');
  if (colon === -1) return null;
  return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
}

/** A user agent as robots.txt groups name it: lower case, without a "/version". */
function agentName(value) {
  const slash = value.indexOf('/');
  return (slash === -1 ? value : value.slice(0, slash)).trim().toLowerCase();
}

/**
 * A rule's pattern as literal pieces between its `*` wildcards (percent-encoded as URLs are, with
 * upper-case escapes), anchored at the URL's end when it ends in `$`. `length` is the pattern's
 * own length, which decides between rules that both match (the longest wins; Allow on a tie).
 */
function compileRule(value, allow) {
  const pattern = normaliseEncoding(value);
  const anchored = pattern.endsWith('$');
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  return { allow, length: pattern.length, pieces, anchored };
}

function normaliseEncoding(path) {
  let encoded;
  try {
    encoded = encodeURI(path).replaceAll('%25', '%');
  } catch {
    // A lone surrogate cannot be encoded: the pattern is matched as written.
    encoded = path;
  }
  return upperCaseEscapes(encoded);
}

/** "%2f" → "%2F", one pass. */
function upperCaseEscapes(path) {
  let at = path.indexOf('%');
  if (at === -1) return path;
  let out = '';
  let from = 0;
  while (at !== -1) {
    out += path.slice(from, at + 1) + path.slice(at + 1, at + 3).toUpperCase();
    from = at + 3;
    at = path.indexOf('%', from);
  }
  return out + path.slice(from);
}

/** Whether `rule` matches `path` (a URL's path and query, percent-encoded). */
export function ruleMatches(rule, path) {
  const { pieces, anchored } = rule;
  const first = pieces[0];
  if (!path.startsWith(first)) return false;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let at = first.length;
  for (let i = 1; i < pieces.length - 1; i += 1) {
    if (pieces[i] === '') continue;
    const found = path.indexOf(pieces[i], at);
    if (found === -1) return false;
    at = found + pieces[i].length;
  }
  const last = pieces[pieces.length - 1];
  if (anchored) return path.length - last.length >= at && path.endsWith(last);
  return last === '' || path.indexOf(last, at) !== -1;
}

/**
 * Whether robots.txt lets us fetch the URL whose path and query are `path`: the longest
 * matching rule decides, Allow winning a tie; no matching rule allows.
 */
export function robotsAllow(robots, path) {
  const target = upperCaseEscapes(path);
  // parseRobots sorted the rules by precedence.
  for (const rule of robots.rules) if (ruleMatches(rule, target)) return rule.allow;
  return true;
}
