/**
 * A bot's fields the API, the dashboard and the widget share: the appearance and its defaults
 * (docs/product.md#bot-defaults, #colours) and the bounds of what owners may enter
 * (docs/product.md#field-rules).
 */
import { LEAD_CAPTURE_DEFAULTS } from './leads.js';
import { DEFAULT_MODEL_TIER } from './pricing.js';
import type { BotResponse } from './api.js';

export const ANIMATIONS = ['none', 'blowup', 'glow', 'slide', 'rotate', 'shake', 'drop', 'roll'] as const;
export type Animation = (typeof ANIMATIONS)[number];

export const WIDGET_POSITIONS = ['left', 'right'] as const;
export type WidgetPosition = (typeof WIDGET_POSITIONS)[number];

export const GRADIENT_DIRECTIONS = ['to right', 'to bottom', '135deg', 'to left', 'to top'] as const;
export type GradientDirection = (typeof GRADIENT_DIRECTIONS)[number];

/** How a bot looks in the widget: the same fields in the owner's view and the public face. */
export interface BotAppearance {
  /** Address of the uploaded icon, or '' for the default launcher icon. */
  bubbleIcon: string;
  bubbleColor: string;
  bubbleTextColor: string;
  bubbleBorderRadius: string;
  chatWindowBorderRadius: string;
  bannerColor: string;
  bannerTextColor: string;
  bannerDisclaimer: string;
  placeholderText: string;
  placeholderTextColor: string;
  sendButtonColor: string;
  /** The same value as sendButtonColor, for widget code that reads this name (docs/product.md#colours). */
  sendButtonColor1: string;
  sendArrowColor: string;
  widgetBubbleColor: string;
  assistantBubbleColor: string;
  assistantBubbleTextColor: string;
  widgetBackgroundColor: string;
  animation: Animation;
  widgetPosition: WidgetPosition;
}

/** The colour fields of the appearance (each stored as a gradient, see solidGradient). */
export type ColourField = {
  [K in keyof BotAppearance]: K extends `${string}Color` ? (K extends 'sendButtonColor1' ? never : K) : never;
}[keyof BotAppearance];

// A new bot's palette and radii, one constant each: a bundle that needs one of them (the widget's
// launcher) keeps only that one, not the objects below.
/** Bubble, banner and send button. */
export const DEFAULT_ACCENT_COLOUR = '#2ecc71';
/** Text and icons on the accent colour, and the window's background. */
export const DEFAULT_LIGHT_COLOUR = '#ffffff';
/** The placeholder and the bot's messages' text. */
export const DEFAULT_DARK_COLOUR = '#000000';
export const DEFAULT_VISITOR_MESSAGE_COLOUR = '#ff9800';
export const DEFAULT_BOT_MESSAGE_COLOUR = '#f1f0f0';
export const DEFAULT_BUBBLE_RADIUS = '50%';
export const DEFAULT_WINDOW_RADIUS = '10px';

// What the widget paints where a stored value cannot be trusted (docs/product.md#bot-defaults,
// "widget colour fallbacks"). Two differ from a new bot's values: the visitor's message is the
// pale green of the first version and the window's corners are 12px.
/** The visitor's message where its stored colour is unusable. */
export const WIDGET_FALLBACK_VISITOR_MESSAGE_COLOUR = '#DCF8C6';
/** The chat window's corner radius where the stored one is unusable. */
export const WIDGET_FALLBACK_WINDOW_RADIUS = '12px';

/** The colour of each field on a new bot, as a hex value (docs/product.md#bot-defaults). */
export const DEFAULT_COLOURS: Record<ColourField, string> = {
  bubbleColor: DEFAULT_ACCENT_COLOUR,
  bubbleTextColor: DEFAULT_LIGHT_COLOUR,
  bannerColor: DEFAULT_ACCENT_COLOUR,
  bannerTextColor: DEFAULT_LIGHT_COLOUR,
  placeholderTextColor: DEFAULT_DARK_COLOUR,
  sendButtonColor: DEFAULT_ACCENT_COLOUR,
  sendArrowColor: DEFAULT_LIGHT_COLOUR,
  widgetBubbleColor: DEFAULT_VISITOR_MESSAGE_COLOUR,
  assistantBubbleColor: DEFAULT_BOT_MESSAGE_COLOUR,
  assistantBubbleTextColor: DEFAULT_DARK_COLOUR,
  widgetBackgroundColor: DEFAULT_LIGHT_COLOUR,
};

/** A colour as bots store it (docs/product.md#colours): a gradient, solid when both stops are equal. */
/*#__NO_SIDE_EFFECTS__*/
export function solidGradient(hex: string): string {
  return `linear-gradient(to right, ${hex}, ${hex})`;
}

