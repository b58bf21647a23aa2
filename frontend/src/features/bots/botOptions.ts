import type { BotAnimation, BotModel, WidgetPosition } from '../../api/types';

/** The brief's four models (section 5), with the names owners know them by. */
export const MODEL_OPTIONS: Array<{ value: BotModel; label: string; price: string }> = [
  { value: 'gpt-3.5-turbo', label: 'GPT-3.5 Turbo', price: '3¢ a message' },
  { value: 'gpt-4-turbo', label: 'GPT-4 Turbo', price: '4¢ a message' },
  { value: 'gpt-4o', label: 'GPT-4 Omni', price: '5¢ a message' },
  { value: 'gpt-4o-mini', label: 'GPT-4o Mini', price: '4¢ a message' },
];

export function modelLabel(model: string): string {
  return MODEL_OPTIONS.find((option) => option.value === model)?.label ?? model;
}

export const ANIMATION_OPTIONS: Array<{ value: BotAnimation; label: string }> = [
  { value: 'none', label: 'None' },
  { value: 'blowup', label: 'Expand' },
  { value: 'glow', label: 'Glow' },
  { value: 'slide', label: 'Slide' },
  { value: 'rotate', label: 'Rotate' },
  { value: 'shake', label: 'Shake' },
  { value: 'drop', label: 'Drop' },
  { value: 'roll', label: 'Roll' },
];

export const POSITION_OPTIONS: Array<{ value: WidgetPosition; label: string }> = [
  { value: 'left', label: 'Left' },
  { value: 'right', label: 'Right' },
];

/** Limits of section 5 and 9, as the server enforces them. */
export const BOT_LIMITS = {
  nameMax: 100,
  greetingMax: 1000,
  promptMax: 20_000,
  disclaimerMax: 300,
  placeholderMax: 120,
  maxTokens: { min: 1, max: 2000 },
  temperature: { min: 0, max: 2, step: 0.1 },
  /** "under 500KB (512000 bytes)" */
  iconMaxBytes: 512_000,
  documentMaxBytes: 10 * 1024 * 1024,
} as const;

/** `0`, `12px` or `50%` (px up to 999, % up to 100), as the server accepts. */
export function isRadius(value: string): boolean {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === '0') return true;
  const match = /^(\d{1,3}(?:\.\d{1,2})?)(px|%)$/.exec(trimmed);
  if (!match) return false;
  return Number(match[1]) <= (match[2] === 'px' ? 999 : 100);
}

/** A bare host name such as example.com (no protocol, path or port), or empty. */
export function isBareDomain(value: string): boolean {
  const trimmed = value.trim().replace(/\.$/, '');
  if (trimmed === '') return true;
  if (/[/:?#@\\\s*]/.test(trimmed)) return false;
  return trimmed
    .toLowerCase()
    .split('.')
    .every((label) => /^(?!-)[\p{L}\p{N}-]{1,63}(?<!-)$/u.test(label));
}
