/** The URLs of a sitemap (urlset) or the child sitemaps of a sitemap index (see sitemap.mjs). */
export interface Sitemap {
  kind: 'urlset' | 'index';
  locations: string[];
}

/** The sitemap protocol's own limit of URLs per file: locations past it are not read. */
export const SITEMAP_MAX_LOCATIONS: number;

/** A sitemap's bytes, gzip-compressed or not (unpacked to at most `maxBytes`); null if not a sitemap. */
export function readSitemap(bytes: Uint8Array, maxBytes: number): Sitemap | null;

/** The `<loc>` values of a sitemap's text, or null when it is neither a urlset nor an index. */
export function parseSitemap(xml: string, maxLocations?: number): Sitemap | null;

/** XML's five named entities and numeric character references decoded; others left as written. */
export function decodeEntities(text: string): string;
