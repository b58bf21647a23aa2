import crypto from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectPageErrors, DESKTOP, launchBrowser, PHONE, screenshot } from '../support/browser.js';
import { linkFromOutbox } from '../support/outbox.js';

const HINT = 'Minimum 8 characters, including one uppercase letter, one lowercase letter, and one special character';

function newEmail(prefix: string): string {
  return `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.com`;
}

/** The signed-in owner as the page's own session sees it (same cookie, same origin). */
async function currentUser(page: Page): Promise<{ status: number; email?: string }> {
  return page.evaluate(async () => {
    const response = await fetch('/api/user/me', { credentials: 'include' });
    const body = response.ok ? ((await response.json()) as { email: string }) : undefined;
    return { status: response.status, email: body?.email };
  });
}

describe('accounts in a real browser', () => {
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  const linkPattern = (kind: string) => new RegExp(`${baseUrl.replace(/[.:/]/g, '\\$&')}/${kind}/[A-Za-z0-9_-]{43}`);
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows every client-side validation message of the signup form as quoted', async () => {
    const page = await browser.newPage(DESKTOP);
    const errors = collectPageErrors(page);
    await page.goto(`${baseUrl}/signup`);
    await expect.poll(() => page.getByText(HINT).isVisible()).toBe(true);
    await page.getByLabel(/^Email/).fill('owner@example.com');
    await page.getByLabel(/^Password/).fill('Sunny!Day7');
    await page.getByLabel(/^Confirm Password/).fill('Sunny!Day7');
    // Each field carries its own message (issue 27), all of them at once, no banner.
    const description = (locator: Locator) =>
      locator.evaluate((element) =>
        (element.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
          .trim(),
      );
    const terms = page.getByRole('checkbox');
    const confirm = page.getByLabel(/^Confirm Password/);
    const email = page.getByLabel(/^Email/);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect.poll(() => terms.getAttribute('aria-invalid')).toBe('true');
    expect(await description(terms)).toBe('You must agree to the Terms of Service and Privacy Policy.');
    expect(await page.getByRole('alert').count()).toBe(0);

    await terms.check();
    await confirm.fill('Sunny!Day8');
    await email.fill('owner@example');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect.poll(() => description(confirm)).toBe('Passwords do not match.');
    expect(await description(email)).toBe('Please enter a valid email address.');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await terms.getAttribute('aria-invalid')).toBe('false');

    expect(await page.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms-of-service');
    expect(await page.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy-policy');
    await screenshot(page, 'accounts-signup-validation');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('signs up, opens the verification link from the outbox and lands signed in', async () => {
    const page = await browser.newPage(DESKTOP);
    const errors = collectPageErrors(page);
    const email = newEmail('e2e-signup');
    await page.goto(`${baseUrl}/signup`);
    await page.getByLabel(/^Email/).fill(email.toUpperCase());
    await page.getByLabel(/^Password/).fill('Sunny!Day7');
    await page.getByLabel(/^Confirm Password/).fill('Sunny!Day7');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Sign Up' }).click();

    await page.getByText('Please check your email to verify your account.').waitFor();
    expect(await page.getByRole('link', { name: 'Go to Login' }).getAttribute('href')).toBe('/login');
    await screenshot(page, 'accounts-signup-confirmation');
    expect((await currentUser(page)).status).toBe(401);

    const link = await linkFromOutbox(dataDir, email, linkPattern('verify-email'));
    await page.goto(link);
    await page.getByText('Your email has been verified. You are now signed in.').waitFor();
    await screenshot(page, 'accounts-verified');
    // 3 s later the owner is sent on (to /dashboard, which routes a new owner on to billing setup).
    await page.waitForURL((url) => !url.pathname.startsWith('/verify-email/'), { timeout: 10_000 });
    expect(await currentUser(page)).toEqual({ status: 200, email });

    // The link is spent: opening it again fails and goes to /login.
    const again = await browser.newPage(DESKTOP);
    await again.goto(link);
    await again.getByText(/invalid or has expired/).waitFor();
    await again.waitForURL(`${baseUrl}/login`, { timeout: 10_000 });
    await again.close();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('resets a forgotten password from the mailed link, then logs in with the new one', async () => {
    const email = newEmail('e2e-reset');
    // An existing, verified account (made through the API).
    const signup = await fetch(`${baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'Before!Reset1' }),
    });
    expect(signup.status).toBe(201);
    const verifyLink = await linkFromOutbox(dataDir, email, linkPattern('verify-email'));
    // The same client opens the link: it carries the signup's pre-auth cookie, so no password step.
    const signupCookie = signup.headers.getSetCookie().map((cookie) => cookie.split(';', 1)[0]);
    const verified = await fetch(`${baseUrl}/api/auth/verify-email/${verifyLink.split('/').pop()}`, {
      headers: { Cookie: signupCookie.join('; ') },
    });
    expect(verified.status).toBe(200);

    const page = await browser.newPage(PHONE);
    const errors = collectPageErrors(page);
    await page.goto(`${baseUrl}/login`);
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    await screenshot(page, 'accounts-login-phone');
    await page.getByRole('link', { name: 'Forgot password' }).click();
    await page.waitForURL(`${baseUrl}/forgot-password`);
    // The URL changes before the lazily loaded page replaces the login form, whose Email field
    // has the same label: filling then could hit the login field that is about to go away.
    await page.getByRole('button', { name: 'Send Reset Link' }).waitFor();
    await page.getByLabel(/^Email/).fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText(/Check your email for reset instructions\./).waitFor();
    await screenshot(page, 'accounts-forgot-sent-phone');

    const resetLink = await linkFromOutbox(dataDir, email, linkPattern('reset-password'));
    await page.goto(resetLink);
    await page.getByLabel(/^New Password/).fill('After!Reset2');
    await page.getByLabel(/^Confirm Password/).fill('After!Reset3');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Passwords do not match.');
    await page.getByLabel(/^Confirm Password/).fill('After!Reset2');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText(/Your password has been reset/).waitFor();
    await page.waitForURL(`${baseUrl}/login`, { timeout: 10_000 });

    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Password/).fill('Before!Reset1');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Invalid email or password.');

    await page.getByLabel(/^Password/).fill('After!Reset2');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 10_000 });
    expect(await currentUser(page)).toEqual({ status: 200, email });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sends a visitor who already has a session from /login straight to /dashboard', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const email = newEmail('e2e-session');
    await fetch(`${baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'Session!Pass1' }),
    });
    const link = await linkFromOutbox(dataDir, email, linkPattern('verify-email'));
    // This browser did not sign up, so the link asks for the signup's password; then it signs in.
    await page.goto(link);
    await page.getByRole('heading', { name: 'Confirm your password' }).waitFor();
    await page.getByLabel(/^Password/).fill('Wrong!Pass1');
    await page.getByRole('button', { name: 'Verify Email' }).click();
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('That is not the password chosen when signing up with this link.');
    await page.getByLabel(/^Password/).fill('Session!Pass1');
    await page.getByRole('button', { name: 'Verify Email' }).click();
    await page.getByText(/You are now signed in/).waitFor();
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    await page.goto(`${baseUrl}/login`);
    await expect.poll(() => visited.includes('/dashboard'), { timeout: 10_000 }).toBe(true);
    expect(visited[0]).toBe('/login');
    await context.close();
  });
});
