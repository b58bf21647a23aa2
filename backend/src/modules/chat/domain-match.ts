import { domainToASCII } from 'node:url';
import { BOT_TEXT_LIMITS, HEADER_MAX_CHARS } from '../../common/constants.js';

/**
 * Which pages may talk to a bot: the owner's `allowedDomain` names a host, and that host and its
 * subdomains are allowed (`example.com` allows `example.com` and `shop.example.com`, never
 * `example.com.evil.net` or `evil-example.com`). Empty allows every site. Pure functions, so the
 * rule is property-tested on its own.
 */

/**
 * `value` without its trailing dots, in one pass from the end. Not `/\.+$/`: a regex engine
 * retries that pattern at every dot of a long run of dots followed by anything else, which is
 * quadratic (16 KB of dots in an Origin header took a quarter of a second).
 */
export function trimTrailingDots(value: string): string {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 0x2e) end -= 1;
  return end === value.length ? value : value.slice(0, end);
}

/** `value` without its leading dots. */
function trimLeadingDots(value: string): string {
  let start = 0;
  while (start < value.length && value.charCodeAt(start) === 0x2e) start += 1;
  return start === 0 ? value : value.slice(start);
}

/** The longest owner's entry looked at; the API stores at most BOT_TEXT_LIMITS.allowedDomain. */
const ALLOWED_DOMAIN_MAX_CHARS = 4 * BOT_TEXT_LIMITS.allowedDomain;

/**
 * The owner's entry as a bare ASCII host. Owners paste all sorts of things ("https://Example.com/",
 * "*.example.com", "example.com:8080"); what remains is the host. '' means "any site"; null means
 * the entry names no usable host, which allows nothing (failing closed, never open).
 */
export function normalizeAllowedDomain(raw: string | null | undefined): string | null {
  let value = (raw ?? '').trim().toLowerCase();
  if (value === '') return '';
  if (value.length > ALLOWED_DOMAIN_MAX_CHARS) return null;
  if (value.includes('://')) {
    try {
      value = new URL(value).hostname;
    } catch {
      return null;
    }
  } else {
    value = value.split(/[/?#]/, 1)[0]!;
    const colon = value.lastIndexOf(':');
    if (colon >= 0 && /^\d*$/.test(value.slice(colon + 1))) value = value.slice(0, colon);
  }
  if (value.startsWith('*.')) value = value.slice(2);
  value = trimTrailingDots(trimLeadingDots(value));
  if (value === '' || value.includes('*') || value.includes('@')) return null;
  const ascii = domainToASCII(value);
  return ascii === '' ? null : ascii;
}

/**
 * The host of an `Origin` header or a page URL (http or https only), lowercased, or null.
 * A value longer than `maxChars` is null before any parsing: no browser sends one, and the work
 * per request stays bounded.
 */
export function hostOf(value: string | null | undefined, maxChars: number = HEADER_MAX_CHARS.pageUrl): string | null {
  if (!value || value === 'null' || value.length > maxChars) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = trimTrailingDots(url.hostname.toLowerCase());
  return host === '' ? null : host;
}

/** Exact host, or a subdomain of it: a label boundary ('.') must precede the domain. */
export function hostMatchesDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * May a browser request coming from `origin` (else from the page at `pageUrl`) use a bot whose
 * owner allowed `allowedDomain`? The Origin header wins when present: browsers set it and page
 * scripts cannot change it, whereas X-Page-Url is written by the widget.
 */
export function isOriginAllowed(
  allowedDomain: string | null | undefined,
  origin: string | null | undefined,
  pageUrl: string | null | undefined,
): boolean {
  const domain = normalizeAllowedDomain(allowedDomain);
  if (domain === '') return true;
  if (domain === null) return false;
  const host =
    origin !== undefined && origin !== null && origin !== ''
      ? hostOf(origin, HEADER_MAX_CHARS.origin)
      : hostOf(pageUrl, HEADER_MAX_CHARS.pageUrl);
  return host !== null && hostMatchesDomain(host, domain);
}

/**
 * The page a conversation is said to be on, as the inbox may show (and link) it: an http(s) URL
 * (X-Page-Url, else the Origin) and, for a domain-locked bot, one on that domain; else null (an
 * unusable X-Page-Url is not replaced by the Origin: the widget sent something else). The
 * header is the caller's word: a `javascript:` URL or another site must never become a link in
 * the owner's inbox. The message itself is answered either way.
 */
export function storablePageUrl(
  allowedDomain: string | null | undefined,
  origin: string | null | undefined,
  pageUrl: string | null | undefined,
): string | null {
  const domain = normalizeAllowedDomain(allowedDomain);
  for (const [candidate, maxChars] of [
    [pageUrl, HEADER_MAX_CHARS.pageUrl],
    [origin, HEADER_MAX_CHARS.origin],
  ] as const) {
    if (!candidate) continue;
    const host = hostOf(candidate, maxChars);
    if (host === null) return null;
    if (domain === null || (domain !== '' && !hostMatchesDomain(host, domain))) return null;
    // As a browser would read it (spaces and controls encoded), without any credentials in it.
    const url = new URL(candidate);
    url.username = '';
    url.password = '';
    return url.href;
  }
  return null;
}
