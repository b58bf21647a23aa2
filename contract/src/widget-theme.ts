import {
  DEFAULT_ACCENT_COLOUR,
  DEFAULT_BOT_MESSAGE_COLOUR,
  DEFAULT_BUBBLE_RADIUS,
  DEFAULT_DARK_COLOUR,
  DEFAULT_LIGHT_COLOUR,
  WIDGET_FALLBACK_VISITOR_MESSAGE_COLOUR,
  WIDGET_FALLBACK_WINDOW_RADIUS,
} from './bots.js';
import type { BotAppearance } from './bots.js';

/**
 * Turns a bot's stored styling into the CSS custom properties of its widget
 * (docs/product.md#embedded-widget): the API computes them for the public face (`theme`) and the
 * dashboard for its live preview, so the widget itself carries no colour code at all.
 *
 * Colours are stored as `linear-gradient(<direction>, <hex>, <hex>)`. Where a gradient can paint
 * (backgrounds) a well-formed gradient is used as is; where it cannot (text, icons, glows) the
 * first 3- or 6-digit hex value is taken. Anything else falls back to the widget's fallbacks
 * (docs/product.md#bot-defaults): a new bot's colours and bubble radius, except the visitor's
 * message (#DCF8C6) and the window's radius (12px). Values are only ever set through CSSOM
 * (`style.setProperty`), which a strict `style-src` CSP does not block, and only after matching
 * these patterns, so a stored value cannot smuggle other CSS in. The fallbacks are the contract's
 * single constants, not its DEFAULT_COLOURS object, so each bundle keeps only the values it paints.
 */

const HEX = /#(?:[0-9a-f]{6}|[0-9a-f]{3})\b/i;
/** A direction and two hex stops, as the dashboard stores colours. */
const GRADIENT =
  /^\s*linear-gradient\(\s*(?:to (?:right|left|top|bottom)|-?\d{1,3}deg)(?:\s*,\s*#(?:[0-9a-f]{6}|[0-9a-f]{3})){2}\s*\)\s*$/i;
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

/** Black or white, whichever reads better on `hex` (used where a bot has no text colour field). */
export function contrastText(hex: string): string {
  let h = hex.slice(1);
  if (h.length == 3) h = h.replace(/./g, '$&$&');
  const n = parseInt(h, 16);
  const lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return lum > 150 ? '#000000' : '#ffffff';
}

/** The launcher's CSS variables (widget/src/styles/launcher.css). */
export function launcherVars(bot: Partial<BotAppearance>): Record<string, string> {
  return {
    '--bubble': background(bot.bubbleColor, DEFAULT_ACCENT_COLOUR),
    '--bubble-c': extractHex(bot.bubbleColor, DEFAULT_ACCENT_COLOUR),
    '--bubble-fg': extractHex(bot.bubbleTextColor, DEFAULT_LIGHT_COLOUR),
    '--bubble-r': radius(bot.bubbleBorderRadius, DEFAULT_BUBBLE_RADIUS),
  };
}

/**
 * The chat window's CSS variables (widget/src/styles/window.css). The visitor's bubble has no
 * text colour field of its own: it gets black or white, whichever reads better on it.
 */
export function windowVars(bot: Partial<BotAppearance>): Record<string, string> {
  const send = bot.sendButtonColor || bot.sendButtonColor1;
  return {
    '--win-r': radius(bot.chatWindowBorderRadius, WIDGET_FALLBACK_WINDOW_RADIUS),
    '--banner': background(bot.bannerColor, DEFAULT_ACCENT_COLOUR),
    '--banner-fg': extractHex(bot.bannerTextColor, DEFAULT_LIGHT_COLOUR),
    '--ph': extractHex(bot.placeholderTextColor, DEFAULT_DARK_COLOUR),
    '--send': background(send, DEFAULT_ACCENT_COLOUR),
    '--send-c': extractHex(send, DEFAULT_ACCENT_COLOUR),
    '--arrow': extractHex(bot.sendArrowColor, DEFAULT_LIGHT_COLOUR),
    '--user': background(bot.widgetBubbleColor, WIDGET_FALLBACK_VISITOR_MESSAGE_COLOUR),
    '--user-fg': contrastText(extractHex(bot.widgetBubbleColor, WIDGET_FALLBACK_VISITOR_MESSAGE_COLOUR)),
    '--asst': background(bot.assistantBubbleColor, DEFAULT_BOT_MESSAGE_COLOUR),
    '--asst-fg': extractHex(bot.assistantBubbleTextColor, DEFAULT_DARK_COLOUR),
    '--bg': background(bot.widgetBackgroundColor, DEFAULT_LIGHT_COLOUR),
  };
}

/** Every CSS variable of the widget, launcher and window: the public face's `theme`. */
export type WidgetTheme = Record<`--${string}`, string>;

export function widgetTheme(bot: Partial<BotAppearance>): WidgetTheme {
  return { ...launcherVars(bot), ...windowVars(bot) };
}
