import {
  ANIMATIONS,
  BOT_TEXT_LIMITS,
  DOCUMENT_MAX_BYTES,
  formatCents,
  ICON_MAX_BYTES,
  MAX_TOKENS_RANGE,
  MODEL_CATALOGUE,
  MODEL_TIERS,
  normaliseAllowedDomain,
  normaliseRadius,
  TEMPERATURE_RANGE,
  WIDGET_POSITIONS,
  type Animation,
  type ModelTier,
  type WidgetPosition,
} from '@botsmith/contract';

/** The four model tiers (docs/product.md#model-tiers-and-prices), with the names owners know them by. */
export const MODEL_OPTIONS: Array<{ value: ModelTier; label: string; price: string }> = MODEL_TIERS.map((tier) => ({
  value: tier,
  label: MODEL_CATALOGUE[tier].label,
  price: `${formatCents(MODEL_CATALOGUE[tier].priceCents)} a message`,
}));

export function modelLabel(model: string): string {
  return MODEL_OPTIONS.find((option) => option.value === model)?.label ?? model;
}

const ANIMATION_LABELS: Record<Animation, string> = {
  none: 'None',
  blowup: 'Expand',
  glow: 'Glow',
  slide: 'Slide',
  rotate: 'Rotate',
  shake: 'Shake',
  drop: 'Drop',
  roll: 'Roll',
};

export const ANIMATION_OPTIONS: Array<{ value: Animation; label: string }> = ANIMATIONS.map((value) => ({
  value,
  label: ANIMATION_LABELS[value],
}));

const POSITION_LABELS: Record<WidgetPosition, string> = { left: 'Left', right: 'Right' };

export const POSITION_OPTIONS: Array<{ value: WidgetPosition; label: string }> = WIDGET_POSITIONS.map((value) => ({
  value,
  label: POSITION_LABELS[value],
}));

/** Field limits (docs/product.md#field-rules), as the server enforces them. */
export const BOT_LIMITS = {
  nameMax: BOT_TEXT_LIMITS.name,
  greetingMax: BOT_TEXT_LIMITS.customGreeting,
  promptMax: BOT_TEXT_LIMITS.prompt,
  disclaimerMax: BOT_TEXT_LIMITS.bannerDisclaimer,
  placeholderMax: BOT_TEXT_LIMITS.placeholderText,
  maxTokens: MAX_TOKENS_RANGE,
  temperature: { ...TEMPERATURE_RANGE, step: 0.1 },
  iconMaxBytes: ICON_MAX_BYTES,
  documentMaxBytes: DOCUMENT_MAX_BYTES,
} as const;

/** `0`, `12px` or `50%` (px up to 999, % up to 100), as the server accepts. */
export function isRadius(value: string): boolean {
  return normaliseRadius(value) !== null;
}

/** A bare host name such as example.com (no protocol, path or port), or empty, as the server accepts. */
export function isBareDomain(value: string): boolean {
  return normaliseAllowedDomain(value) !== null;
}
