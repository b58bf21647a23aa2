import crypto from 'node:crypto';
import {
  FREE_CREDITS_CENTS,
  PASSWORD_HINT,
  REQUEST_BODY_MAX_BYTES,
  SYSTEM_ACCOUNT_EMAIL,
} from '../../src/common/constants.js';
import { hashToken } from '../../src/modules/auth/auth-tokens.js';
import { FILE_STORAGE, newStorageKey, type FileStorage } from '../../src/modules/storage/file-storage.js';
import { publicFileUrl } from '../../src/modules/storage/file-urls.js';
import { FORGOT_PASSWORD_MESSAGE, SIGNUP_MESSAGE } from '../../src/modules/auth/auth.service.js';
import {
  latestLink,
  linkIn,
  mailsTo,
  sessionCookieOf,
  sessionRowsOf,
  settle,
  sidOf,
  signupBrowserCookieOf,
  tokenOf,
} from '../support/account-helpers.js';
import { createUser, signedInAgent, TEST_PASSWORD, uniqueEmail } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'Sunny!Day7';
const OTHER_PASSWORD = 'Rainy#Night8';

describe('accounts (outbox mail)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /**
   * Signs up and waits for the work done after the answer (the account, the mail). With a
   * `browser` (a cookie-keeping agent) the signup is tied to it, like a real browser's.
   */
  const signup = async (email: string, password = PASSWORD, browser?: ReturnType<TestApp['agent']>) => {
    const response = await (browser ?? t.http())
      .post('/api/auth/signup')
      .set('Origin', t.origin)
      .send({ email, password });
    await settle(t);
    return response;
  };
  const login = (agent: ReturnType<TestApp['agent']>, email: string, password = PASSWORD) =>
    agent.post('/api/auth/login').set('Origin', t.origin).send({ email, password });
  const userRows = async (email: string) => {
    await settle(t);
    return t.dataSource.query<
      { id: number; email_verified_at: Date | null; credits_cents: number; deleted_at: Date | null }[]
    >(`SELECT id, email_verified_at, credits_cents, deleted_at FROM users WHERE email = $1 ORDER BY id`, [email]);
  };

  /** Signs up through the API and follows the mailed link in the same browser (signed in after). */
  async function signUpVerified(email = uniqueEmail('verified'), password = PASSWORD) {
    const agent = t.agent();
    expect((await signup(email, password, agent)).status).toBe(201);
    const verified = await agent.get(`/api/auth/verify-email/${tokenOf(await latestLink(t, email, 'verify-email'))}`);
    expect(verified.status).toBe(200);
    const [row] = await userRows(email);
    return { agent, email, userId: row.id };
  }

  describe('POST /api/auth/signup', () => {
    it('creates an unverified account with the free credits and mails an absolute verification link', async () => {
      const email = uniqueEmail('new');
      const response = await signup(email.toUpperCase());

      expect(response.status).toBe(201);
      expect(response.body).toEqual({ message: SIGNUP_MESSAGE });
      expect(response.body.message).toContain('Please check your email to verify your account.');
      const rows = await userRows(email);
      expect(rows).toHaveLength(1);
      expect(rows[0].email_verified_at).toBeNull();
      expect(rows[0].credits_cents).toBe(FREE_CREDITS_CENTS);

      const [mail] = await mailsTo(t, email);
      expect(mail).toBeDefined();
      expect(mail.from).toBe(t.config.mail.from);
      const link = linkIn(mail, 'verify-email');
      expect(link).toMatch(new RegExp(`^${t.config.publicUrl}/verify-email/[A-Za-z0-9_-]{43}$`));
      expect(mail.html).toContain(`href="${link}"`);
      expect(mail.text).toContain('24 hours');
    });

    it('stores only the SHA-256 of the token, never the token itself', async () => {
      const email = uniqueEmail('hash');
      await signup(email);
      const token = tokenOf(await latestLink(t, email, 'verify-email'));
      const stored = await t.dataSource.query<{ token_hash: string }[]>(
        `SELECT token_hash FROM pending_signups s JOIN users u ON u.id = s.user_id WHERE u.email = $1`,
        [email],
      );
      expect(stored).toEqual([{ token_hash: hashToken(token) }]);
      expect(JSON.stringify(stored)).not.toContain(token);
    });

    it('answers a verified address exactly like a new one, creates no second account and tells the owner', async () => {
      const { email } = await signUpVerified();
      const before = await mailsTo(t, email);
      const fresh = await signup(uniqueEmail('fresh'), OTHER_PASSWORD);
      const duplicate = await signup(email, OTHER_PASSWORD);

      expect(duplicate.status).toBe(fresh.status);
      expect(duplicate.body).toEqual(fresh.body);
      expect(Object.keys(duplicate.headers).sort()).toEqual(Object.keys(fresh.headers).sort());
      expect(await userRows(email)).toHaveLength(1);

      const after = await mailsTo(t, email);
      expect(after).toHaveLength(before.length + 1);
      const notice = after.at(-1)!;
      expect(notice.subject).toContain('tried to sign up');
      expect(linkIn(notice, 'verify-email')).toBeUndefined();
      expect(notice.text).toContain(`${t.config.publicUrl}/forgot-password`);
      // The existing password still works; the attempted one does not.
      expect((await login(t.agent(), email, PASSWORD)).status).toBe(200);
      expect((await login(t.agent(), email, OTHER_PASSWORD)).status).toBe(401);
    });

    it.each([
      ['too short', 'Ab!1'],
      ['no uppercase', 'lowercase!1'],
      ['no lowercase', 'UPPERCASE!1'],
      ['no special character', 'NoSpecial12'],
      ['a character outside the allowed set', 'Has space!A1'],
      ['a special outside !@#$%^&*', 'Question?Mark1'],
    ])('refuses a password with %s (400, the hint as message) and creates nothing', async (_, password) => {
      const email = uniqueEmail('weak');
      const response = await signup(email, password);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: `${PASSWORD_HINT}.`, code: 'VALIDATION_FAILED' });
      expect(await userRows(email)).toHaveLength(0);
    });

    it('refuses a malformed e-mail, a missing password and a non-string password', async () => {
      const bad = await signup('not-an-email');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'Please enter a valid email address.', code: 'VALIDATION_FAILED' });
      const missing = await t.http().post('/api/auth/signup').set('Origin', t.origin).send({ email: uniqueEmail() });
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe('VALIDATION_FAILED');
      const typed = await t
        .http()
        .post('/api/auth/signup')
        .set('Origin', t.origin)
        .send({ email: uniqueEmail(), password: ['Sunny!Day7'] });
      expect(typed.status).toBe(400);
      expect(typed.body.code).toBe('VALIDATION_FAILED');
    });

    it('refuses unknown fields (no mass assignment of credits, verification or billing)', async () => {
      const email = uniqueEmail('mass');
      for (const extra of [{ creditsCents: 1_000_000 }, { emailVerifiedAt: new Date() }, { hasPaid: true }]) {
        const response = await t
          .http()
          .post('/api/auth/signup')
          .set('Origin', t.origin)
          .send({ email, password: PASSWORD, ...extra });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          error: `Property ${Object.keys(extra)[0]} should not exist.`,
          code: 'VALIDATION_FAILED',
        });
      }
      expect(await userRows(email)).toHaveLength(0);
    });

    it('refuses overlong passwords before hashing them, and oversized bodies', async () => {
      const long = `Aa!${'x'.repeat(300)}`;
      const signupLong = await signup(uniqueEmail('long'), long);
      expect(signupLong.status).toBe(400);
      expect(signupLong.body).toEqual({ error: 'Password must be at most 256 characters.', code: 'VALIDATION_FAILED' });
      const loginLong = await login(t.agent(), uniqueEmail('long'), long);
      expect(loginLong.status).toBe(400);
      expect(loginLong.body.code).toBe('VALIDATION_FAILED');
      const huge = await t
        .http()
        .post('/api/auth/signup')
        .set('Origin', t.origin)
        .send({ email: uniqueEmail('huge'), password: `Aa!${'x'.repeat(REQUEST_BODY_MAX_BYTES)}` });
      expect(huge.status).toBe(413);
      expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('refuses a __proto__ field (not silently dropped): no pollution, no account', async () => {
      const email = uniqueEmail('proto');
      const response = await t
        .http()
        .post('/api/auth/signup')
        .set('Origin', t.origin)
        .set('Content-Type', 'application/json')
        .send(
          `{"email":"${email}","password":"${PASSWORD}","__proto__":{"isAdmin":true,"emailVerifiedAt":"2020-01-01","creditsCents":99999}}`,
        );
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: 'The request body must not contain a field named __proto__.',
        code: 'INVALID_BODY',
      });
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      expect(({} as Record<string, unknown>).emailVerifiedAt).toBeUndefined();
      expect(await userRows(email)).toHaveLength(0);
    });

    it('keeps the system account (owner of the demo bot) out: no login, no reset mail, no signup mail', async () => {
      const system = SYSTEM_ACCOUNT_EMAIL;
      const before = (await mailsTo(t, system)).length;
      const signupAttempt = await signup(system);
      expect(signupAttempt.status).toBe(201);
      expect(signupAttempt.body).toEqual({ message: SIGNUP_MESSAGE });
      expect(
        (await t.http().post('/api/auth/forgot-password').set('Origin', t.origin).send({ email: system })).status,
      ).toBe(200);
      for (const password of ['!system-account-no-login', PASSWORD, '']) {
        const response = await login(t.agent(), system, password || 'Empty!pass1');
        expect(response.status).toBe(401);
      }
      expect(await mailsTo(t, system)).toHaveLength(before);
      const rows = await t.dataSource.query<{ n: string }[]>(
        `SELECT count(*) AS n FROM users WHERE email = $1 AND deleted_at IS NULL`,
        [system],
      );
      expect(Number(rows[0]?.n)).toBe(1);
    });

    it('answers malformed JSON with 400 INVALID_JSON, not 500', async () => {
      const response = await t
        .http()
        .post('/api/auth/signup')
        .set('Origin', t.origin)
        .set('Content-Type', 'application/json')
        .send('{"email": "a@example.com", "password": ');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'The request body is not valid JSON.', code: 'INVALID_JSON' });
    });

    it('refuses a sixth signup request for one address within the window (429, Retry-After)', async () => {
      const email = uniqueEmail('bomb');
      for (let i = 0; i < 5; i += 1) expect((await signup(email)).status).toBe(201);
      const sixth = await signup(email);
      expect(sixth.status).toBe(429);
      expect(sixth.body.code).toBe('RATE_LIMITED');
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      expect(await mailsTo(t, email)).toHaveLength(5);
    });
  });

  describe('GET /api/auth/verify-email/:token', () => {
    it('verifies the address, signs the owner in on a new session and makes the link single-use', async () => {
      const email = uniqueEmail('verify');
      const browser = signupBrowserCookieOf(await signup(email))!;
      const token = tokenOf(await latestLink(t, email, 'verify-email'));
      // The browser already holds a session (here: someone else's); it must not become the signed-in one.
      const planted = sessionCookieOf(await login(t.agent(), (await createUser(t)).email, TEST_PASSWORD))!;

      const response = await t.http().get(`/api/auth/verify-email/${token}`).set('Cookie', [planted, browser]);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ message: 'Your email has been verified. You are now signed in.' });
      const cookie = sessionCookieOf(response);
      expect(cookie).toBeDefined();
      expect(sidOf(cookie!)).not.toBe(sidOf(planted));
      const me = await t.http().get('/api/user/me').set('Cookie', cookie!);
      expect(me.status).toBe(200);
      expect(me.body.email).toBe(email);
      expect((await t.http().get('/api/user/me').set('Cookie', planted)).status).toBe(401);
      expect((await userRows(email))[0].email_verified_at).not.toBeNull();

      const reused = await t.http().get(`/api/auth/verify-email/${token}`).set('Cookie', browser);
      expect(reused.status).toBe(400);
      expect(reused.body).toEqual({
        error: 'This verification link is invalid or has expired. Please sign up again to get a new one.',
        code: 'INVALID_TOKEN',
      });
      expect(sessionCookieOf(reused)).toBeUndefined();
    });

    it('refuses an expired link (older than 24 hours) and signs nobody in', async () => {
      const email = uniqueEmail('expired');
      // Even the browser that signed up gets nothing from an expired link.
      const agent = t.agent();
      await signup(email, PASSWORD, agent);
      const token = tokenOf(await latestLink(t, email, 'verify-email'));
      await t.dataSource.query(
        `UPDATE pending_signups SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
        [hashToken(token)],
      );
      const response = await agent.get(`/api/auth/verify-email/${token}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_TOKEN');
      expect((await agent.get('/api/user/me')).status).toBe(401);
      expect((await userRows(email))[0].email_verified_at).toBeNull();
    });

    it('issues verification links that expire 24 hours after signup', async () => {
      const email = uniqueEmail('ttl');
      await signup(email);
      const [row] = await t.dataSource.query<{ hours: string }[]>(
        `SELECT extract(epoch FROM s.expires_at - s.created_at) / 3600 AS hours
         FROM pending_signups s JOIN users u ON u.id = s.user_id WHERE u.email = $1`,
        [email],
      );
      expect(Math.round(Number(row.hours))).toBe(24);
    });

    it.each([
      ['a forged token of the right shape', () => crypto.randomBytes(32).toString('base64url')],
      ['a malformed token', () => 'abc'],
      ['a token with SQL in it', () => "x' OR '1'='1"],
      ['an overlong token', () => 'A'.repeat(5000)],
    ])('refuses %s with 400 INVALID_TOKEN', async (_, make) => {
      const response = await t.http().get(`/api/auth/verify-email/${encodeURIComponent(make())}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_TOKEN');
      expect(sessionCookieOf(response)).toBeUndefined();
    });

    it('does not accept a password-reset token as a verification token', async () => {
      const user = await createUser(t, { verified: false });
      await t.http().post('/api/auth/forgot-password').set('Origin', t.origin).send({ email: user.email });
      const resetToken = tokenOf(await latestLink(t, user.email, 'reset-password'));
      const response = await t.http().get(`/api/auth/verify-email/${resetToken}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_TOKEN');
    });
  });

  describe('POST /api/auth/login', () => {
    it('refuses an unverified account with 403 EMAIL_NOT_VERIFIED and no session', async () => {
      const email = uniqueEmail('unverified');
      await signup(email);
      const agent = t.agent();
      const response = await login(agent, email);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        error: 'Please verify your email before logging in.',
        code: 'EMAIL_NOT_VERIFIED',
      });
      expect(sessionCookieOf(response)).toBeUndefined();
      expect((await agent.get('/api/user/me')).status).toBe(401);
    });

    it('gives a wrong password on an unverified account the plain 401 (the 403 needs the right password)', async () => {
      const email = uniqueEmail('unverified-wrong');
      await signup(email);
      const response = await login(t.agent(), email, OTHER_PASSWORD);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'Invalid email or password.', code: 'INVALID_CREDENTIALS' });
    });

    it('rotates the session id at login: the previous session id stops working', async () => {
      const user = await createUser(t);
      const agent = t.agent();
      const first = sessionCookieOf(await login(agent, user.email, TEST_PASSWORD))!;
      const second = sessionCookieOf(await login(agent, user.email, TEST_PASSWORD))!;
      expect(first).toBeDefined();
      expect(second).toBeDefined();
      expect(sidOf(second)).not.toBe(sidOf(first));

      expect((await t.http().get('/api/user/me').set('Cookie', first)).status).toBe(401);
      expect((await t.http().get('/api/user/me').set('Cookie', second)).status).toBe(200);
      const rows = await t.dataSource.query(`SELECT sid FROM sessions WHERE sid = $1`, [sidOf(first)]);
      expect(rows).toEqual([]);
    });

    it('refuses a forged session cookie (bad signature)', async () => {
      const { agent } = await signedInAgent(t);
      const me = await agent.get('/api/user/me');
      expect(me.status).toBe(200);
      const forged = `botsmith.sid=${encodeURIComponent(`s:${crypto.randomBytes(16).toString('hex')}.forgedsignature`)}`;
      expect((await t.http().get('/api/user/me').set('Cookie', forged)).status).toBe(401);
    });

    it('answers unknown fields and malformed JSON with 400', async () => {
      const user = await createUser(t);
      const extra = await t
        .http()
        .post('/api/auth/login')
        .set('Origin', t.origin)
        .send({ email: user.email, password: TEST_PASSWORD, remember: true });
      expect(extra.status).toBe(400);
      expect(extra.body).toEqual({ error: 'Property remember should not exist.', code: 'VALIDATION_FAILED' });
      const broken = await t
        .http()
        .post('/api/auth/login')
        .set('Origin', t.origin)
        .set('Content-Type', 'application/json')
        .send('{"email":');
      expect(broken.status).toBe(400);
      expect(broken.body.code).toBe('INVALID_JSON');
    });
  });

  describe('POST /api/auth/logout', () => {
    it('ends the session: the row is gone and the old cookie fails everywhere', async () => {
      const { agent, user } = await signedInAgent(t);
      const cookie = sessionCookieOf(await login(agent, user.email, TEST_PASSWORD))!;
      expect(await sessionRowsOf(t, user.id)).toBe(1);
      const out = await agent.post('/api/auth/logout').set('Origin', t.origin);
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ message: 'Logged out.' });
      expect(await sessionRowsOf(t, user.id)).toBe(0);
      expect((await t.http().get('/api/user/me').set('Cookie', cookie)).status).toBe(401);
    });
  });

  describe('POST /api/auth/forgot-password and /api/auth/reset-password/:token', () => {
    const forgot = async (email: string) => {
      const response = await t.http().post('/api/auth/forgot-password').set('Origin', t.origin).send({ email });
      await settle(t);
      return response;
    };
    const reset = (token: string, password: string) =>
      t.http().post(`/api/auth/reset-password/${token}`).set('Origin', t.origin).send({ password });

    it('answers known and unknown addresses identically, and mails only the known one', async () => {
      const user = await createUser(t);
      const unknown = uniqueEmail('nobody');
      const known = await forgot(user.email.toUpperCase());
      const missing = await forgot(unknown);
      expect(known.status).toBe(200);
      expect(missing.status).toBe(200);
      expect(known.body).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
      expect(missing.body).toEqual(known.body);
      expect(await mailsTo(t, unknown)).toEqual([]);
      const link = await latestLink(t, user.email, 'reset-password');
      expect(link).toMatch(new RegExp(`^${t.config.publicUrl}/reset-password/[A-Za-z0-9_-]{43}$`));
    });

    it('resets the password, ends every session of the owner, and spends the link', async () => {
      const password = 'Before!Reset1';
      const user = await createUser(t, { password });
      const laptop = t.agent();
      const phone = t.agent();
      await login(laptop, user.email, password).expect(200);
      await login(phone, user.email, password).expect(200);
      expect(await sessionRowsOf(t, user.id)).toBe(2);

      expect((await forgot(user.email)).status).toBe(200);
      const token = tokenOf(await latestLink(t, user.email, 'reset-password'));
      const response = await reset(token, 'After!Reset2');
      expect(response.status).toBe(200);
      expect(response.body.message).toMatch(/password has been reset/i);

      expect(await sessionRowsOf(t, user.id)).toBe(0);
      expect((await laptop.get('/api/user/me')).status).toBe(401);
      expect((await phone.get('/api/user/me')).status).toBe(401);
      expect((await login(t.agent(), user.email, password)).status).toBe(401);
      expect((await login(t.agent(), user.email, 'After!Reset2')).status).toBe(200);

      const again = await reset(token, 'Third!Reset3');
      expect(again.status).toBe(400);
      expect(again.body).toEqual({
        error: 'This password reset link is invalid or has expired. Please request a new one.',
        code: 'INVALID_TOKEN',
      });
      expect((await login(t.agent(), user.email, 'Third!Reset3')).status).toBe(401);
    });

    it('does not end the sessions of other owners', async () => {
      const { agent: bystander } = await signedInAgent(t);
      const user = await createUser(t);
      expect((await forgot(user.email)).status).toBe(200);
      await reset(tokenOf(await latestLink(t, user.email, 'reset-password')), 'Fresh!Pass9').expect(200);
      expect((await bystander.get('/api/user/me')).status).toBe(200);
    });

    it('invalidates an older reset link when a newer one is requested', async () => {
      const user = await createUser(t);
      expect((await forgot(user.email)).status).toBe(200);
      const older = tokenOf(await latestLink(t, user.email, 'reset-password'));
      expect((await forgot(user.email)).status).toBe(200);
      const newer = tokenOf(await latestLink(t, user.email, 'reset-password'));
      expect(newer).not.toBe(older);
      expect((await reset(older, 'Older!Link1')).status).toBe(400);
      expect((await reset(newer, 'Newer!Link2')).status).toBe(200);
    });

    it('refuses an expired link (older than 1 hour)', async () => {
      const user = await createUser(t);
      expect((await forgot(user.email)).status).toBe(200);
      const token = tokenOf(await latestLink(t, user.email, 'reset-password'));
      const [row] = await t.dataSource.query<{ minutes: string }[]>(
        `SELECT extract(epoch FROM expires_at - created_at) / 60 AS minutes FROM auth_tokens WHERE token_hash = $1`,
        [hashToken(token)],
      );
      expect(Math.round(Number(row.minutes))).toBe(60);
      await t.dataSource.query(
        `UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
        [hashToken(token)],
      );
      const response = await reset(token, 'Too!Late12');
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_TOKEN');
      expect((await login(t.agent(), user.email, TEST_PASSWORD)).status).toBe(200);
    });

    it('refuses forged, malformed and verification tokens', async () => {
      const email = uniqueEmail('purpose');
      await signup(email);
      const verifyToken = tokenOf(await latestLink(t, email, 'verify-email'));
      for (const token of [crypto.randomBytes(32).toString('base64url'), 'short', verifyToken]) {
        const response = await reset(encodeURIComponent(token), 'Forged!Pass1');
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('INVALID_TOKEN');
      }
    });

    it('checks the password pattern before spending the link', async () => {
      const user = await createUser(t);
      expect((await forgot(user.email)).status).toBe(200);
      const token = tokenOf(await latestLink(t, user.email, 'reset-password'));
      const weak = await reset(token, 'weakpass');
      expect(weak.status).toBe(400);
      expect(weak.body).toEqual({ error: `${PASSWORD_HINT}.`, code: 'VALIDATION_FAILED' });
      expect((await reset(token, 'Strong!Pass1')).status).toBe(200);
    });

    it('verifies an unverified address (the link proved the mailbox) so the owner can log in', async () => {
      const email = uniqueEmail('reset-unverified');
      await signup(email);
      expect((await forgot(email)).status).toBe(200);
      await reset(tokenOf(await latestLink(t, email, 'reset-password')), 'Verified!By1').expect(200);
      expect((await login(t.agent(), email, 'Verified!By1')).status).toBe(200);
    });

    it('refuses a malformed e-mail and unknown fields', async () => {
      const bad = await forgot('nope');
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
      const extra = await t
        .http()
        .post('/api/auth/forgot-password')
        .set('Origin', t.origin)
        .send({ email: uniqueEmail(), redirect: 'https://evil.example' });
      expect(extra.status).toBe(400);
      expect(extra.body).toEqual({ error: 'Property redirect should not exist.', code: 'VALIDATION_FAILED' });
    });

    it('ignores a forged Host header: links always use PUBLIC_URL', async () => {
      const user = await createUser(t);
      await t
        .http()
        .post('/api/auth/forgot-password')
        .set('Origin', t.origin)
        .set('Host', 'evil.example')
        .set('X-Forwarded-Host', 'evil.example')
        .send({ email: user.email })
        .expect(200);
      const link = await latestLink(t, user.email, 'reset-password');
      expect(link.startsWith(`${t.config.publicUrl}/reset-password/`)).toBe(true);
      expect(link).not.toContain('evil');
    });
  });

  describe('DELETE /api/auth/delete-account', () => {
    /** A bot with a stored icon and document (real files in the app's storage), a category, a chat and usage. */
    async function seedOwnedRows(ownerId: number) {
      const storage = t.app.get<FileStorage>(FILE_STORAGE);
      const iconKey = newStorageKey('icons', 'png');
      const documentKey = newStorageKey('documents', 'pdf');
      await storage.put(iconKey, Buffer.from('png'), 'image/png');
      await storage.put(documentKey, Buffer.from('%PDF-1.4'), 'application/pdf');
      const [category] = await t.dataSource.query<{ id: number }[]>(
        `INSERT INTO categories (owner_id, name) VALUES ($1, 'Support') RETURNING id`,
        [ownerId],
      );
      const [bot] = await t.dataSource.query<{ id: number }[]>(
        `INSERT INTO bots (owner_id, category_id, name, api_key, prompt, custom_greeting, model, allowed_domain,
           bubble_icon, bubble_color, bubble_text_color, bubble_border_radius, chat_window_border_radius, banner_color,
           banner_text_color, banner_disclaimer, placeholder_text, placeholder_text_color, send_button_color,
           send_arrow_color, widget_bubble_color, assistant_bubble_color, assistant_bubble_text_color,
           widget_background_color, animation, widget_position, max_tokens, temperature, usage_limit_dollars)
         VALUES ($1, $2, 'Helper', $3, 'secret prompt', 'Hi', 'gpt-4o', '', $4, 'c', 'c', '50%', '10px', 'c', 'c', '', 'p',
           'c', 'c', 'c', 'c', 'c', 'c', 'c', 'none', 'right', 300, 0.3, 0) RETURNING id`,
        [ownerId, category.id, crypto.randomBytes(16).toString('hex'), publicFileUrl(t.config, iconKey)],
      );
      const [document] = await t.dataSource.query<{ id: number }[]>(
        `INSERT INTO bot_documents (bot_id, original_name, storage_key, file_path, size_bytes, page_count)
         VALUES ($1, 'guide.pdf', $2, $3, 10, 1) RETURNING id`,
        [bot.id, documentKey, `/uploads/${documentKey}`],
      );
      const [source] = await t.dataSource.query<{ id: number }[]>(
        `INSERT INTO bot_sources (bot_id, kind, name, status, format, pages, chunks, bytes, storage_key, is_reference)
         VALUES ($1, 'file', 'guide.pdf', 'ready', 'pdf', 1, 1, 10, $2, true) RETURNING id`,
        [bot.id, documentKey],
      );
      await t.dataSource.query(
        `INSERT INTO document_chunks (document_id, source_id, bot_id, page, ordinal, content) VALUES ($1, $2, $3, 1, 0, 'text')`,
        [document.id, source.id, bot.id],
      );
      const [conversation] = await t.dataSource.query<{ id: number }[]>(
        `INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id) VALUES ($1, $2, 'Helper', 'v1') RETURNING id`,
        [ownerId, bot.id],
      );
      const [message] = await t.dataSource.query<{ id: number }[]>(
        `INSERT INTO messages (conversation_id, owner_id, role, content) VALUES ($1, $2, 'assistant', 'hello') RETURNING id`,
        [conversation.id, ownerId],
      );
      await t.dataSource.query(
        `INSERT INTO usage_events (owner_id, bot_id, message_id, model_tier, upstream_model, price_cents, credits_cents,
           billable_cents, period_start, report_identifier)
         VALUES ($1, $2, $3, 'gpt-4o', 'gpt-4o', 5, 0, 5, current_date, $4)`,
        [ownerId, bot.id, message.id, crypto.randomUUID()],
      );
      return { botId: bot.id, files: [iconKey, documentKey], storage };
    }

    const count = async (sql: string, params: unknown[]) =>
      Number((await t.dataSource.query<{ n: string }[]>(sql, params))[0].n);

    it('removes bots, documents, chunks, stored files, categories, conversations, tokens and sessions; keeps the usage ledger', async () => {
      const { agent, email, userId } = await signUpVerified();
      const phone = t.agent();
      await login(phone, email).expect(200);
      const { botId, files, storage } = await seedOwnedRows(userId);
      const { user: bystander } = await signedInAgent(t);
      const kept = await seedOwnedRows(bystander.id);
      await t.http().post('/api/auth/forgot-password').set('Origin', t.origin).send({ email }).expect(200);
      const resetToken = tokenOf(await latestLink(t, email, 'reset-password'));

      const response = await agent.delete('/api/auth/delete-account').set('Origin', t.origin);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ message: 'Your account has been deleted.' });

      for (const [table, column] of [
        ['bots', 'owner_id'],
        ['categories', 'owner_id'],
        ['conversations', 'owner_id'],
        ['messages', 'owner_id'],
        ['auth_tokens', 'user_id'],
      ] as const) {
        expect(await count(`SELECT count(*) AS n FROM ${table} WHERE ${column} = $1`, [userId])).toBe(0);
      }
      expect(await count(`SELECT count(*) AS n FROM bot_documents WHERE bot_id = $1`, [botId])).toBe(0);
      expect(await count(`SELECT count(*) AS n FROM document_chunks WHERE bot_id = $1`, [botId])).toBe(0);
      expect(await count(`SELECT count(*) AS n FROM bot_sources WHERE bot_id = $1`, [botId])).toBe(0);
      expect(await sessionRowsOf(t, userId)).toBe(0);
      for (const key of files) expect(await storage.get(key)).toBeNull();
      // Another owner's bot, rows and files are untouched.
      expect(await count(`SELECT count(*) AS n FROM bots WHERE id = $1`, [kept.botId])).toBe(1);
      for (const key of kept.files) {
        const file = await storage.get(key);
        expect(file).not.toBeNull();
        file!.body.destroy();
      }
      const ledger = await t.dataSource.query<{ billable_cents: number; bot_id: number | null }[]>(
        `SELECT billable_cents, bot_id FROM usage_events WHERE owner_id = $1`,
        [userId],
      );
      expect(ledger).toEqual([{ billable_cents: 5, bot_id: null }]);
      const [row] = await userRows(email);
      expect(row.deleted_at).not.toBeNull();

      expect((await agent.get('/api/user/me')).status).toBe(401);
      expect((await phone.get('/api/user/me')).status).toBe(401);
      expect((await login(t.agent(), email)).status).toBe(401);
      const staleReset = await t
        .http()
        .post(`/api/auth/reset-password/${resetToken}`)
        .set('Origin', t.origin)
        .send({ password: 'Back!From1' });
      expect(staleReset.status).toBe(400);
    });

    it('frees the e-mail: signing up again creates a new, separate account', async () => {
      const { agent, email, userId } = await signUpVerified();
      await agent.delete('/api/auth/delete-account').set('Origin', t.origin).expect(200);
      const fresh = t.agent();
      const again = await signup(email, PASSWORD, fresh);
      expect(again.status).toBe(201);
      const rows = await userRows(email);
      expect(rows).toHaveLength(2);
      expect(rows[1].id).not.toBe(userId);
      expect(rows[1].deleted_at).toBeNull();
      expect(rows[1].credits_cents).toBe(FREE_CREDITS_CENTS);
      const link = await latestLink(t, email, 'verify-email');
      await fresh.get(`/api/auth/verify-email/${tokenOf(link)}`).expect(200);
      const me = await fresh.get('/api/user/me');
      expect(me.body.id).toBe(rows[1].id);
    });

    it('needs a session (401) and leaves other accounts alone', async () => {
      const { agent: bystander, user } = await signedInAgent(t);
      const anonymous = await t.http().delete('/api/auth/delete-account').set('Origin', t.origin);
      expect(anonymous.status).toBe(401);
      expect((await bystander.get('/api/user/me')).body.id).toBe(user.id);
    });
  });
});
