import { REQUEST_BODY_MAX_BYTES } from '../../src/common/constants.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('foundation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /api/health', () => {
    it('reports the database up, on the engine this run was meant to use', async () => {
      const response = await t.http().get('/api/health').expect(200);
      expect(response.body).toMatchObject({ status: 'ok', database: { status: 'up' } });
      expect(response.body.database.engine).toBe(process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite');
    });
  });

  describe('errors', () => {
    it('answers an unknown API path with 404 {error, code}', async () => {
      const response = await t.http().get('/api/no-such-thing').expect(404);
      expect(response.body).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
    });

    it('answers malformed JSON with 400 INVALID_JSON and no stack', async () => {
      const response = await t
        .http()
        .post('/api/auth/login')
        .set('Content-Type', 'application/json')
        .send('{"email": ')
        .expect(400);
      expect(response.body).toEqual({ error: 'The request body is not valid JSON.', code: 'INVALID_JSON' });
      expect(JSON.stringify(response.body)).not.toMatch(/at .*\.js/);
    });

    it('refuses a body over the size limit with 413', async () => {
      const response = await t
        .http()
        .post('/api/auth/login')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(REQUEST_BODY_MAX_BYTES) }))
        .expect(413);
      expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('refuses unknown fields with 400 naming the field', async () => {
      const response = await t
        .http()
        .post('/api/auth/login')
        .send({ email: 'a@example.com', password: 'x', admin: true })
        .expect(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.error).toMatch(/admin/);
    });

    it('keeps private routes closed without a session (deny by default)', async () => {
      const response = await t.http().get('/api/user/me').expect(401);
      expect(response.body).toEqual({ error: 'Please sign in.', code: 'UNAUTHORIZED' });
    });
  });

  describe('security headers', () => {
    it('sets helmet headers and hides the framework', async () => {
      const response = await t.http().get('/api/health');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['x-powered-by']).toBeUndefined();
    });
  });
});
