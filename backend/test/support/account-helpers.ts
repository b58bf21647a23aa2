import fs from 'node:fs';
import path from 'node:path';
import type request from 'supertest';
import { AuthService } from '../../src/modules/auth/auth.service.js';
import { MailService } from '../../src/modules/mail/mail.service.js';
import { SESSION_COOKIE } from '../../src/modules/auth/sessions.js';
import { SIGNUP_BROWSER_COOKIE } from '../../src/modules/auth/signup-browser.js';
import type { TestApp } from './test-app.js';

/** A received mail, decoded enough to read: headers, and each part's decoded body. */
export interface ReadMail {
  raw: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = Buffer.from(
    body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?Q\?([^?]*)\?=/gi, (_, text: string) =>
    decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** A small RFC 822 / MIME reader for the mails nodemailer builds (multipart/alternative, QP, 7bit or base64). */
export function parseMail(raw: string): ReadMail {
  const normal = raw.replace(/\r\n/g, '\n');
  const headerEnd = normal.indexOf('\n\n');
  const headerText = normal.slice(0, headerEnd).replace(/\n[ \t]+/g, ' ');
  const header = (name: string) =>
    decodeHeader(headerText.match(new RegExp(`^${name}: (.*)$`, 'mi'))?.[1]?.trim() ?? '');
  const boundary = headerText.match(/boundary="([^"]+)"/)?.[1];
  const parts = boundary ? normal.split(`--${boundary}`).slice(1, -1) : [normal];
  const read = (type: string) => {
    const part = parts.find((p) => new RegExp(`Content-Type: ${type}`, 'i').test(p));
    if (!part) return '';
    const split = part.indexOf('\n\n');
    const partHeaders = part.slice(0, split);
    const body = part.slice(split + 2);
    if (/Content-Transfer-Encoding: quoted-printable/i.test(partHeaders)) return decodeQuotedPrintable(body);
    if (/Content-Transfer-Encoding: base64/i.test(partHeaders)) return Buffer.from(body, 'base64').toString('utf8');
    return body;
  };
  return {
    raw,
    to: header('To'),
    from: header('From'),
    subject: header('Subject'),
    text: read('text/plain'),
    html: read('text/html'),
  };
}

/**
 * Waits until the account work answered so far is done: signup and forgot-password finish after
 * their answer (so timing reveals nothing), and mail is sent in the background.
 */
export async function settle(t: TestApp): Promise<void> {
  await t.app.get(AuthService).settled();
  await t.app.get(MailService).flush();
}

/** Every mail the outbox adapter wrote so far (after the app's background work has finished). */
export async function outboxMails(t: TestApp): Promise<ReadMail[]> {
  await settle(t);
  const dir = path.join(t.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => parseMail(fs.readFileSync(path.join(dir, f), 'utf8')));
}

export async function mailsTo(t: TestApp, email: string): Promise<ReadMail[]> {
  return (await outboxMails(t)).filter((m) => m.to.toLowerCase() === email.toLowerCase());
}

export type LinkKind = 'verify-email' | 'reset-password';

/** The absolute `${publicUrl}/<kind>/<token>` link in a mail's text part, or undefined. */
export function linkIn(mail: ReadMail, kind: LinkKind): string | undefined {
  return mail.text.match(new RegExp(`https?://[^\\s]+/${kind}/[A-Za-z0-9_-]+`))?.[0];
}

export function tokenOf(link: string): string {
  return link.slice(link.lastIndexOf('/') + 1);
}

/** The newest link of that kind mailed to `email`. */
export async function latestLink(t: TestApp, email: string, kind: LinkKind): Promise<string> {
  const links = (await mailsTo(t, email)).map((m) => linkIn(m, kind)).filter((l): l is string => Boolean(l));
  const link = links.at(-1);
  if (!link) throw new Error(`No ${kind} link was mailed to ${email}`);
  return link;
}

/** The `name=value` of the session cookie a response sets, if any. */
export function sessionCookieOf(response: request.Response): string | undefined {
  const header = response.headers['set-cookie'] as string[] | string | undefined;
  const cookies = Array.isArray(header) ? header : header ? [header] : [];
  const cookie = cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return cookie?.split(';', 1)[0];
}

/** The `name=value` of the signup's pre-auth cookie (ties a signup to its browser), if the response sets it. */
export function signupBrowserCookieOf(response: request.Response): string | undefined {
  const header = response.headers['set-cookie'] as string[] | string | undefined;
  const cookies = Array.isArray(header) ? header : header ? [header] : [];
  return cookies.find((c) => c.startsWith(`${SIGNUP_BROWSER_COOKIE}=`))?.split(';', 1)[0];
}

/**
 * Signs up in `browser` (a cookie-keeping agent) and opens the mailed link in that same browser,
 * which verifies the account and signs it in there. Returns the verification answer.
 */
export async function signUpAndVerify(
  t: TestApp,
  browser: request.Agent,
  email: string,
  password: string,
): Promise<request.Response> {
  const signup = await browser.post('/api/auth/signup').set('Origin', t.origin).send({ email, password });
  if (signup.status !== 201) throw new Error(`Signup failed: ${signup.status} ${JSON.stringify(signup.body)}`);
  const token = tokenOf(await latestLink(t, email, 'verify-email'));
  return browser.get(`/api/auth/verify-email/${token}`);
}

/** The session id (sid) inside a signed `botsmith.sid=s%3A<sid>.<signature>` cookie. */
export function sidOf(cookie: string): string {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
  return value.slice(2, value.lastIndexOf('.'));
}

export async function sessionRowsOf(t: TestApp, userId: number): Promise<number> {
  const rows = await t.dataSource.query<{ count: string }[]>(
    `SELECT count(*) AS count FROM sessions WHERE (sess -> 'passport' ->> 'user') = $1`,
    [String(userId)],
  );
  return Number(rows[0].count);
}
