import type { PublicBot } from './types';

/**
 * Turns the bot's stored styling into CSS custom properties for the shadow root.
 *
 * Colours are stored as `linear-gradient(<direction>, <hex>, <hex>)`. Where a gradient can paint
 * (backgrounds) a well-formed gradient is used as is; where it cannot (text, icons, glows) the
 * brief's rule applies: take the first 3- or 6-digit hex value. Anything else falls back to the
 * brief's defaults (sections 5 and 9). Values are only ever set through CSSOM
 * (`style.setProperty`), which a strict `style-src` CSP does not block, and only after matching
 * these patterns, so a stored value cannot smuggle other CSS in.
 */

const HEX = /#(?:[0-9a-f]{6}|[0-9a-f]{3})\b/i;
const STOP = '#(?:[0-9a-f]{6}|[0-9a-f]{3})';
const GRADIENT = new RegExp(
  `^\\s*linear-gradient\\(\\s*(?:to (?:right|left|top|bottom)|-?\\d{1,3}deg)\\s*,\\s*${STOP}\\s*,\\s*${STOP}\\s*\\)\\s*$`,
  'i',
);
const RADIUS = /^\s*(\d{1,4}(?:\.\d+)?)(px|%|em|rem)?\s*$/i;

/** The first 3- or 6-digit hex colour in `value`, or `fallback`. */
export function extractHex(value: unknown, fallback: string): string {
  const m = typeof value == 'string' ? HEX.exec(value) : null;
  return m ? m[0] : fallback;
}

/** A paintable background: the gradient if well formed, else the solid colour found in it. */
export function background(value: unknown, fallback: string): string {
  return typeof value == 'string' && GRADIENT.test(value) ? value.trim() : extractHex(value, fallback);
}

/** A border radius such as `12px`, `50%` or a bare number of pixels, else `fallback`. */
export function radius(value: unknown, fallback: string): string {
  // exec() stringifies: a number of pixels matches, undefined or an object does not.
  const m = RADIUS.exec(value as string);
  return m ? m[1] + (m[2] ?? 'px').toLowerCase() : fallback;
}

/** Black or white, whichever reads better on `hex` (used where the brief gives no text colour). */
export function contrastText(hex: string): string {
  let h = hex.slice(1);
  if (h.length == 3) h = h.replace(/./g, '$&$&');
  const n = parseInt(h, 16);
  const lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return lum > 150 ? '#000000' : '#ffffff';
}

/** The launcher's animations besides 'none' (styles/launcher.css has one class each). */
export const ANIMATIONS = ['blowup', 'glow', 'slide', 'rotate', 'shake', 'drop', 'roll'];

/** The launcher's CSS variables (styles/launcher.css), computed by the loader. */
export function launcherVars(bot: Partial<PublicBot>): Record<string, string> {
  return {
    '--bubble': background(bot.bubbleColor, '#2ecc71'),
    '--bubble-c': extractHex(bot.bubbleColor, '#2ecc71'),
    '--bubble-fg': extractHex(bot.bubbleTextColor, '#ffffff'),
    '--bubble-r': radius(bot.bubbleBorderRadius, '50%'),
  };
}

/**
 * The chat window's CSS variables (styles/window.css), computed in the window chunk so the
 * loader stays small. The visitor's bubble has no text colour of its own in the brief: it gets
 * black or white, whichever reads better on it.
 */
export function windowVars(bot: Partial<PublicBot>): Record<string, string> {
  const send = bot.sendButtonColor || bot.sendButtonColor1;
  return {
    '--win-r': radius(bot.chatWindowBorderRadius, '12px'),
    '--banner': background(bot.bannerColor, '#2ecc71'),
    '--banner-fg': extractHex(bot.bannerTextColor, '#ffffff'),
    '--ph': extractHex(bot.placeholderTextColor, '#000000'),
    '--send': background(send, '#2ecc71'),
    '--send-c': extractHex(send, '#2ecc71'),
    '--arrow': extractHex(bot.sendArrowColor, '#ffffff'),
    '--user': background(bot.widgetBubbleColor, '#DCF8C6'),
    '--user-fg': contrastText(extractHex(bot.widgetBubbleColor, '#DCF8C6')),
    '--asst': background(bot.assistantBubbleColor, '#f1f0f0'),
    '--asst-fg': extractHex(bot.assistantBubbleTextColor, '#000000'),
    '--bg': background(bot.widgetBackgroundColor, '#fff'),
  };
}

/** The icon URL if it is an absolute http(s) URL or a path on the API origin; otherwise ''. */
export function iconUrl(value: unknown, apiOrigin: string): string {
  if (typeof value != 'string' || !value.trim()) return '';
  try {
    const u = new URL(value.trim(), apiOrigin);
    return /^https?:$/.test(u.protocol) ? u.href : '';
  } catch {
    return '';
  }
}
