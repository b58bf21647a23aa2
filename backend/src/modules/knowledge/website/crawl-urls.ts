/**
 * One page, one URL: the form under which the crawler remembers a page. The fragment goes (it
 * names a place in the same page), tracking parameters go (they name the same page), the rest
 * is kept as the site wrote it (a trailing slash or a query can be a different page).
 */
const TRACKING_PARAMETER = /^(utm_\w+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|_ga|_gl)$/i;

/** Extensions of files that are not HTML pages: not worth a request. */
const NOT_HTML_EXTENSION =
  /\.(pdf|jpe?g|png|gif|webp|avif|bmp|ico|svg|css|js|mjs|json|xml|rss|atom|zip|gz|tgz|bz2|xz|rar|7z|tar|mp3|wav|ogg|mp4|m4v|avi|mov|webm|woff2?|ttf|otf|eot|exe|dmg|msi|apk|iso|docx?|xlsx?|pptx?|odt|ods|csv|txt)$/i;

export function normaliseUrl(href: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  // Rewriting the query re-encodes it, so only a query that carries tracking parameters is touched.
  const tracking = [...url.searchParams.keys()].filter((name) => TRACKING_PARAMETER.test(name));
  for (const name of tracking) url.searchParams.delete(name);
  if (url.search === '?') url.search = '';
  return url.href;
}

export function looksLikeFile(url: string): boolean {
  return NOT_HTML_EXTENSION.test(new URL(url).pathname);
}

/** Same site: same host name and port; http and https of the same host count as one site. */
export function siteKey(url: string): string {
  const parsed = new URL(url);
  const port = parsed.port === '' || parsed.port === '80' || parsed.port === '443' ? '' : `:${parsed.port}`;
  return `${parsed.hostname}${port}`;
}
