/**
 * Model tiers and prices (docs/product.md#model-tiers-and-prices). Money is integer cents. The
 * server charges these prices; the dashboard and the public pages quote them.
 */

/** The four model tiers: what the owner picks and what each answer costs. */
export const MODEL_TIERS = ['gpt-3.5-turbo', 'gpt-4-turbo', 'gpt-4o', 'gpt-4o-mini'] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];

export interface ModelTierInfo {
  tier: ModelTier;
  /** The name owners know the tier by. */
  label: string;
  /** What one answered message costs. */
  priceCents: number;
}

export const MODEL_CATALOGUE: Record<ModelTier, ModelTierInfo> = {
  'gpt-3.5-turbo': { tier: 'gpt-3.5-turbo', label: 'GPT-3.5 Turbo', priceCents: 3 },
  'gpt-4-turbo': { tier: 'gpt-4-turbo', label: 'GPT-4 Turbo', priceCents: 4 },
  'gpt-4o': { tier: 'gpt-4o', label: 'GPT-4 Omni', priceCents: 5 },
  'gpt-4o-mini': { tier: 'gpt-4o-mini', label: 'GPT-4o Mini', priceCents: 4 },
};

export const DEFAULT_MODEL_TIER: ModelTier = 'gpt-3.5-turbo';

/** $5 of free credits for every new account, spent before anything is billed. */
export const FREE_CREDITS_CENTS = 500;

/** Monthly usage runs from the 3rd of a month, 00:00 UTC, to the next 3rd. */
export const BILLING_PERIOD_START_DAY = 3;

/** A price under a dollar as the product writes it: `3¢`. */
export function formatCents(cents: number): string {
  return `${cents}¢`;
}

/** Whole dollars as the product writes them: `$5`. */
export function formatWholeDollars(cents: number): string {
  return `$${Math.round(cents / 100)}`;
}
