import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { ConfigValidationError } from '../../src/config/environment.js';
import { UsersService } from '../../src/modules/users/users.service.js';
import { createUser, signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PRODUCTION = { NODE_ENV: 'production', SESSION_SECRET: 'p'.repeat(48) };

/**
 * A production start (NODE_ENV=production) through the real app: stand-ins only when asked for.
 * Passport keeps its session serializer process-wide (the first app started in a process keeps
 * answering), so only the first app here signs in over HTTP; the later ones are asked directly.
 */
describe('a production start', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    jest.restoreAllMocks();
    await t?.close();
    t = undefined;
  });

  it('is refused on test-mode payments and the mail outbox, naming the variables', async () => {
    const attempt = startTestApp(PRODUCTION);
    await expect(attempt).rejects.toThrow(ConfigValidationError);
    await expect(startTestApp(PRODUCTION)).rejects.toThrow(
      /NODE_ENV=production needs real payments and mail: set STRIPE_SECRET_KEY .* and SMTP_URL .*, or set ALLOW_DEMO_ADAPTERS=true/,
    );
  });

  it('runs as a demo with ALLOW_DEMO_ADAPTERS=true and tells the dashboard (demoMode)', async () => {
    t = await startTestApp({ ...PRODUCTION, ALLOW_DEMO_ADAPTERS: 'true' });
    const { agent } = await signedInAgent(t);
    const me = await agent.get('/api/user/me');
    expect(me.status).toBe(200);
    expect(me.body.demoMode).toBe(true);
  });

  it('is not a demo with real payments, and warns once at start about an sk_test_ key', async () => {
    const warnings: string[] = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
    t = await startTestApp({
      ...PRODUCTION,
      STRIPE_SECRET_KEY: 'sk_test_51demo',
      STRIPE_WEBHOOK_SECRET: 'whsec_demo',
      STRIPE_PRICE_ID: 'price_demo',
      SMTP_URL: 'smtp://127.0.0.1:9',
    });
    expect(warnings.filter((w) => w.includes('sk_test_'))).toEqual([
      'STRIPE_SECRET_KEY is a test key (sk_test_) in production: Stripe takes no real payments. Use an sk_live_ key.',
    ]);
    expect(t.app.get(UsersService).toMe(await createUser(t)).demoMode).toBe(false);
  });

  it('outside production the dashboard is not told it is a demo', async () => {
    t = await startTestApp();
    expect(t.app.get(UsersService).toMe(await createUser(t))).toMatchObject({ demoMode: false, hasPaid: true });
  });
});
