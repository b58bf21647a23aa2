import { parseGradient, type Gradient, type GradientDirection } from '@botsmith/contract';

/**
 * Colours as bots store them (docs/product.md#colours): `linear-gradient(<direction>, <hex>, <hex>)`, solid when both
 * stops are equal, parsed by the contract's parseGradient (the server's own rule).
 */
export {
  formatGradient,
  GRADIENT_DIRECTIONS,
  isHex,
  parseGradient,
  type Gradient,
  type GradientDirection,
} from '@botsmith/contract';

export const DIRECTION_LABELS: Record<GradientDirection, string> = {
  'to right': 'Left to right',
  'to bottom': 'Top to bottom',
  '135deg': 'Diagonal',
  'to left': 'Right to left',
  'to top': 'Bottom to top',
};

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
