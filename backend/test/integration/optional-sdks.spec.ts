import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { LlmPort } from '../../src/modules/chat/llm/llm.port.js';
import type { TestApp } from '../support/test-app.js';

/**
 * The SDKs of optional services cost most of the backend's module loading (about 0.85 s of a
 * start on a 2-core machine), so each is imported only when its service is configured or first
 * used (docs/decisions/0016-chat-path-cost.md, "Start-up"). Every import of them from here on is
 * recorded: Jest serves each as the real package through a factory that notes the name, so the
 * app below works as usual and the test sees what it loaded.
 */
const OPTIONAL_SDKS = ['exceljs', '@aws-sdk/client-s3', 'stripe', 'openai', 'ioredis'] as const;
/**
 * Needed by every configuration, but not to start: mail (the outbox). file-type (sniffing uploads)
 * is loaded on first use too, but it is an ES module only, which Jest cannot record this way; the
 * bundle's build checks it instead (backend/scripts/bundle.mjs, LAZY_PACKAGES).
 */
const LOADED_ON_FIRST_USE = ['nodemailer'] as const;
type Sdk = (typeof OPTIONAL_SDKS)[number] | (typeof LOADED_ON_FIRST_USE)[number];

const loaded = new Set<Sdk>();
for (const name of [...OPTIONAL_SDKS, ...LOADED_ON_FIRST_USE]) {
  const real = (): Record<string, unknown> => {
    loaded.add(name);
    return jest.requireActual<Record<string, unknown>>(name);
  };
  // Our code imports them as ES modules; a CommonJS require from a dependency would count too.
  jest.unstable_mockModule(name, () => {
    const actual = real();
    return { ...actual, default: actual.default ?? actual };
  });
  jest.doMock(name, real);
}
// After the mocks, so that every module of the app imports the recording ones.
const { startTestApp } = await import('../support/test-app.js');
const { signedInAgent } = await import('../support/factories.js');
const { mailsTo } = await import('../support/account-helpers.js');
const { LLM } = await import('../../src/modules/chat/llm/llm.port.js');

describe('a start with the default configuration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('loads none of the optional SDKs (exceljs, S3, Stripe, OpenAI, Redis), nor nodemailer', () => {
    expect([...loaded]).toEqual([]);
  });

  it('loads exceljs for the first export and stripe for the first signed webhook', async () => {
    const { agent } = await signedInAgent(t);
    const download = await agent.get('/api/user/logs/download').buffer(true);
    expect(download.status).toBe(200);
    expect(loaded).toEqual(new Set(['exceljs']));

    const forged = await t
      .http()
      .post('/api/billing/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', 't=1,v1=deadbeef')
      .send(JSON.stringify({ id: 'evt_forged', type: 'invoice.paid', data: { object: {} } }));
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(loaded).toEqual(new Set(['exceljs', 'stripe']));
  });

  it('loads nodemailer with the first mail', async () => {
    const { user } = await signedInAgent(t);
    expect(loaded.has('nodemailer')).toBe(false);
    await t.http().post('/api/auth/forgot-password').set('Origin', t.origin).send({ email: user.email }).expect(200);
    expect(await mailsTo(t, user.email)).toHaveLength(1);
    expect(loaded.has('nodemailer')).toBe(true);
  });
});

// Stripe's adapter is not started here: the SDK is already loaded (above), so it would prove nothing.
describe('a start with S3, OpenAI and Redis configured', () => {
  it('loads the S3 and Redis clients at start, and the OpenAI SDK on the first request to the model', async () => {
    expect(loaded.has('@aws-sdk/client-s3') || loaded.has('openai') || loaded.has('ioredis')).toBe(false);
    const t = await startTestApp({
      // Nothing listens on port 9 of loopback: the start calls neither, the model's request is refused.
      S3_BUCKET: 'uploads',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      OPENAI_API_KEY: 'sk-test-local',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_MAX_RETRIES: '0',
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    });
    try {
      expect(loaded.has('@aws-sdk/client-s3')).toBe(true);
      expect(loaded.has('ioredis')).toBe(true);
      expect(loaded.has('openai')).toBe(false);

      const answer = t.app.get<LlmPort>(LLM).complete(
        {
          tier: 'gpt-4o',
          messages: [{ role: 'user', content: 'Hello?' }],
          maxTokens: 50,
          temperature: 0,
          signal: new AbortController().signal,
          grounding: { botName: 'B', passages: [], question: 'Hello?' },
        },
        () => undefined,
      );
      await expect(answer).rejects.toMatchObject({ code: 'UPSTREAM_FAILED' });
      expect(loaded.has('openai')).toBe(true);
    } finally {
      await t.close();
    }
  });
});
