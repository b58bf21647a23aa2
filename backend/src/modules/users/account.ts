import type { UserEntity } from './user.entity.js';

/**
 * An account as the users module hands it to other modules: a plain object, never the entity,
 * and never the password hash (only the credential check reaches that: UsersService.credentialsFor).
 */
export type Account = Readonly<Omit<UserEntity, 'passwordHash'>>;

/** What the login check needs: the account and its password hash (empty once deleted). */
export interface Credentials {
  account: Account;
  passwordHash: string;
}

export function toAccount(user: UserEntity): Account {
  return {
    id: user.id,
    email: user.email,
    emailVerifiedAt: user.emailVerifiedAt,
    stripeCustomerId: user.stripeCustomerId,
    stripeSubscriptionId: user.stripeSubscriptionId,
    subscriptionItemId: user.subscriptionItemId,
    hasPaid: user.hasPaid,
    creditsCents: user.creditsCents,
    spendAlertDollars: user.spendAlertDollars,
    conversationRetentionDays: user.conversationRetentionDays,
    agentName: user.agentName,
    timeZone: user.timeZone,
    monthlyReport: user.monthlyReport,
    isSystem: user.isSystem,
    createdAt: user.createdAt,
    lastLoginAt: user.lastLoginAt,
    deletedAt: user.deletedAt,
  };
}
