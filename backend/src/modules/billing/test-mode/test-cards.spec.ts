import { describe, expect, it } from '@jest/globals';
import { checkTestCard } from './test-cards.js';

const now = new Date('2026-11-21T12:00:00Z');
const form = (cardNumber: string, expiry = '12 / 30', cvc = '123') => ({ cardNumber, expiry, cvc, name: 'A' });

describe('checkTestCard', () => {
  it('accepts 4242 4242 4242 4242 as a card whose charges succeed', () => {
    const result = checkTestCard(form('4242 4242 4242 4242'), now);
    expect(result).toEqual({
      ok: true,
      value: {
        card: { number: '4242424242424242', brand: 'visa', chargesSucceed: true },
        last4: '4242',
        expMonth: 12,
        expYear: 2030,
      },
    });
  });

  it('accepts 4000 0000 0000 0341 as a card that attaches but whose charges fail', () => {
    const result = checkTestCard(form('4000-0000-0000-0341', '01/2031'), now);
    expect(result.ok && result.value.card.chargesSucceed).toBe(false);
    expect(result.ok && result.value.expYear).toBe(2031);
  });

  it('rejects any other number, real-looking or not, naming the accepted test cards', () => {
    for (const number of ['5555 5555 5555 4444', '4111 1111 1111 1111', '4242 4242 4242 4241']) {
      const result = checkTestCard(form(number), now);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.field).toBe('cardNumber');
      expect(!result.ok && result.message).toContain('4242 4242 4242 4242');
    }
    expect(checkTestCard(form(''), now)).toMatchObject({
      ok: false,
      field: 'cardNumber',
      message: 'Enter the card number.',
    });
  });

  it('checks the expiry and the CVC', () => {
    expect(checkTestCard(form('4242424242424242', '10 / 26'), now)).toMatchObject({
      ok: false,
      field: 'expiry',
      message: 'This card has expired.',
    });
    expect(checkTestCard(form('4242424242424242', '11 / 26'), now).ok).toBe(true);
    expect(checkTestCard(form('4242424242424242', '13 / 30'), now)).toMatchObject({ ok: false, field: 'expiry' });
    expect(checkTestCard(form('4242424242424242', 'soon'), now)).toMatchObject({ ok: false, field: 'expiry' });
    expect(checkTestCard(form('4242424242424242', '12 / 30', '12'), now)).toMatchObject({ ok: false, field: 'cvc' });
  });
});
