import { PendingSignups1796100000000 } from '../../src/database/migrations/1796100000000-pending-signups.js';
import { hashToken } from '../../src/modules/auth/auth-tokens.js';
import { PASSWORD_CONFIRMATION_REQUIRED, SIGNUP_MESSAGE } from '../../src/modules/auth/auth.service.js';
import {
  latestLink,
  mailsTo,
  sessionCookieOf,
  settle,
  signupBrowserCookieOf,
  tokenOf,
} from '../support/account-helpers.js';
import { createUser, uniqueEmail } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const VICTIM_PASSWORD = 'Victim!pass1';
const ATTACKER_PASSWORD = 'Attacker!pass2';
const INVALID_LINK = {
  error: 'This verification link is invalid or has expired. Please sign up again to get a new one.',
  code: 'INVALID_TOKEN',
};
const VERIFIED = { message: 'Your email has been verified. You are now signed in.' };

/**
 * Each signup of an unverified address is its own pending signup (own password, own link), and
 * a link verifies only in the browser that submitted that signup, or with that signup's
 * password. Whoever clicks a link in a mailbox, a password chosen by someone else never becomes
 * the account's password.
 */
describe('pending signups: nobody can take an address over before it is verified', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  type Browser = ReturnType<TestApp['agent']>;
  const browser = (): Browser => t.agent();
  const signup = async (who: Browser, email: string, password: string) => {
    const response = await who.post('/api/auth/signup').set('Origin', t.origin).send({ email, password });
    expect(response.status).toBe(201);
    return response;
  };
  /** Every verification link mailed to `email`, oldest first. */
  const links = async (email: string) =>
    (await mailsTo(t, email))
      .map((m) => m.text.match(/\/verify-email\/([A-Za-z0-9_-]{43})/)?.[1])
      .filter((token): token is string => Boolean(token));
  const open = (who: Browser | ReturnType<TestApp['http']>, token: string) =>
    who.get(`/api/auth/verify-email/${token}`);
  const confirm = (who: Browser | ReturnType<TestApp['http']>, token: string, password: unknown) =>
    who.post(`/api/auth/verify-email/${token}`).set('Origin', t.origin).send({ password });
  const login = (email: string, password: string) =>
    t.agent().post('/api/auth/login').set('Origin', t.origin).send({ email, password });
  const account = async (email: string) => {
    await settle(t);
    const rows = await t.dataSource.query<{ id: number; verified: boolean; password_hash: string }[]>(
      `SELECT id, email_verified_at IS NOT NULL AS verified, password_hash FROM users
       WHERE email = $1 AND deleted_at IS NULL`,
      [email],
    );
    expect(rows).toHaveLength(1);
    return rows[0];
  };
  const me = async (who: Browser) => (await who.get('/api/user/me')).status;

  describe('the takeover attack', () => {
    it('fails: the newest link (the attacker’s) asks the victim for a password, and the attacker’s password never logs in', async () => {
      const email = uniqueEmail('victim');
      const victim = browser();
      const attacker = browser();
      await signup(victim, email, VICTIM_PASSWORD);
      await signup(attacker, email, ATTACKER_PASSWORD);
      const [victimLink, attackerLink] = await links(email);
      expect(attackerLink).toBeDefined();
      const before = await account(email);

      // The victim clicks the newest mail's link: not their signup, so nothing happens but a question.
      const clicked = await open(victim, attackerLink);
      expect(clicked.status).toBe(409);
      expect(clicked.body).toEqual({ error: PASSWORD_CONFIRMATION_REQUIRED, code: 'PASSWORD_CONFIRMATION_REQUIRED' });
      expect(sessionCookieOf(clicked)).toBeUndefined();
      expect(await me(victim)).toBe(401);
      // The victim answers with their own password: it is not that signup's, so still nothing.
      const typed = await confirm(victim, attackerLink, VICTIM_PASSWORD);
      expect(typed.status).toBe(400);
      expect(typed.body.code).toBe('INVALID_CREDENTIALS');
      expect(await account(email)).toEqual(before);
      expect(await me(victim)).toBe(401);

      // The victim's own, earlier link still works in their browser, with their password.
      const verified = await open(victim, victimLink);
      expect(verified.status).toBe(200);
      expect(verified.body).toEqual(VERIFIED);
      expect(await me(victim)).toBe(200);

      expect((await login(email, ATTACKER_PASSWORD)).status).toBe(401);
      expect((await login(email, VICTIM_PASSWORD)).status).toBe(200);
      // The attacker's pending signup ended with the victim's verification.
      expect((await open(attacker, attackerLink)).body).toEqual(INVALID_LINK);
      expect((await confirm(attacker, attackerLink, ATTACKER_PASSWORD)).body).toEqual(INVALID_LINK);
      expect((await login(email, ATTACKER_PASSWORD)).status).toBe(401);
    });

    it('fails when the attacker signed up first: the victim’s verification brings the victim’s password', async () => {
      const email = uniqueEmail('first');
      const attacker = browser();
      const victim = browser();
      await signup(attacker, email, ATTACKER_PASSWORD);
      await signup(victim, email, VICTIM_PASSWORD);
      const [attackerLink, victimLink] = await links(email);
      // The attacker's signup made the (unverified) account; the first mail's link is not the victim's.
      expect((await open(victim, attackerLink)).status).toBe(409);
      expect((await open(victim, victimLink)).status).toBe(200);
      expect((await login(email, ATTACKER_PASSWORD)).status).toBe(401);
      expect((await login(email, VICTIM_PASSWORD)).status).toBe(200);
    });
  });

  describe('GET /api/auth/verify-email/:token', () => {
    it('keeps earlier links valid after later signups of the address, each with its own password', async () => {
      const email = uniqueEmail('earlier');
      const first = browser();
      await signup(first, email, VICTIM_PASSWORD);
      await signup(browser(), email, ATTACKER_PASSWORD);
      await signup(browser(), email, 'Third!pass3');
      const tokens = await links(email);
      expect(new Set(tokens).size).toBe(3);
      const rows = await t.dataSource.query<{ open: string }[]>(
        `SELECT count(*) AS open FROM pending_signups WHERE user_id = $1 AND ended_at IS NULL`,
        [(await account(email)).id],
      );
      expect(Number(rows[0].open)).toBe(3);

      expect((await open(first, tokens[0])).status).toBe(200);
      expect((await login(email, VICTIM_PASSWORD)).status).toBe(200);
    });

    it('answers 409 PASSWORD_CONFIRMATION_REQUIRED in another browser and changes nothing', async () => {
      const email = uniqueEmail('cross');
      const signedUpIn = browser();
      await signup(signedUpIn, email, VICTIM_PASSWORD);
      const [token] = await links(email);
      const before = await account(email);

      for (const elsewhere of [browser(), t.http()]) {
        const response = await open(elsewhere, token);
        expect(response.status).toBe(409);
        expect(response.body).toEqual({
          error:
            'This link was opened in a different browser from the one used to sign up. Enter the password you chose when you signed up to verify your email.',
          code: 'PASSWORD_CONFIRMATION_REQUIRED',
        });
        expect(sessionCookieOf(response)).toBeUndefined();
      }
      // Another browser's own pre-auth cookie (from a signup of its own) is not this signup's either.
      const otherSignup = browser();
      await signup(otherSignup, uniqueEmail('unrelated'), VICTIM_PASSWORD);
      expect((await open(otherSignup, token)).status).toBe(409);

      expect(await account(email)).toEqual(before);
      expect(before.verified).toBe(false);
      expect((await login(email, VICTIM_PASSWORD)).status).toBe(403);
      // The link is not spent: the browser that signed up still verifies with it.
      expect((await open(signedUpIn, token)).status).toBe(200);
    });

    it('ties several signups from one browser to it (the pre-auth cookie is kept, not replaced)', async () => {
      const one = browser();
      const first = await signup(one, uniqueEmail('same-browser-a'), VICTIM_PASSWORD);
      const emailB = uniqueEmail('same-browser-b');
      const second = await signup(one, emailB, VICTIM_PASSWORD);
      expect(signupBrowserCookieOf(second)).toBe(signupBrowserCookieOf(first));
      const [token] = await links(emailB);
      expect((await open(one, token)).status).toBe(200);
    });

    it('ends the other pending signups of the account when one is verified (their links answer 400)', async () => {
      const email = uniqueEmail('ends');
      const a = browser();
      const b = browser();
      await signup(a, email, VICTIM_PASSWORD);
      await signup(b, email, ATTACKER_PASSWORD);
      const [tokenA, tokenB] = await links(email);
      expect((await open(a, tokenA)).status).toBe(200);

      expect((await open(b, tokenB)).body).toEqual(INVALID_LINK);
      expect((await confirm(b, tokenB, ATTACKER_PASSWORD)).status).toBe(400);
      expect((await open(a, tokenA)).status).toBe(400);
      const rows = await t.dataSource.query<{ open: string }[]>(
        `SELECT count(*) AS open FROM pending_signups WHERE user_id = $1 AND ended_at IS NULL`,
        [(await account(email)).id],
      );
      expect(Number(rows[0].open)).toBe(0);
      expect(await me(b)).toBe(401);
    });

    it('answers 400 for an unknown, spent or expired link, whoever asks and whatever password', async () => {
      const email = uniqueEmail('dead');
      const owner = browser();
      await signup(owner, email, VICTIM_PASSWORD);
      await signup(owner, email, VICTIM_PASSWORD);
      const [spent, expired] = await links(email);
      await t.dataSource.query(
        `UPDATE pending_signups SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
        [hashToken(expired)],
      );
      expect((await open(owner, spent)).status).toBe(200);
      await owner.post('/api/auth/logout').set('Origin', t.origin).expect(200);
      const unknown = 'Q'.repeat(43);

      for (const token of [unknown, spent, expired]) {
        for (const who of [owner, browser(), t.http()]) {
          const opened = await open(who, token);
          expect(opened.status).toBe(400);
          expect(opened.body).toEqual(INVALID_LINK);
          expect(sessionCookieOf(opened)).toBeUndefined();
          const confirmed = await confirm(who, token, VICTIM_PASSWORD);
          expect(confirmed.status).toBe(400);
          expect(confirmed.body).toEqual(INVALID_LINK);
        }
      }
    });

    it('a password reset ends the pending signups: their links answer 400 and never set a password', async () => {
      const email = uniqueEmail('reset-ends');
      const attacker = browser();
      await signup(attacker, email, ATTACKER_PASSWORD);
      const [token] = await links(email);
      await t.http().post('/api/auth/forgot-password').set('Origin', t.origin).send({ email }).expect(200);
      const reset = tokenOf(await latestLink(t, email, 'reset-password'));
      await t
        .http()
        .post(`/api/auth/reset-password/${reset}`)
        .set('Origin', t.origin)
        .send({ password: VICTIM_PASSWORD })
        .expect(200);
      expect((await open(attacker, token)).body).toEqual(INVALID_LINK);
      expect((await login(email, ATTACKER_PASSWORD)).status).toBe(401);
      expect((await login(email, VICTIM_PASSWORD)).status).toBe(200);
    });
  });

  describe('POST /api/auth/verify-email/:token (the password step)', () => {
    it('verifies and signs in another browser with the password submitted with that signup', async () => {
      const email = uniqueEmail('step');
      await signup(browser(), email, VICTIM_PASSWORD);
      const [token] = await links(email);
      const phone = browser();
      expect((await open(phone, token)).status).toBe(409);

      const response = await confirm(phone, token, VICTIM_PASSWORD);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(VERIFIED);
      expect(sessionCookieOf(response)).toBeDefined();
      expect(await me(phone)).toBe(200);
      expect((await account(email)).verified).toBe(true);
      expect((await confirm(browser(), token, VICTIM_PASSWORD)).body).toEqual(INVALID_LINK);
      expect((await login(email, VICTIM_PASSWORD)).status).toBe(200);
    });

    it('refuses a wrong password with 400 INVALID_CREDENTIALS, changes nothing, and throttles like login', async () => {
      const email = uniqueEmail('guess');
      const owner = browser();
      await signup(owner, email, VICTIM_PASSWORD);
      const [token] = await links(email);
      const before = await account(email);
      const guesser = browser();
      for (let i = 0; i < 5; i += 1) {
        const wrong = await confirm(guesser, token, `Guess!pass${i}`);
        expect(wrong.status).toBe(400);
        expect(wrong.body).toEqual({
          error: 'That is not the password chosen when signing up with this link.',
          code: 'INVALID_CREDENTIALS',
        });
        expect(sessionCookieOf(wrong)).toBeUndefined();
      }
      // Like login after 5 failures for one address: refused before the password is even checked.
      const blocked = await confirm(guesser, token, VICTIM_PASSWORD);
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe('RATE_LIMITED');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await login(email, VICTIM_PASSWORD)).status).toBe(429);
      expect(await me(guesser)).toBe(401);
      expect(await account(email)).toEqual(before);
      // The link itself is intact: the browser that signed up still verifies with it.
      expect((await open(owner, token)).status).toBe(200);
    });

    it('validates the body: a non-string password is a 400 naming it', async () => {
      const email = uniqueEmail('shape');
      await signup(browser(), email, VICTIM_PASSWORD);
      const [token] = await links(email);
      for (const password of [undefined, 12345, ['Victim!pass1'], { $ne: '' }]) {
        const response = await confirm(browser(), token, password);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: 'Password is required.', code: 'VALIDATION_FAILED' });
      }
      expect((await account(email)).verified).toBe(false);
    });
  });

  describe('POST /api/auth/signup', () => {
    it('sets the pre-auth cookie (HttpOnly, SameSite=Lax, 24 h, /api/auth) on every answer, account or not', async () => {
      const verified = uniqueEmail('known');
      const known = browser();
      await signup(known, verified, VICTIM_PASSWORD);
      expect((await open(known, (await links(verified))[0])).status).toBe(200);

      for (const email of [verified, uniqueEmail('unknown')]) {
        const response = await t
          .http()
          .post('/api/auth/signup')
          .set('Origin', t.origin)
          .send({ email, password: ATTACKER_PASSWORD });
        expect(response.status).toBe(201);
        expect(response.body).toEqual({ message: SIGNUP_MESSAGE });
        const header = ([] as string[]).concat(response.headers['set-cookie'] as string[] | string);
        const cookie = header.find((c) => c.startsWith('botsmith.signup='));
        expect(cookie).toMatch(/^botsmith\.signup=[A-Za-z0-9_-]{43}; /);
        expect(cookie).toContain('Max-Age=86400');
        expect(cookie).toContain('Path=/api/auth');
        expect(cookie).toContain('HttpOnly');
        expect(cookie).toContain('SameSite=Lax');
        expect(cookie).not.toContain('Secure');
      }
    });
  });
});

describe('pending signups behind https', () => {
  it('marks the pre-auth cookie Secure when PUBLIC_URL is https', async () => {
    const t = await startTestApp({ PUBLIC_URL: 'https://botsmith.example' });
    try {
      const response = await t
        .http()
        .post('/api/auth/signup')
        .set('Origin', t.origin)
        .send({ email: uniqueEmail('secure'), password: VICTIM_PASSWORD });
      expect(response.status).toBe(201);
      const header = ([] as string[]).concat(response.headers['set-cookie'] as string[] | string);
      expect(header.find((c) => c.startsWith('botsmith.signup='))).toMatch(/; Secure/);
    } finally {
      await t.close();
    }
  });
});

describe('upgrade: verification links mailed before pending signups existed', () => {
  it('move over with the account password and keep working through the password step', async () => {
    const t = await startTestApp();
    try {
      // Each query runner is released before the app's own queries: the embedded database has
      // one connection, so a runner held across createUser would wait for itself.
      const migration = new PendingSignups1796100000000();
      const migrate = async (step: 'up' | 'down') => {
        const runner = t.dataSource.createQueryRunner();
        try {
          await migration[step](runner);
        } finally {
          await runner.release();
        }
      };
      await migrate('down');
      const user = await createUser(t, { verified: false, password: VICTIM_PASSWORD });
      const live = 'L'.repeat(43);
      const stale = 'S'.repeat(43);
      await t.dataSource.query(
        `INSERT INTO auth_tokens (user_id, purpose, token_hash, expires_at) VALUES
           ($1, 'verify-email', $2, now() + interval '1 hour'), ($1, 'verify-email', $3, now() - interval '1 hour')`,
        [user.id, hashToken(live), hashToken(stale)],
      );
      await migrate('up');

      const moved = await t.dataSource.query<
        { token_hash: string; browser_hash: string | null; password_hash: string }[]
      >(`SELECT token_hash, browser_hash, password_hash FROM pending_signups WHERE user_id = $1`, [user.id]);
      expect(moved).toEqual([{ token_hash: hashToken(live), browser_hash: null, password_hash: user.passwordHash }]);
      const left = await t.dataSource.query<{ n: string }[]>(
        `SELECT count(*) AS n FROM auth_tokens WHERE purpose = 'verify-email'`,
      );
      expect(Number(left[0].n)).toBe(0);

      const agent = t.agent();
      expect((await agent.get(`/api/auth/verify-email/${live}`)).status).toBe(409);
      const confirmed = await agent
        .post(`/api/auth/verify-email/${live}`)
        .set('Origin', t.origin)
        .send({ password: VICTIM_PASSWORD });
      expect(confirmed.status).toBe(200);
      expect((await agent.get('/api/user/me')).status).toBe(200);
      expect((await t.http().get(`/api/auth/verify-email/${stale}`)).status).toBe(400);
    } finally {
      await t.close();
    }
  });
});
