import crypto from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { linkFromOutbox } from './outbox.js';

export const OWNER_PASSWORD = 'Secret!pass1';

/**
 * Signs a new owner up (`<prefix>-<random>@example.com`), verifies the e-mail through the outbox
 * link and signs in through the API, in the context's cookie jar. The signup's pre-auth cookie is
 * in that jar, so the link verifies at once (no password step). Returns the e-mail.
 */
export async function signUpAndIn(
  context: BrowserContext,
  baseUrl: string,
  dataDir: string,
  prefix: string,
): Promise<string> {
  const email = `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const headers = { Origin: baseUrl };
  const signup = await context.request.post(`${baseUrl}/api/auth/signup`, {
    data: { email, password: OWNER_PASSWORD },
    headers,
  });
  expect(signup.status()).toBe(201);
  const link = await linkFromOutbox(dataDir, email, /verify-email\/[A-Za-z0-9_-]+/);
  const token = link.split('/').pop()!;
  expect((await context.request.get(`${baseUrl}/api/auth/verify-email/${token}`)).status()).toBe(200);
  const login = await context.request.post(`${baseUrl}/api/auth/login`, {
    data: { email, password: OWNER_PASSWORD },
    headers,
  });
  expect(login.status()).toBe(200);
  return email;
}

/** Adds the 4242 test card on the built-in test-mode payment page, as a person would, and lands on the dashboard. */
export async function payWithTestCard(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/complete-setup`);
  await page.waitForURL(/\/billing\/test-checkout\/cs_test_/);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 39');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Save card' }).click();
  await page.waitForURL(`${baseUrl}/dashboard`, { timeout: 20_000 });
}
