import { domainToASCII } from 'node:url';

/**
 * Which pages may talk to a bot: the owner's `allowedDomain` names a host, and that host and its
 * subdomains are allowed (`example.com` allows `example.com` and `shop.example.com`, never
 * `example.com.evil.net` or `evil-example.com`). Empty allows every site. Pure functions, so the
 * rule is property-tested on its own.
 */

/**
 * The owner's entry as a bare ASCII host. Owners paste all sorts of things ("https://Example.com/",
 * "*.example.com", "example.com:8080"); what remains is the host. '' means "any site"; null means
 * the entry names no usable host, which allows nothing (failing closed, never open).
 */
export function normalizeAllowedDomain(raw: string | null | undefined): string | null {
  let value = (raw ?? '').trim().toLowerCase();
  if (value === '') return '';
  if (value.includes('://')) {
    try {
      value = new URL(value).hostname;
    } catch {
      return null;
    }
  } else {
    value = value.split(/[/?#]/, 1)[0]!;
    value = value.replace(/:\d*$/, '');
  }
  value = value.replace(/^\*\./, '').replace(/^\.+/, '').replace(/\.+$/, '');
  if (value === '' || value.includes('*') || value.includes('@')) return null;
  const ascii = domainToASCII(value);
  return ascii === '' ? null : ascii;
}

/** The host of an `Origin` header or a page URL (http or https only), lowercased, or null. */
export function hostOf(value: string | null | undefined): string | null {
  if (!value || value === 'null') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.toLowerCase().replace(/\.+$/, '');
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
  const host = origin !== undefined && origin !== null && origin !== '' ? hostOf(origin) : hostOf(pageUrl);
  return host !== null && hostMatchesDomain(host, domain);
}
