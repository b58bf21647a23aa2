import crypto from 'node:crypto';
import type { Request, Response } from 'express';
import { VERIFY_EMAIL_TOKEN_TTL_MS } from '../../common/constants.js';
import type { AppConfig } from '../../config/config.js';
import { TOKEN_PATTERN } from './auth-tokens.js';

/**
 * The pre-auth cookie that ties a signup to the browser that submitted it. Opening the mailed
 * link in that browser verifies and signs in at once; anywhere else the person must type the
 * password chosen at signup, so whoever clicks a link in a mailbox never adopts a password
 * someone else chose. It lives as long as a verification link, only under /api/auth.
 */
export const SIGNUP_BROWSER_COOKIE = 'botsmith.signup';
const COOKIE_PATH = '/api/auth';

/** The request's signup-browser value, if it carries a well-formed one. */
export function signupBrowserOf(request: Request): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== SIGNUP_BROWSER_COOKIE) continue;
    const value = part.slice(separator + 1).trim();
    return TOKEN_PATTERN.test(value) ? value : undefined;
  }
  return undefined;
}

/**
 * Gives the browser its signup-browser value (keeping the one it has, so several signups from
 * one browser all stay tied to it) and returns it. Set on every signup answer, whatever the
 * address, so the answer's headers reveal nothing about accounts.
 */
export function rememberSignupBrowser(request: Request, response: Response, config: AppConfig): string {
  const value = signupBrowserOf(request) ?? crypto.randomBytes(32).toString('base64url');
  response.cookie(SIGNUP_BROWSER_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https://'),
    maxAge: VERIFY_EMAIL_TOKEN_TTL_MS,
    path: COOKIE_PATH,
  });
  return value;
}
