import { hostMatchesDomain, hostOf, normalizeAllowedDomain } from './domain-match.js';

/**
 * Which links an answer may carry (docs/product.md#chat-input-limits). The model repeats what it
 * reads, and it reads crawled pages and uploaded files that anyone may have written: a page saying
 * "[log in here](https://evil.example)" must not become a link the bot hands its visitors. A link
 * is kept when it points to the bot's allowed domain or to the site of one of its website sources
 * (either with its subdomains), or when the owner wrote that address (in the bot's prompt, a
 * written answer or a correction the model was given); any other is reduced to its text, which the
 * widget does not make a link.
 */
export interface LinkSources {
  /** The bot's domain lock ('' when none). */
  allowedDomain: string;
  /** The addresses of the bot's website sources. */
  sourceSites: readonly string[];
  /** Text the owner wrote: the bot's prompt, written answers and corrections. */
  ownerTexts: readonly string[];
}

export interface LinkPolicy {
  allows(href: string): boolean;
}

/** An address as written in text: http(s) up to a space or a closing bracket, or an e-mail address. */
const WRITTEN_URL = /https?:\/\/[^\s<>"')\]]+/gi;
const WRITTEN_EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

/** The longest owner text looked at for addresses (a written answer holds at most 100,000 characters). */
const OWNER_TEXT_MAX_CHARS = 200_000;

/** `href` read as the widget would (the URL parser), or null when it is not http(s) or mailto. */
function parsedLink(href: string): URL | null {
  if (href.length > 4096) return null;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url : null;
  } catch {
    return null;
  }
}

/** An http(s) address without its fragment or trailing slash, for comparing "the same page or below". */
function comparable(url: URL): string {
  return `${url.origin.toLowerCase()}${url.pathname.replace(/\/+$/, '')}${url.search}`;
}

export function linkPolicy(sources: LinkSources): LinkPolicy {
  const domains = new Set<string>();
  const domain = normalizeAllowedDomain(sources.allowedDomain);
  if (domain) domains.add(domain);
  for (const site of sources.sourceSites) {
    const host = hostOf(site, 4096);
    // A source on www.acme.example vouches for acme.example and its other subdomains.
    if (host) domains.add(host.replace(/^www\./, ''));
  }
  const pages: string[] = [];
  const emails = new Set<string>();
  for (const text of sources.ownerTexts) {
    const bounded = text.slice(0, OWNER_TEXT_MAX_CHARS);
    for (const [written] of bounded.matchAll(WRITTEN_URL)) {
      const url = parsedLink(written.replace(/[.,;:!?]+$/, ''));
      if (url && url.protocol !== 'mailto:') pages.push(comparable(url));
    }
    for (const [address] of bounded.matchAll(WRITTEN_EMAIL)) emails.add(address.toLowerCase());
  }
  const onAllowedSite = (host: string) => [...domains].some((d) => hostMatchesDomain(host, d));
  return {
    allows(href: string): boolean {
      const url = parsedLink(href);
      if (!url) return false;
      if (url.protocol === 'mailto:') {
        const address = decodeURIComponent(url.pathname).toLowerCase();
        const at = address.lastIndexOf('@');
        return emails.has(address) || (at > 0 && onAllowedSite(address.slice(at + 1)));
      }
      const host = url.hostname.toLowerCase().replace(/\.+$/, '');
      if (onAllowedSite(host)) return true;
      const page = comparable(url);
      return pages.some(
        (written) => page === written || page.startsWith(`${written}/`) || page.startsWith(`${written}?`),
      );
    },
  };
}

/**
 * The three ways the widget's markdown makes a link (widget/src/lib/markdown.ts): `[label](url)`
 * (and an image `![alt](url)`, which it shows as a link), `<url>`, and a bare http(s) address
 * (matched here in any case, so nothing the widget could link slips by).
 */
const MARKDOWN_LINK = String.raw`(!?)\[([^[\]]*)\]\(\s*([^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+"[^"]*")?\s*\)`;
const LINK = new RegExp(
  String.raw`${MARKDOWN_LINK}|<((?:https?:\/\/|mailto:)[^\s<>]+)>|(https?:\/\/[^\s<>"]*[^\s<>".,;:!?'")\]*_])`,
  'gi',
);
const MARKDOWN_LINK_AT_START = new RegExp(`^${MARKDOWN_LINK}`);

/** An address reduced to text the widget does not link: without its scheme (`evil.example/login`). */
function unlinked(href: string): string {
  return href.replace(/^(https?:\/\/|mailto:)/i, '');
}

/** `text` with every link the policy does not allow reduced to its text. */
export function reduceLinks(text: string, policy: LinkPolicy): string {
  return text.replace(
    LINK,
    (whole: string, _bang: string, label?: string, target?: string, auto?: string, bare?: string) => {
      if (target !== undefined) {
        if (policy.allows(target)) return whole;
        // The label is shown as text (the widget reads markup in it): its own links are checked too.
        return reduceLinks(label ?? '', policy);
      }
      const href = auto ?? bare ?? '';
      return policy.allows(href) ? whole : unlinked(href);
    },
  );
}

/** How long a link may be held back while it streams in; past it, the text goes out as it is. */
const MAX_HELD_CHARS = 4096;

/**
 * reduceLinks for an answer that streams: text is let through up to its last space, except an
 * unfinished `[label](url)` (whose label and title may hold spaces), which is held until it ends.
 * A link never reaches the visitor before it is checked, and what streams out, put together, is
 * reduceLinks of the whole answer.
 */
export class LinkFilter {
  private held = '';

  constructor(private readonly policy: LinkPolicy) {}

  /** The checked text that can go out now. */
  push(text: string): string {
    this.held += text;
    const cut = safeCut(this.held);
    if (cut === 0) return '';
    const ready = this.held.slice(0, cut);
    this.held = this.held.slice(cut);
    return reduceLinks(ready, this.policy);
  }

  /** The rest, once the answer is complete. */
  end(): string {
    const rest = this.held;
    this.held = '';
    return reduceLinks(rest, this.policy);
  }
}

/**
 * Where `text` can be cut without cutting a link: after its last whitespace, moved past a complete
 * `[label](url "title")` that whitespace falls in, or back before an unfinished one.
 */
function safeCut(text: string): number {
  let cut = 0;
  for (let i = text.length - 1; i >= 0; i -= 1) {
    if (/\s/.test(text[i])) {
      cut = i + 1;
      break;
    }
  }
  const linked: Array<[number, number]> = [];
  for (const match of text.matchAll(LINK)) {
    const end = match.index + match[0].length;
    linked.push([match.index, end]);
    if (match.index < cut && end > cut) cut = end;
  }
  // The earliest `[` before the cut that may start a link still being written holds the rest.
  for (let open = text.indexOf('[', Math.max(0, text.length - MAX_HELD_CHARS)); open >= 0 && open < cut;) {
    const inLink = linked.some(([start, end]) => start <= open && open < end);
    if (!inLink && mayBeOpenLink(text.slice(open))) return open > 0 && text[open - 1] === '!' ? open - 1 : open;
    open = text.indexOf('[', open + 1);
  }
  return cut;
}

/** `[label` or `[label](url "title` still being written: no complete link starts here yet. */
function mayBeOpenLink(text: string): boolean {
  const close = text.indexOf(']');
  if (close < 0) return true;
  if (close + 1 < text.length && text[close + 1] !== '(') return false;
  return !MARKDOWN_LINK_AT_START.test(text);
}
