/**
 * Colours as the brief stores them: `linear-gradient(<direction>, <hex>, <hex>)`, solid when both
 * stops are equal. The same rules as the server's (backend/src/modules/bots/style-values.ts).
 */

export const GRADIENT_DIRECTIONS = ['to right', 'to bottom', '135deg', 'to left', 'to top'] as const;
export type GradientDirection = (typeof GRADIENT_DIRECTIONS)[number];

export const DIRECTION_LABELS: Record<GradientDirection, string> = {
  'to right': 'Left to right',
  'to bottom': 'Top to bottom',
  '135deg': 'Diagonal',
  'to left': 'Right to left',
  'to top': 'Bottom to top',
};

export interface Gradient {
  direction: GradientDirection;
  from: string;
  to: string;
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const GRADIENT = /^linear-gradient\(\s*([^,()]+?)\s*,\s*([^,()\s]+)\s*,\s*([^,()\s]+)\s*\)$/i;

export function isHex(value: string): boolean {
  return HEX.test(value);
}

export function parseGradient(value: string | null | undefined): Gradient | null {
  const match = GRADIENT.exec((value ?? '').trim());
  if (!match) return null;
  const direction = match[1].replace(/\s+/g, ' ').toLowerCase();
  if (!(GRADIENT_DIRECTIONS as readonly string[]).includes(direction)) return null;
  if (!isHex(match[2]) || !isHex(match[3])) return null;
  return { direction: direction as GradientDirection, from: match[2].toLowerCase(), to: match[3].toLowerCase() };
}

export function formatGradient({ direction, from, to }: Gradient): string {
  return `linear-gradient(${direction}, ${from}, ${to})`;
}

/** A stored value as a gradient, falling back to a solid `fallback` for anything unreadable. */
export function gradientOrSolid(value: string | null | undefined, fallback: string): Gradient {
  return parseGradient(value) ?? { direction: 'to right', from: fallback, to: fallback };
}

/** `<input type="color">` only takes #rrggbb. */
export function toSixDigits(hex: string): string {
  if (/^#[0-9a-f]{3}$/i.test(hex)) {
    return `#${hex
      .slice(1)
      .split('')
      .map((c) => c + c)
      .join('')}`.toLowerCase();
  }
  return hex.toLowerCase();
}
