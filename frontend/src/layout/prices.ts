import {
  BILLING_PERIOD_START_DAY,
  DEFAULT_MODEL_TIER,
  formatCents,
  formatWholeDollars,
  FREE_CREDITS_CENTS,
  MODEL_CATALOGUE,
  MODEL_TIERS,
} from '@botsmith/contract';

/**
 * The prices the public pages quote (docs/product.md#model-tiers-and-prices, #free-credits),
 * written from the contract's catalogue, which the server charges.
 */

/** `$5`: the free credits of a new account. */
export const FREE_CREDITS = formatWholeDollars(FREE_CREDITS_CENTS);

/** `3¢`: the price of a message with the default (cheapest) tier. */
export const STARTING_PRICE = formatCents(MODEL_CATALOGUE[DEFAULT_MODEL_TIER].priceCents);

/** The label of the default tier, the one STARTING_PRICE is for. */
export const STARTING_TIER_LABEL = MODEL_CATALOGUE[DEFAULT_MODEL_TIER].label;

/** Each price with its tiers, cheapest first: `4¢ for GPT-4 Turbo and GPT-4o Mini`. */
const PRICE_GROUPS = [...new Set(MODEL_TIERS.map((tier) => MODEL_CATALOGUE[tier].priceCents))]
  .sort((a, b) => a - b)
  .map((cents) => {
    const labels = MODEL_TIERS.filter((tier) => MODEL_CATALOGUE[tier].priceCents === cents).map(
      (tier) => MODEL_CATALOGUE[tier].label,
    );
    return `${formatCents(cents)} for ${labels.join(' and ')}`;
  });

/** `3¢ for GPT-3.5 Turbo, 4¢ for GPT-4 Turbo and GPT-4o Mini, and 5¢ for GPT-4 Omni`. */
export const PRICE_LIST = `${PRICE_GROUPS.slice(0, -1).join(', ')}, and ${PRICE_GROUPS[PRICE_GROUPS.length - 1]}`;

/** The prices above the starting one: `4¢ for GPT-4 Turbo and GPT-4o Mini, 5¢ for GPT-4 Omni`. */
export const HIGHER_PRICES = PRICE_GROUPS.slice(1).join(', ');

const PRICES = [...new Set(MODEL_TIERS.map((tier) => MODEL_CATALOGUE[tier].priceCents))].sort((a, b) => a - b);

/** `1¢`: how much more each larger model costs than the one below it. */
export const PRICE_STEP = formatCents(PRICES[1] - PRICES[0]);

/**
 * `165+`: about how many messages the free credits pay for at the cheapest price, rounded down
 * to a multiple of five (the marketing figure, docs/product.md#free-credits).
 */
export const FREE_MESSAGES = `${Math.floor(FREE_CREDITS_CENTS / PRICES[0] / 5) * 5}+`;

/** `3rd`: the day of the month the billing period starts and usage is billed (UTC). */
export const BILLING_DAY = ordinal(BILLING_PERIOD_START_DAY);

function ordinal(day: number): string {
  const suffix =
    day % 10 === 1 && day !== 11
      ? 'st'
      : day % 10 === 2 && day !== 12
        ? 'nd'
        : day % 10 === 3 && day !== 13
          ? 'rd'
          : 'th';
  return `${day}${suffix}`;
}
