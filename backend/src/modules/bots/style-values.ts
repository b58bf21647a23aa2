import { domainToASCII } from 'node:url';
import { GRADIENT_DIRECTIONS, RADIUS_PERCENT_MAX, RADIUS_PX_MAX } from '../../common/constants.js';

/**
 * Pure parsers for the values of a bot's styling (brief sections 3 and 5). The widget reads
 * these strings on customers' sites, so only the exact shapes below are ever stored.
 */

export type GradientDirection = (typeof GRADIENT_DIRECTIONS)[number];

export interface Gradient {
  direction: GradientDirection;
  from: string;
  to: string;
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const GRADIENT = /^linear-gradient\(\s*([^,()]+?)\s*,\s*([^,()\s]+)\s*,\s*([^,()\s]+)\s*\)$/i;

/**
 * `linear-gradient(<direction>, <#hex3|#hex6>, <#hex3|#hex6>)` with one of the five directions,
 * any spacing around the commas. Returns null for anything else (named colours, rgb(), more stops,
 * url(), extra text), so nothing but a gradient of two hex colours reaches the widget.
 */
export function parseGradient(value: string): Gradient | null {
  if (typeof value !== 'string' || value.length > 120) return null;
  const match = GRADIENT.exec(value.trim());
  if (!match) return null;
  const direction = match[1].replace(/\s+/g, ' ').toLowerCase();
  const from = match[2];
  const to = match[3];
  if (!(GRADIENT_DIRECTIONS as readonly string[]).includes(direction)) return null;
  if (!HEX.test(from) || !HEX.test(to)) return null;
  return { direction: direction as GradientDirection, from: from.toLowerCase(), to: to.toLowerCase() };
}

/** The one spelling a gradient is stored in: `linear-gradient(to right, #aabbcc, #fff)`. */
export function formatGradient({ direction, from, to }: Gradient): string {
  return `linear-gradient(${direction}, ${from}, ${to})`;
}

/** Normalises a valid gradient string, or returns null. */
export function normaliseGradient(value: string): string | null {
  const parsed = parseGradient(value);
  return parsed ? formatGradient(parsed) : null;
}

const RADIUS = /^(\d{1,3})(?:\.(\d{1,2}))?(px|%)$/;

/** `0`, `12px`, `50%`, `10.5px`: px up to 999, % up to 100. Returns the normalised value or null. */
export function normaliseRadius(value: string): string | null {
  if (typeof value !== 'string') return null;
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

/**
 * The allowed domain: a bare host name (`example.com`, `shop.example.co.uk`, `localhost`),
 * lowercased, IDN converted to its ASCII form, a trailing dot dropped. No scheme, path, port,
 * query, credentials, wildcard or IP literal. Empty means "any site". Returns null when invalid.
 */
export function normaliseAllowedDomain(value: string): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim().replace(/\.$/, '');
  if (trimmed === '') return '';
  if (/[/:?#@\\\s*[\]%]/.test(trimmed)) return null;
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (!labels.every((label) => LABEL.test(label))) return null;
  // An all-numeric last label is an IPv4 address or not a host name at all.
  if (/^\d+$/.test(labels[labels.length - 1])) return null;
  return ascii;
}
