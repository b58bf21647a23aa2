import type { Citation } from '../lib/types';

/** At most this many sources are shown under one answer. */
const MAX_SHOWN = 5;

/**
 * The citations of an answer as the widget keeps them: a name (string) and a page (positive
 * integer) or an http(s) URL; anything else the server, a proxy or session storage hands over is
 * dropped, so a `javascript:` or `data:` address can never become a link.
 */
export function readCitations(value: unknown): Citation[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: Citation[] = [];
  for (const c of value as Partial<Record<keyof Citation, unknown>>[]) {
    if (out.length == MAX_SHOWN) break;
    if (!c || typeof c != 'object' || typeof c.name != 'string' || !c.name.trim()) continue;
    const cite: Citation = { name: c.name.trim().slice(0, 200) };
    if (typeof c.page == 'number' && c.page >= 1 && Number.isInteger(c.page)) cite.page = c.page;
    if (typeof c.url == 'string' && /^https?:\/\/[^\s]+$/i.test(c.url)) cite.url = c.url;
    out.push(cite);
  }
  return out.length ? out : undefined;
}

/** "Menu.pdf, p. 3", or the name alone. */
export function citationLabel(c: Citation): string {
  return c.page ? `${c.name}, p. ${c.page}` : c.name;
}
