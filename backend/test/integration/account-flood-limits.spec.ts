import { PASSWORD_HASHING } from '../../src/modules/auth/passwords.js';
import { latestLink, settle, tokenOf } from '../support/account-helpers.js';
import { createUser, uniqueEmail } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'Flood!pass1';

/**
 * Signup, forgot-password and reset-password share one per-client-network bucket
 * (SIGNUP_IP_RATE_LIMIT, default 20 an hour), counted before any password is hashed.
 * Requests come from loopback, which the app trusts as a proxy, so X-Forwarded-For names the client.
 */
describe('account requests per client IP (default SIGNUP_IP_RATE_LIMIT)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SIGNUP_IP_RATE_LIMIT: '' });
  });
  afterAll(async () => {
    await t.close();
  });

  const signup = (ip: string, email = uniqueEmail('flood')) =>
    t
      .http()
      .post('/api/auth/signup')
      .set('Origin', t.origin)
      .set('X-Forwarded-For', ip)
      .send({ email, password: PASSWORD });
  const forgot = (ip: string, email: string) =>
    t.http().post('/api/auth/forgot-password').set('Origin', t.origin).set('X-Forwarded-For', ip).send({ email });
  const reset = (ip: string, token: string) =>
    t
      .http()
      .post(`/api/auth/reset-password/${token}`)
      .set('Origin', t.origin)
      .set('X-Forwarded-For', ip)
      .send({ password: PASSWORD });
  const accountsOf = async (email: string) => {
    await settle(t);
    const rows = await t.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM users WHERE email = $1`, [email]);
    return Number(rows[0].n);
  };

  it('refuses the 21st signup from one IP within the hour with 429 and Retry-After, before hashing', async () => {
    const ip = '203.0.113.21';
    for (let i = 0; i < 20; i += 1) expect((await signup(ip)).status).toBe(201);

    const hashesBefore = PASSWORD_HASHING.started;
    const email = uniqueEmail('flood-21st');
    const refused = await signup(ip, email);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'Too many sign-up and password reset requests from your network. Please wait a while and try again.',
      code: 'RATE_LIMITED',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    await settle(t);
    expect(PASSWORD_HASHING.started).toBe(hashesBefore);
    expect(await accountsOf(email)).toBe(0);

    // Another client is unaffected, and the refused one stays refused.
    const other = uniqueEmail('flood-other');
    expect((await signup('198.51.100.22', other)).status).toBe(201);
    expect(await accountsOf(other)).toBe(1);
    expect((await signup(ip)).status).toBe(429);
  });

  it('counts addresses of one IPv6 /64 as one client', async () => {
    for (let i = 0; i < 20; i += 1) expect((await signup(`2001:db8:aa:1::${i + 1}`)).status).toBe(201);
    expect((await signup('2001:db8:aa:1:ffff:ffff:ffff:ffff')).status).toBe(429);
    expect((await signup('2001:db8:aa:2::1')).status).toBe(201);
  });

  it('counts forgot-password and reset-password in the same bucket as signup; a refused reset hashes nothing', async () => {
    const ip = '203.0.113.40';
    const user = await createUser(t);
    expect((await forgot(ip, user.email)).status).toBe(200);
    const token = tokenOf(await latestLink(t, user.email, 'reset-password'));
    for (let i = 0; i < 9; i += 1) expect((await forgot(ip, uniqueEmail('nobody'))).status).toBe(200);
    for (let i = 0; i < 10; i += 1) expect((await signup(ip)).status).toBe(201);

    const hashesBefore = PASSWORD_HASHING.started;
    const refusedReset = await reset(ip, token);
    expect(refusedReset.status).toBe(429);
    expect(refusedReset.body.code).toBe('RATE_LIMITED');
    expect(PASSWORD_HASHING.started).toBe(hashesBefore);
    expect((await forgot(ip, user.email)).status).toBe(429);
    expect((await signup(ip)).status).toBe(429);

    // The link itself is untouched: from another network it still resets the password.
    expect((await reset('198.51.100.41', token)).status).toBe(200);
  });

  it('does not hash for a reset link that does not exist', async () => {
    const hashesBefore = PASSWORD_HASHING.started;
    const forged = await reset('198.51.100.50', 'A'.repeat(43));
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('INVALID_TOKEN');
    expect(PASSWORD_HASHING.started).toBe(hashesBefore);
  });
});
