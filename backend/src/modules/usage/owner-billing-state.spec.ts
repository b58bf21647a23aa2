import { describe, expect, it } from '@jest/globals';
import type { OwnerBillingRow } from './usage-ledger.repository.js';
import { ownerBillingState } from './usage-ledger.service.js';

const paying: OwnerBillingRow = {
  creditsCents: 0,
  hasPaid: true,
  subscriptionItemId: 'si_1',
  isSystem: false,
  deleted: false,
};

describe('ownerBillingState: may this owner’s bots answer (chat and the widget’s hidden flag)', () => {
  it('refuses a missing or deleted account with SETUP_REQUIRED, even the system account', () => {
    expect(ownerBillingState(null)).toEqual({ canServe: false, code: 'SETUP_REQUIRED' });
    expect(ownerBillingState({ ...paying, deleted: true })).toEqual({ canServe: false, code: 'SETUP_REQUIRED' });
    expect(ownerBillingState({ ...paying, isSystem: true, deleted: true }).canServe).toBe(false);
  });

  it('always serves the system account, whatever its billing columns say', () => {
    expect(ownerBillingState({ ...paying, isSystem: true, hasPaid: false, subscriptionItemId: null })).toEqual({
      canServe: true,
    });
  });

  it('refuses a failed payment even with credits left, until the card is fixed', () => {
    expect(ownerBillingState({ ...paying, hasPaid: false, creditsCents: 500 })).toEqual({
      canServe: false,
      code: 'PAYMENT_FAILED',
    });
  });

  it('serves a subscription without credits, and no subscription only while credits last', () => {
    expect(ownerBillingState(paying)).toEqual({ canServe: true });
    const free = { ...paying, hasPaid: null, subscriptionItemId: null };
    expect(ownerBillingState({ ...free, creditsCents: 1 })).toEqual({ canServe: true });
    expect(ownerBillingState({ ...free, creditsCents: 0 })).toEqual({ canServe: false, code: 'OUT_OF_CREDITS' });
  });
});
