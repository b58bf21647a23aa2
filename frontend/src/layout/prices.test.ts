import { describe, expect, it } from 'vitest';
import {
  BILLING_DAY,
  FREE_CREDITS,
  FREE_MESSAGES,
  HIGHER_PRICES,
  PRICE_LIST,
  PRICE_STEP,
  STARTING_PRICE,
} from './prices';

describe('the prices the public pages quote', () => {
  it("are written from the contract's catalogue as the product copy states them", () => {
    expect(STARTING_PRICE).toBe('3¢');
    expect(PRICE_STEP).toBe('1¢');
    expect(FREE_CREDITS).toBe('$5');
    expect(FREE_MESSAGES).toBe('165+');
    expect(BILLING_DAY).toBe('3rd');
    expect(PRICE_LIST).toBe('3¢ for GPT-3.5 Turbo, 4¢ for GPT-4 Turbo and GPT-4o Mini, and 5¢ for GPT-4 Omni');
    expect(HIGHER_PRICES).toBe('4¢ for GPT-4 Turbo and GPT-4o Mini, 5¢ for GPT-4 Omni');
  });
});
