import { SESSION_COOKIE } from '../../src/modules/auth/sessions.js';
import { createUser, signedInAgent, TEST_PASSWORD } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createChatBot } from '../support/chat-factories.js';

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
      demoMode: false,
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

  /** The stored session row of a signed-in agent's cookie. */
  async function sessionRow(cookie: string) {
    const sid = decodeURIComponent(cookie.split(';', 1)[0].split('=')[1]).slice(2).split('.')[0];
    const rows = await t.dataSource.query<{ sess: { authenticatedAt?: number }; expire: Date }[]>(
      `SELECT sess, expire FROM sessions WHERE sid = $1`,
      [sid],
    );
    return { sid, row: rows[0] };
  }

  it('ends a session past its absolute lifetime even while it is in use', async () => {
    const user = await createUser(t);
    const agent = t.agent();
    const login = await agent.post('/api/auth/login').send({ email: user.email, password: TEST_PASSWORD }).expect(200);
    const { sid, row } = await sessionRow(sessionCookie(login.headers['set-cookie'])!);
    expect(typeof row?.sess.authenticatedAt).toBe('number');
    await agent.get('/api/user/me').expect(200);
    const tooOld = Date.now() - (t.config.session.absoluteHours * 3_600_000 + 60_000);
    await t.dataSource.query(
      `UPDATE sessions SET sess = jsonb_set(sess::jsonb, '{authenticatedAt}', to_jsonb($2::bigint))::json WHERE sid = $1`,
      [sid, tooOld],
    );
    expect((await agent.get('/api/user/me')).status).toBe(401);
    expect(await t.dataSource.query(`SELECT sid FROM sessions WHERE sid = $1`, [sid])).toEqual([]);
  });

  it('ends a session idle past its idle lifetime (the stored expiry), and each request pushes it forward', async () => {
    const user = await createUser(t);
    const agent = t.agent();
    const login = await agent.post('/api/auth/login').send({ email: user.email, password: TEST_PASSWORD }).expect(200);
    const { sid, row } = await sessionRow(sessionCookie(login.headers['set-cookie'])!);
    const idleMs = t.config.session.idleMinutes * 60_000;
    expect(Math.abs(new Date(row.expire).getTime() - (Date.now() + idleMs))).toBeLessThan(60_000);
    await t.dataSource.query(`UPDATE sessions SET expire = now() + interval '1 minute' WHERE sid = $1`, [sid]);
    await agent.get('/api/user/me').expect(200);
    const [touched] = await t.dataSource.query<{ expire: Date }[]>(`SELECT expire FROM sessions WHERE sid = $1`, [sid]);
    expect(new Date(touched.expire).getTime()).toBeGreaterThan(Date.now() + idleMs - 60_000);
    await t.dataSource.query(`UPDATE sessions SET expire = now() - interval '1 second' WHERE sid = $1`, [sid]);
    expect((await agent.get('/api/user/me')).status).toBe(401);
  });

  it("the widget's API neither reads nor renews a session; the dashboard's API still does", async () => {
    const user = await createUser(t);
    const agent = t.agent();
    const login = await agent.post('/api/auth/login').send({ email: user.email, password: TEST_PASSWORD }).expect(200);
    const { sid } = await sessionRow(sessionCookie(login.headers['set-cookie'])!);
    const bot = await createChatBot(t, user.id);
    const soon = `UPDATE sessions SET expire = now() + interval '1 minute' WHERE sid = $1`;
    const expiry = async () =>
      new Date(
        (await t.dataSource.query<{ expire: Date }[]>(`SELECT expire FROM sessions WHERE sid = $1`, [sid]))[0].expire,
      );
    await t.dataSource.query(soon, [sid]);
    const before = await expiry();

    // The owner's own browser, cookie and all, on the visitor routes: answered as any visitor.
    const chat = await agent.post('/api/chat').send({ botId: bot.id, prompt: 'When do you open?' });
    expect(chat.status).toBe(200);
    expect(sessionCookie(chat.headers['set-cookie'])).toBeUndefined();
    const face = await agent.get(`/api/widget/bots/${bot.id}`);
    expect(face.status).toBe(200);
    expect(sessionCookie(face.headers['set-cookie'])).toBeUndefined();
    expect((await expiry()).getTime()).toBe(before.getTime());

    // The dashboard's routes still read and renew it.
    const me = await agent.get('/api/user/me');
    expect(me.status).toBe(200);
    expect(sessionCookie(me.headers['set-cookie'])).toBeDefined();
    expect((await expiry()).getTime()).toBeGreaterThan(before.getTime());
  });
});

describe('sessions behind https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://botsmith.example' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('marks the cookie Secure when served over https (TLS ended at the local proxy)', async () => {
    const user = await createUser(t);
    const response = await t
      .http()
      .post('/api/auth/login')
      .set('X-Forwarded-Proto', 'https')
      .set('Origin', 'https://botsmith.example')
      .send({ email: user.email, password: TEST_PASSWORD });
    expect(response.status).toBe(200);
    const cookie = sessionCookie(response.headers['set-cookie']);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });
});
