import { LOGIN_FAILURE_LIMITS } from '../../src/common/constants.js';
import { createUser, TEST_PASSWORD, uniqueEmail } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The app trusts X-Forwarded-For from loopback (it runs behind a local reverse proxy), so each
 * test speaks from its own documentation-range IP and the per-IP counters do not interfere.
 */
describe('login throttling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  let ipCounter = 0;
  const nextIp = () => `198.51.100.${(ipCounter += 1)}`;
  const login = (email: string, password: string, ip: string) =>
    t.http().post('/api/auth/login').set('Origin', t.origin).set('X-Forwarded-For', ip).send({ email, password });

  it('refuses an e-mail after 5 failures, even with the right password, with 429 and Retry-After', async () => {
    const user = await createUser(t);
    const ip = nextIp();
    for (let i = 0; i < LOGIN_FAILURE_LIMITS.perEmail.limit; i += 1) {
      const failed = await login(user.email, 'Wrong!pass1', ip);
      expect(failed.status).toBe(401);
      expect(failed.body.code).toBe('INVALID_CREDENTIALS');
    }
    const blocked = await login(user.email, TEST_PASSWORD, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      error: 'Too many failed login attempts. Please wait a few minutes and try again.',
      code: 'RATE_LIMITED',
    });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(15 * 60 - 30);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.headers['set-cookie']).toBeUndefined();
    // Same e-mail from another IP, and in another letter case: still blocked (the key is the e-mail).
    expect((await login(user.email.toUpperCase(), TEST_PASSWORD, nextIp())).status).toBe(429);
  });

  it('counts unknown e-mails too, with the same answers (no enumeration through the throttle)', async () => {
    const user = await createUser(t);
    const unknown = uniqueEmail('ghost');
    const ip = nextIp();
    const known: number[] = [];
    const missing: number[] = [];
    for (let i = 0; i <= LOGIN_FAILURE_LIMITS.perEmail.limit; i += 1) {
      known.push((await login(user.email, 'Wrong!pass1', ip)).status);
      missing.push((await login(unknown, 'Wrong!pass1', nextIp())).status);
    }
    expect(known).toEqual([401, 401, 401, 401, 401, 429]);
    expect(missing).toEqual(known);
  });

  it('does not count successful logins, nor block other e-mails from the same IP', async () => {
    const ip = nextIp();
    const user = await createUser(t);
    for (let i = 0; i < LOGIN_FAILURE_LIMITS.perEmail.limit + 3; i += 1) {
      expect((await login(user.email, TEST_PASSWORD, ip)).status).toBe(200);
    }
    const victim = await createUser(t);
    for (let i = 0; i < LOGIN_FAILURE_LIMITS.perEmail.limit; i += 1) await login(victim.email, 'Wrong!pass1', ip);
    expect((await login(victim.email, TEST_PASSWORD, ip)).status).toBe(429);
    expect((await login(user.email, TEST_PASSWORD, ip)).status).toBe(200);
  });

  it('refuses an IP after 20 failures across many e-mails (password spraying); other IPs still log in', async () => {
    const ip = nextIp();
    for (let i = 0; i < LOGIN_FAILURE_LIMITS.perIp.limit; i += 1) {
      expect((await login(uniqueEmail('spray'), 'Spray!pass1', ip)).status).toBe(401);
    }
    const user = await createUser(t);
    const blocked = await login(user.email, TEST_PASSWORD, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(user.email, TEST_PASSWORD, nextIp())).status).toBe(200);
  });

  it('counts an IPv6 client by its /64: new addresses in the same /64 gain nothing, another /64 is not blocked', async () => {
    // Every failure from a different address of one /64 (anyone with IPv6 holds 2^64 of them).
    for (let i = 0; i < LOGIN_FAILURE_LIMITS.perIp.limit; i += 1) {
      const ip = `2001:db8:14:64:${(i + 1).toString(16)}::${i + 7}`;
      expect((await login(uniqueEmail('spray6'), 'Spray!pass1', ip)).status).toBe(401);
    }
    const user = await createUser(t);
    expect((await login(user.email, TEST_PASSWORD, '2001:db8:14:64:ffff:1:2:3')).status).toBe(429);
    expect((await login(user.email, TEST_PASSWORD, '2001:db8:14:65::1')).status).toBe(200);
  });

  it('refuses a sixth forgot-password request for one address (429) and mails at most five', async () => {
    const user = await createUser(t);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await t
        .http()
        .post('/api/auth/forgot-password')
        .set('Origin', t.origin)
        .send({ email: user.email });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.body.code).toBe('RATE_LIMITED');
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
