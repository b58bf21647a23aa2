/**
 * The cards the built-in test-mode payment page accepts: Stripe's well-known test numbers, with
 * the behaviour Stripe gives them (https://docs.stripe.com/testing#cards).
 */
export interface TestCard {
  number: string;
  brand: 'visa';
  /** 4242…: attaches and every charge succeeds. 0341: attaches, but charges fail. */
  chargesSucceed: boolean;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', brand: 'visa', chargesSucceed: true },
  { number: '4000000000000341', brand: 'visa', chargesSucceed: false },
];

export interface CardForm {
  cardNumber?: string;
  expiry?: string;
  cvc?: string;
  name?: string;
}

export interface AcceptedCard {
  card: TestCard;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type CardCheck = { ok: true; value: AcceptedCard } | { ok: false; field: keyof CardForm; message: string };

/** Checks the form the way a card page would, and only lets the test cards through. */
export function checkTestCard(form: CardForm, now = new Date()): CardCheck {
  const number = (form.cardNumber ?? '').replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number)) {
    return { ok: false, field: 'cardNumber', message: 'Enter the card number.' };
  }
  const card = TEST_CARDS.find((c) => c.number === number);
  if (!card) {
    return {
      ok: false,
      field: 'cardNumber',
      message:
        'This is the test-mode payment page: it accepts only the test cards 4242 4242 4242 4242 (payments succeed) ' +
        'and 4000 0000 0000 0341 (payments fail). Real cards are never accepted or charged here.',
    };
  }
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.expiry ?? '');
  if (!expiry) return { ok: false, field: 'expiry', message: 'Enter the expiry date as MM / YY.' };
  const expMonth = Number(expiry[1]);
  const rawYear = Number(expiry[2]);
  const expYear = rawYear < 100 ? 2000 + rawYear : rawYear;
  if (expMonth < 1 || expMonth > 12)
    return { ok: false, field: 'expiry', message: 'The expiry month must be 01 to 12.' };
  const endOfExpiryMonth = Date.UTC(expYear, expMonth, 1);
  if (endOfExpiryMonth <= now.getTime()) return { ok: false, field: 'expiry', message: 'This card has expired.' };
  if (!/^\d{3,4}$/.test((form.cvc ?? '').trim())) {
    return { ok: false, field: 'cvc', message: 'Enter the 3 or 4 digit security code (CVC).' };
  }
  return { ok: true, value: { card, last4: number.slice(-4), expMonth, expYear } };
}
