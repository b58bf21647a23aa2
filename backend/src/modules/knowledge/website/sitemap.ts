/**
 * The URLs of a sitemap (urlset) or the child sitemaps of a sitemap index. Sitemaps are a flat,
 * fixed XML vocabulary, so reading the `<loc>` elements is all the parsing they need.
 */
export interface Sitemap {
  kind: 'urlset' | 'index';
  locations: string[];
}

const LOC = /<(?:[\w-]+:)?loc>\s*(?:<!\[CDATA\[\s*([\s\S]*?)\s*\]\]>|([^<]*?))\s*<\/(?:[\w-]+:)?loc>/gi;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function parseSitemap(xml: string): Sitemap | null {
  const isIndex = /<(?:[\w-]+:)?sitemapindex[\s>]/i.test(xml);
  if (!isIndex && !/<(?:[\w-]+:)?urlset[\s>]/i.test(xml)) return null;
  const locations: string[] = [];
  for (const match of xml.matchAll(LOC)) {
    const raw = match[1] ?? decodeEntities(match[2] ?? '');
    if (raw) locations.push(raw.trim());
  }
  return { kind: isIndex ? 'index' : 'urlset', locations };
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(parseInt(entity.slice(1), 10));
    return ENTITIES[entity.toLowerCase()] ?? whole;
  });
}
