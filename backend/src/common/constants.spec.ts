import { describe, expect, it } from '@jest/globals';
import { FREE_CREDITS_CENTS, MODEL_TIERS, priceOf, type ModelTier } from './constants.js';

describe('priceOf: what one answered message costs', () => {
  it('charges each tier its price in cents', () => {
    expect(Object.fromEntries(MODEL_TIERS.map((tier) => [tier, priceOf(tier)]))).toEqual({
      'gpt-3.5-turbo': 3,
      'gpt-4-turbo': 4,
      'gpt-4o': 5,
      'gpt-4o-mini': 4,
    });
  });

  it('charges an unknown tier (a row written before a tier was retired) the default tier’s price', () => {
    expect(priceOf('gpt-2' as ModelTier)).toBe(3);
  });

  it('gives every new account $5 of free credits', () => {
    expect(FREE_CREDITS_CENTS).toBe(500);
  });
});
