import { toAccount } from './account.js';
import type { UserEntity } from './user.entity.js';

describe('toAccount', () => {
  it('hands out every column except the password hash, as a plain object', () => {
    const user = {
      id: 7,
      email: 'owner@example.com',
      passwordHash: '$argon2id$secret',
      emailVerifiedAt: null,
      stripeCustomerId: 'cus_1',
      stripeSubscriptionId: null,
      subscriptionItemId: null,
      hasPaid: null,
      creditsCents: 500,
      spendAlertDollars: 20,
      conversationRetentionDays: 365,
      agentName: null,
      timeZone: 'Europe/Paris',
      monthlyReport: true,
      isSystem: false,
      createdAt: new Date(0),
      lastLoginAt: null,
      deletedAt: null,
    } satisfies UserEntity;
    const account = toAccount(user);
    const { passwordHash, ...rest } = user;
    expect(passwordHash).toBe('$argon2id$secret');
    expect(account).toEqual(rest);
    expect(Object.keys(account)).not.toContain('passwordHash');
    expect(JSON.stringify(account)).not.toContain('argon2');
  });
});
