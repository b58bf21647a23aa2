import { SESSION_COOKIE } from '../../src/modules/auth/sessions.js';
import { createUser, signedInAgent, TEST_PASSWORD } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

function sessionCookie(setCookie: string[] | string | undefined): string | undefined {
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
}

describe('sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('signs in with the right password and sets an HttpOnly, SameSite=Lax cookie', async () => {
    const user = await createUser(t);
    const response = await t
      .http()
      .post('/api/auth/login')
      .send({ email: user.email.toUpperCase(), password: TEST_PASSWORD });
    expect(response.status).toBe(200);
    const cookie = sessionCookie(response.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('answers /api/user/me for the signed-in owner without secrets', async () => {
    const { agent, user } = await signedInAgent(t);
    const response = await agent.get('/api/user/me').expect(200);
    expect(response.body).toEqual({
      id: user.id,
      email: user.email,
      hasPaid: true,
      stripeCustomerId: user.stripeCustomerId,
      subscriptionItemId: user.subscriptionItemId,
    });
    expect(JSON.stringify(response.body)).not.toContain('argon2');
  });

  it('refuses a wrong password and an unknown e-mail with the same 401', async () => {
    const user = await createUser(t);
    const wrong = await t.http().post('/api/auth/login').send({ email: user.email, password: 'Wrong!pass1' });
    const unknown = await t
      .http()
      .post('/api/auth/login')
      .send({ email: 'nobody@example.com', password: 'Wrong!pass1' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(sessionCookie(wrong.headers['set-cookie'])).toBeUndefined();
  });

  it('ends the session at logout: the old cookie no longer works', async () => {
    const { agent } = await signedInAgent(t);
    await agent.get('/api/user/me').expect(200);
    await agent.post('/api/auth/logout').set('Origin', t.origin).expect(200);
    await agent.get('/api/user/me').expect(401);
  });
});
