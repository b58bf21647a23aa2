import crypto from 'node:crypto';
import { hashPassword } from '../../src/modules/auth/passwords.js';
import { UserEntity } from '../../src/modules/users/user.entity.js';
import type request from 'supertest';
import { startTestApp, type TestApp } from './test-app.js';

export const TEST_PASSWORD = 'Secret!pass1';

export interface UserOptions {
  email?: string;
  password?: string;
  verified?: boolean;
  /** 'paid' = customer, subscription item and hasPaid true: the dashboard is open. */
  billing?: 'none' | 'customer' | 'paid' | 'failed';
  creditsCents?: number;
}

let counter = 0;

export function uniqueEmail(prefix = 'owner'): string {
  counter += 1;
  return `${prefix}-${counter}-${crypto.randomBytes(3).toString('hex')}@example.com`;
}

/** Inserts an owner directly (no e-mail round trip). */
export async function createUser(t: TestApp, options: UserOptions = {}): Promise<UserEntity> {
  const billing = options.billing ?? 'paid';
  const repo = t.dataSource.getRepository(UserEntity);
  const user = repo.create({
    email: (options.email ?? uniqueEmail()).toLowerCase(),
    passwordHash: await hashPassword(options.password ?? TEST_PASSWORD),
    emailVerifiedAt: options.verified === false ? null : new Date(),
    stripeCustomerId: billing === 'none' ? null : `cus_test_${crypto.randomBytes(4).toString('hex')}`,
    stripeSubscriptionId:
      billing === 'paid' || billing === 'failed' ? `sub_test_${crypto.randomBytes(4).toString('hex')}` : null,
    subscriptionItemId:
      billing === 'paid' || billing === 'failed' ? `si_test_${crypto.randomBytes(4).toString('hex')}` : null,
    hasPaid: billing === 'paid' ? true : billing === 'failed' ? false : null,
    creditsCents: options.creditsCents ?? 500,
  });
  return repo.save(user);
}

/** A cookie-keeping agent signed in as a new (by default fully set-up) owner. */
export async function signedInAgent(t: TestApp, options: UserOptions = {}) {
  const password = options.password ?? TEST_PASSWORD;
  const user = await createUser(t, { ...options, password });
  const agent = t.agent();
  const response = await agent.post('/api/auth/login').set('Origin', t.origin).send({ email: user.email, password });
  if (response.status !== 200)
    throw new Error(`Test login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { agent, user };
}

/**
 * The app on a fresh database with two signed-in, fully set-up owners: `owner` acts, `other` owns
 * what must stay out of `owner`'s reach.
 */
export async function startAppWithTwoOwners(): Promise<{ t: TestApp; owner: request.Agent; other: request.Agent }> {
  const t = await startTestApp();
  const owner = (await signedInAgent(t)).agent;
  const other = (await signedInAgent(t)).agent;
  return { t, owner, other };
}
