import { isCrossOriginPath } from '../../src/common/origin.guard.js';
import { sessionCookieOf } from '../support/account-helpers.js';
import { createUser, signedInAgent, TEST_PASSWORD } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const REFUSED = {
  error: 'This request was refused because it did not come from the Botsmith site.',
  code: 'ORIGIN_NOT_ALLOWED',
};

describe('Origin check on state-changing requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const deleted = async (userId: number) =>
    (await t.dataSource.query<{ deleted_at: Date | null }[]>(`SELECT deleted_at FROM users WHERE id = $1`, [userId]))[0]
      .deleted_at !== null;

  it('refuses a cross-site DELETE riding the owner cookie, and the account survives', async () => {
    const { agent, user } = await signedInAgent(t);
    const response = await agent.delete('/api/auth/delete-account').set('Origin', 'https://evil.example');
    expect(response.status).toBe(403);
    expect(response.body).toEqual(REFUSED);
    expect(await deleted(user.id)).toBe(false);
    expect((await agent.get('/api/user/me')).status).toBe(200);
  });

  it('refuses a cross-site logout (the session stays), accepts the same-origin one', async () => {
    const { agent } = await signedInAgent(t);
    const forced = await agent.post('/api/auth/logout').set('Origin', 'https://evil.example');
    expect(forced.status).toBe(403);
    expect(forced.body).toEqual(REFUSED);
    expect((await agent.get('/api/user/me')).status).toBe(200);
    expect((await agent.post('/api/auth/logout').set('Origin', t.origin)).status).toBe(200);
    expect((await agent.get('/api/user/me')).status).toBe(401);
  });

  it.each([
    ['another port', 'http://localhost:3001'],
    ['another scheme', 'https://localhost:3000'],
    ['a look-alike host', 'http://localhost:3000.evil.example'],
    ['a sub-domain style prefix', 'http://evil.localhost:3000'],
    ['an opaque origin (sandboxed iframe, data: URL)', 'null'],
    ['garbage', 'not a url'],
  ])('refuses %s as Origin', async (_, origin) => {
    const { agent, user } = await signedInAgent(t);
    const response = await agent.delete('/api/auth/delete-account').set('Origin', origin);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(REFUSED);
    expect(await deleted(user.id)).toBe(false);
  });

  it('falls back to Referer when Origin is absent: own page passes, foreign page is refused', async () => {
    const { agent } = await signedInAgent(t);
    const foreign = await agent.post('/api/auth/logout').set('Referer', 'https://evil.example/page');
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(REFUSED);
    const own = await agent.post('/api/auth/logout').set('Referer', `${t.origin}/dashboard`);
    expect(own.status).toBe(200);
  });

  it('refuses a request with the session cookie and neither Origin nor Referer', async () => {
    const { agent, user } = await signedInAgent(t);
    const response = await agent.delete('/api/auth/delete-account');
    expect(response.status).toBe(403);
    expect(response.body).toEqual(REFUSED);
    expect(await deleted(user.id)).toBe(false);
  });

  it('lets a cookie-less script log in without Origin, but refuses a cross-site login form (login CSRF)', async () => {
    const user = await createUser(t);
    const script = await t.http().post('/api/auth/login').send({ email: user.email, password: TEST_PASSWORD });
    expect(script.status).toBe(200);
    const csrf = await t
      .http()
      .post('/api/auth/login')
      .set('Origin', 'https://evil.example')
      .send({ email: user.email, password: TEST_PASSWORD });
    expect(csrf.status).toBe(403);
    expect(csrf.body).toEqual(REFUSED);
    expect(sessionCookieOf(csrf)).toBeUndefined();
  });

  it('leaves safe methods alone (GET with a foreign Origin still answers)', async () => {
    const { agent } = await signedInAgent(t);
    const response = await agent.get('/api/user/me').set('Origin', 'https://evil.example');
    expect(response.status).toBe(200);
  });

  it('does not apply to the public cross-origin routes (chat, widget, provider webhook)', async () => {
    const { agent } = await signedInAgent(t);
    for (const path of ['/api/chat', '/api/billing/webhook']) {
      const response = await agent.post(path).set('Origin', 'https://customer.example').send({});
      expect(response.body.code).not.toBe('ORIGIN_NOT_ALLOWED');
    }
    expect(isCrossOriginPath('/api/chat')).toBe(true);
    expect(isCrossOriginPath('/api/chat/stream')).toBe(true);
    expect(isCrossOriginPath('/api/widget/bots/1')).toBe(true);
    expect(isCrossOriginPath('/api/billing/webhook')).toBe(true);
    expect(isCrossOriginPath('/api/chatty')).toBe(false);
    expect(isCrossOriginPath('/api/widgets')).toBe(false);
    expect(isCrossOriginPath('/api/billing/webhooks')).toBe(false);
    expect(isCrossOriginPath('/api/auth/delete-account')).toBe(false);
  });
});