/** Every default of a new bot (docs/product.md#bot-defaults). */
export const BOT_DEFAULTS = {
  prompt: '',
  customGreeting: 'Hi! How can I help you today?',
  model: DEFAULT_MODEL_TIER,
  allowedDomain: '',
  bubbleIcon: '',
  bubbleColor: solidGradient(DEFAULT_ACCENT_COLOUR),
  bubbleTextColor: solidGradient(DEFAULT_LIGHT_COLOUR),
  bubbleBorderRadius: DEFAULT_BUBBLE_RADIUS,
  chatWindowBorderRadius: DEFAULT_WINDOW_RADIUS,
  bannerColor: solidGradient(DEFAULT_ACCENT_COLOUR),
  bannerTextColor: solidGradient(DEFAULT_LIGHT_COLOUR),
  bannerDisclaimer: '',
  placeholderText: 'Type your message here...',
  placeholderTextColor: solidGradient(DEFAULT_DARK_COLOUR),
  sendButtonColor: solidGradient(DEFAULT_ACCENT_COLOUR),
  sendArrowColor: solidGradient(DEFAULT_LIGHT_COLOUR),
  widgetBubbleColor: solidGradient(DEFAULT_VISITOR_MESSAGE_COLOUR),
  assistantBubbleColor: solidGradient(DEFAULT_BOT_MESSAGE_COLOUR),
  assistantBubbleTextColor: solidGradient(DEFAULT_DARK_COLOUR),
  widgetBackgroundColor: solidGradient(DEFAULT_LIGHT_COLOUR),
  animation: 'none' as Animation,
  widgetPosition: 'right' as WidgetPosition,
  maxTokens: 300,
  temperature: 0.3,
  /** The server's configured default (DEFAULT_BOT_BUDGET_DOLLARS) replaces this when a bot is created. */
  usageLimitDollars: 10,
  /** docs/product.md#leads-and-handoff */
  leadCapture: LEAD_CAPTURE_DEFAULTS,
} as const;

/** The demo bot on the landing page: bot 1, which the server seeds on first start. */
export const DEMO_BOT_ID = 1;

/**
 * Questions a visitor can tap to start (docs/product.md#starter-questions): at most `count` per
 * bot, each at most `length` characters, shown under the greeting until the first message.
 */
export const STARTER_QUESTIONS_LIMITS = { count: 4, length: 80 } as const;

/**
 * The languages the widget speaks by itself (docs/product.md#widget-languages): its own texts,
 * never the owner's. 'auto' (the default) follows the visitor's browser (navigator.languages).
 */
export const WIDGET_LANGUAGES = ['en', 'es', 'fr', 'de', 'pt', 'it', 'nl', 'ja'] as const;
export type WidgetLanguage = (typeof WIDGET_LANGUAGES)[number];
export type WidgetLanguageChoice = 'auto' | WidgetLanguage;
export const WIDGET_LANGUAGE_CHOICES: readonly WidgetLanguageChoice[] = ['auto', ...WIDGET_LANGUAGES];
/** Each language by its own name, as the Details tab lists them. */
export const WIDGET_LANGUAGE_NAMES: Record<WidgetLanguage, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  pt: 'Português',
  it: 'Italiano',
  nl: 'Nederlands',
  ja: '日本語',
};

/** The longest text of each bot field the dashboard edits, sized to their columns. */
export const BOT_TEXT_LIMITS = {
  name: 100,
  customGreeting: 1000,
  prompt: 20_000,
  bannerDisclaimer: 300,
  placeholderText: 120,
  allowedDomain: 253,
  bubbleIcon: 500,
} as const;
export const CATEGORY_NAME_MAX = 100;

export const MAX_TOKENS_RANGE = { min: 1, max: 2000 } as const;
export const TEMPERATURE_RANGE = { min: 0, max: 2 } as const;
/** Whole dollars; 0 means no limit. The cap only keeps the value inside a 32-bit column. */
export const USAGE_LIMIT_DOLLARS_MAX = 1_000_000;

/** The launcher icon: "under 500KB (512000 bytes)". */
export const ICON_MAX_BYTES = 512_000;
/** A reference document or a knowledge source file. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

/** A gradient is at most this long (`linear-gradient(to bottom, #aabbcc, #ddeeff)` is 45 characters). */
export const GRADIENT_MAX_CHARS = 120;
/** Corner radii: `0`, or a number with px (0-999) or % (0-100). */
export const RADIUS_PX_MAX = 999;
export const RADIUS_PERCENT_MAX = 100;

/** POST /api/bots: a new bot with the default settings. */
export interface CreateBotRequest {
  botName: string;
}
/** PUT /api/bots/{id}: any subset of the fields an owner edits (docs/product.md#edit-bot-modal). */
export type UpdateBotRequest = Partial<Omit<BotResponse, 'id' | 'apiKey' | 'document' | 'sendButtonColor1'>>;
/** POST /api/categories. */
export interface CreateCategoryRequest {
  name: string;
}

/** GET /api/bots/{id}/identity: the bot's verified visitors at a glance (docs/product.md#verified-visitors). */
export interface BotIdentityStatus {
  /** An identity secret was made (it is never shown again). */
  secretSet: boolean;
  /** Identity proofs refused in the last 7 days (today, UTC, and the six days before). */
  refusedThisWeek: number;
}
