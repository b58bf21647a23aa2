/**
 * WCAG 2.1 contrast of a bot's colours (docs/product.md#colours): the one definition the
 * dashboard's Styling tab checks every text/background pair of the widget with, and the fixes it
 * offers. Colours are the stored gradients; a background is checked at both of its stops (the
 * text crosses the whole gradient), text and icons at the first hex value, as the widget paints
 * them (widget-theme.ts).
 */
import { DEFAULT_COLOURS, type BotAppearance, type ColourField } from './bots.js';
import { parseGradient } from './style-values.js';
import { contrastText, extractHex } from './widget-theme.js';

/** WCAG AA: 4.5:1 for normal text (1.4.3), 3:1 for icons and other graphics (1.4.11). */
export const WCAG_AA_TEXT = 4.5;
export const WCAG_AA_GRAPHIC = 3;

function channels(hex: string): [number, number, number] {
  let h = hex.replace('#', '');
  if (h.length === 3) h = h.replace(/./g, '$&$&');
  const n = parseInt(h, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex(rgb: readonly number[]): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance of a 3- or 6-digit hex colour, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The stops of a stored colour: two for a gradient (equal when solid), else its first hex value. */
export function colourStops(value: unknown, fallback: string): string[] {
  const gradient = parseGradient(value);
  return gradient ? [gradient.from, gradient.to] : [extractHex(value, fallback)];
}

/** A text or icon and the background it is painted on in the widget. */
export interface ContrastPair {
  id: 'banner' | 'launcher' | 'send' | 'botMessage' | 'visitorMessage' | 'placeholder';
  /** What the owner sees it as, e.g. "Banner title". */
  label: string;
  /** The colour field of the text or icon; null where the widget chooses it (black or white). */
  text: ColourField | null;
  background: ColourField;
  /** The ratio it needs: text 4.5, icons 3. */
  minimum: number;
}

/** Every text/background pair of the widget (widget/src/styles/*.css). */
export const CONTRAST_PAIRS: readonly ContrastPair[] = [
  { id: 'banner', label: 'Banner title', text: 'bannerTextColor', background: 'bannerColor', minimum: WCAG_AA_TEXT },
  {
    id: 'launcher',
    label: 'Launcher icon',
    text: 'bubbleTextColor',
    background: 'bubbleColor',
    minimum: WCAG_AA_GRAPHIC,
  },
  { id: 'send', label: 'Send arrow', text: 'sendArrowColor', background: 'sendButtonColor', minimum: WCAG_AA_GRAPHIC },
  {
    id: 'botMessage',
    label: 'Bot messages',
    text: 'assistantBubbleTextColor',
    background: 'assistantBubbleColor',
    minimum: WCAG_AA_TEXT,
  },
  {
    id: 'visitorMessage',
    label: 'Visitor messages',
    text: null,
    background: 'widgetBubbleColor',
    minimum: WCAG_AA_TEXT,
  },
  {
    id: 'placeholder',
    label: 'Placeholder text',
    text: 'placeholderTextColor',
    background: 'widgetBackgroundColor',
    minimum: WCAG_AA_TEXT,
  },
];

export interface ContrastResult {
  pair: ContrastPair;
  /** The text or icon colour as the widget paints it. */
  text: string;
  /** The lowest ratio over the background's stops, rounded down to one decimal as shown. */
  ratio: number;
  passes: boolean;
}

function lowestRatio(text: string, stops: string[]): number {
  return Math.min(...stops.map((stop) => contrastRatio(text, stop)));
}

/** Truncated, not rounded: 4.49 shows as 4.4, never as a passing 4.5. */
const shown = (ratio: number) => Math.floor(ratio * 10) / 10;

/** The contrast of every pair of `bot`'s colours (unreadable values as the widget paints them). */
export function checkContrast(bot: Partial<Pick<BotAppearance, ColourField>>): ContrastResult[] {
  return CONTRAST_PAIRS.map((pair) => {
    const stops = colourStops(bot[pair.background], DEFAULT_COLOURS[pair.background]);
    // The widget picks black or white for the visitor's message from its first stop (windowVars).
    const text = pair.text ? extractHex(bot[pair.text], DEFAULT_COLOURS[pair.text]) : contrastText(stops[0]);
    const ratio = lowestRatio(text, stops);
    return { pair, text, ratio: shown(ratio), passes: ratio >= pair.minimum };
  });
}

/** Black or white, whichever contrasts more with every stop of `stops`. */
export function readableTextOn(stops: string[]): '#000000' | '#ffffff' {
  return lowestRatio('#000000', stops) >= lowestRatio('#ffffff', stops) ? '#000000' : '#ffffff';
}

/**
 * `background` moved towards black (under light text) or white (under dark text) just enough for
 * `text` to reach `minimum`, its hue kept; null when even black or white would not.
 */
export function adjustBackground(background: string, text: string, minimum: number): string | null {
  if (contrastRatio(text, background) >= minimum) return background.toLowerCase();
  const towards = relativeLuminance(text) > relativeLuminance(background) ? 0 : 255;
  const from = channels(background);
  const mix = (t: number) => toHex(from.map((c) => c + (towards - c) * t));
  if (contrastRatio(text, mix(1)) < minimum) return null;
  let low = 0;
  let high = 1;
  for (let i = 0; i < 20; i += 1) {
    const mid = (low + high) / 2;
    if (contrastRatio(text, mix(mid)) >= minimum) high = mid;
    else low = mid;
  }
  // Rounding to whole channels may land just below: step on until it passes.
  let t = high;
  while (contrastRatio(text, mix(t)) < minimum && t < 1) t = Math.min(1, t + 0.005);
  return mix(t);
}
