/**
 * Parsers for the values of a bot's styling and its allowed domain (docs/product.md#colours,
 * #field-rules). The server stores only what these accept, the dashboard checks a field with the
 * same function before saving, and the widget paints only what they accept, since it reads
 * these strings on customers' sites.
 */
import {
  BOT_TEXT_LIMITS,
  GRADIENT_DIRECTIONS,
  GRADIENT_MAX_CHARS,
  RADIUS_PERCENT_MAX,
  RADIUS_PX_MAX,
  type GradientDirection,
} from './bots.js';

export interface Gradient {
  direction: GradientDirection;
  from: string;
  to: string;
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const GRADIENT_PREFIX = 'linear-gradient(';

/** A 3- or 6-digit hex colour such as `#2ecc71`. */
export function isHex(value: string): boolean {
  return HEX.test(value);
}

/**
 * `linear-gradient(<direction>, <#hex3|#hex6>, <#hex3|#hex6>)` with one of the five directions,
 * any spacing around the commas. Returns null for anything else (named colours, rgb(), more stops,
 * url(), extra text), so nothing but a gradient of two hex colours reaches the widget.
 * Parsed by slicing and splitting, not by one regex: a lazy group followed by optional spaces
 * backtracks polynomially on long runs of spaces. Over-long values are refused before any work.
 */
export function parseGradient(value: unknown): Gradient | null {
  if (typeof value !== 'string' || value.length > GRADIENT_MAX_CHARS) return null;
  const text = value.trim();
  if (!text.toLowerCase().startsWith(GRADIENT_PREFIX) || !text.endsWith(')')) return null;
  const parts = text.slice(GRADIENT_PREFIX.length, -1).split(',');
  if (parts.length !== 3 || parts.some((part) => part.includes('(') || part.includes(')'))) return null;
  const direction = parts[0].trim().split(/\s+/).join(' ').toLowerCase() as GradientDirection;
  const from = parts[1].trim();
  const to = parts[2].trim();
  if (!GRADIENT_DIRECTIONS.includes(direction) || !isHex(from) || !isHex(to)) return null;
  return { direction, from: from.toLowerCase(), to: to.toLowerCase() };
}

/** The one spelling a gradient is stored in: `linear-gradient(to right, #aabbcc, #fff)`. */
export function formatGradient({ direction, from, to }: Gradient): string {
  return `linear-gradient(${direction}, ${from}, ${to})`;
}

/** Normalises a valid gradient string, or returns null. */
export function normaliseGradient(value: unknown): string | null {
  const parsed = parseGradient(value);
  return parsed ? formatGradient(parsed) : null;
}

const RADIUS = /^(\d{1,3})(?:\.(\d{1,2}))?(px|%)$/;
/** `999.99px` with room for spaces around it; longer is refused before any work. */
const RADIUS_MAX_CHARS = 32;

/** `0`, `12px`, `50%`, `10.5px`: px up to 999, % up to 100. Returns the normalised value or null. */
export function normaliseRadius(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > RADIUS_MAX_CHARS) return null;
  const trimmed = value.trim().toLowerCase();
  if (trimmed === '0') return '0';
  const match = RADIUS.exec(trimmed);
  if (!match) return null;
  const amount = Number(`${match[1]}${match[2] ? `.${match[2]}` : ''}`);
  const max = match[3] === 'px' ? RADIUS_PX_MAX : RADIUS_PERCENT_MAX;
  if (amount > max) return null;
  return `${amount}${match[3]}`;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** What a host name may not contain (the URL standard's forbidden domain code points, and `*`). */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const FORBIDDEN_IN_HOST = /[\u0000-\u0020#%/:<>?@[\\\]^|\u007f*]/;

/**
 * A host name in its ASCII form (IDN to punycode, lowercased) as browsers put it in an Origin,
 * or null. Uses the URL parser both Node and browsers have.
 */
function toAsciiHost(value: string): string | null {
  if (FORBIDDEN_IN_HOST.test(value)) return null;
  try {
    return new URL(`http://${value}/`).hostname;
  } catch {
    return null;
  }
}

/**
 * The allowed domain: a bare host name (`example.com`, `shop.example.co.uk`, `localhost`),
 * lowercased, IDN converted to its ASCII form, a trailing dot dropped. No scheme, path, port,
 * query, credentials, wildcard or IP literal. Empty means "any site". Returns null when invalid.
 */
export function normaliseAllowedDomain(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2 * BOT_TEXT_LIMITS.allowedDomain) return null;
  const trimmed = value.trim().replace(/\.$/, '');
  if (trimmed === '') return '';
  const ascii = toAsciiHost(trimmed.toLowerCase());
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (!labels.every((label) => LABEL.test(label))) return null;
  // An all-numeric last label is an IPv4 address or not a host name at all.
  if (/^\d+$/.test(labels[labels.length - 1])) return null;
  return ascii;
}
