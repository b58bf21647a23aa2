import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../api/types';
import { asksToCheckEmail, isValidEmail, PASSWORD_PATTERN, routeAfterLogin } from './authRules';

function user(overrides: Partial<CurrentUser>): CurrentUser {
  return {
    id: 1,
    email: 'o@example.com',
    hasPaid: false,
    stripeCustomerId: null,
    subscriptionItemId: null,
    ...overrides,
  };
}

describe('routeAfterLogin', () => {
  it.each([
    [
      'hasPaid explicitly false, even with a full subscription',
      { hasPaid: false, stripeCustomerId: 'cus', subscriptionItemId: 'si' },
      '/billing-issue',
    ],
    [
      'customer and subscription item',
      { hasPaid: true, stripeCustomerId: 'cus', subscriptionItemId: 'si' },
      '/dashboard',
    ],
    [
      'customer and subscription item, hasPaid unknown (null)',
      { hasPaid: null, stripeCustomerId: 'cus', subscriptionItemId: 'si' },
      '/dashboard',
    ],
    ['customer only', { hasPaid: null, stripeCustomerId: 'cus' }, '/setup-success'],
    ['nothing yet', { hasPaid: null }, '/complete-setup'],
  ])('%s -> %s', (_, overrides, expected) => {
    expect(routeAfterLogin(user(overrides))).toBe(expected);
  });
});

describe('password pattern', () => {
  it.each(['Sunny!Day7', 'Abcdefg!', 'aB#45678', 'P@ssw0rd^&*'])('accepts %s', (password) => {
    expect(PASSWORD_PATTERN.test(password)).toBe(true);
  });
  it.each([
    ['7 characters', 'Abcde!1'],
    ['no uppercase', 'abcdefg!'],
    ['no lowercase', 'ABCDEFG!'],
    ['no special', 'Abcdefg1'],
    ['a space', 'Abc def!1'],
    ['a special outside the list', 'Abcdefg?1'],
    ['a non-ASCII letter', 'Äbcdefg!1'],
  ])('refuses a password with %s', (_, password) => {
    expect(PASSWORD_PATTERN.test(password)).toBe(false);
  });
});

describe('small rules', () => {
  it('sees "check your email" in any letter case', () => {
    expect(asksToCheckEmail('Account created. Please CHECK YOUR EMAIL to verify.')).toBe(true);
    expect(asksToCheckEmail('Welcome!')).toBe(false);
  });
  it('checks e-mail format', () => {
    expect(isValidEmail(' owner@example.com ')).toBe(true);
    expect(isValidEmail('owner@example')).toBe(false);
    expect(isValidEmail('owner example.com')).toBe(false);
    expect(isValidEmail('')).toBe(false);
  });
});
