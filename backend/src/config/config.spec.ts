import { buildConfig, configWarnings, isDemoMode } from './config.js';
import { ConfigValidationError } from './environment.js';

/** What a production start needs besides the adapters: a session secret. */
const PRODUCTION = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) };
const STRIPE = { STRIPE_SECRET_KEY: 'sk_live_123', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_PRICE_ID: 'price_1' };
const SMTP = { SMTP_URL: 'smtps://mailer:mail-password@smtp.example.com:465' };

function failure(env: NodeJS.ProcessEnv): string {
  try {
    buildConfig(env, '/repo');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('configuration', () => {
  it('builds the embedded defaults from an empty environment', () => {
    const config = buildConfig({}, '/repo');
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.dataDir).toBe('/repo/data');
    expect(config.database.url).toBeUndefined();
    expect(config.stripe).toBeUndefined();
    expect(config.openai).toBeUndefined();
    expect(config.s3).toBeUndefined();
  });

  it('gives new bots a $10 monthly budget unless DEFAULT_BOT_BUDGET_DOLLARS says otherwise (0 = no limit)', () => {
    expect(buildConfig({}, '/repo').defaultBotBudgetDollars).toBe(10);
    expect(buildConfig({ DEFAULT_BOT_BUDGET_DOLLARS: '25' }, '/repo').defaultBotBudgetDollars).toBe(25);
    expect(buildConfig({ DEFAULT_BOT_BUDGET_DOLLARS: '0' }, '/repo').defaultBotBudgetDollars).toBe(0);
    for (const bad of ['-1', '2.5', 'ten', '1000001']) {
      expect(() => buildConfig({ DEFAULT_BOT_BUDGET_DOLLARS: bad }, '/repo')).toThrow(/- DEFAULT_BOT_BUDGET_DOLLARS: /);
    }
  });

  it('switches on production adapters when their variables are present', () => {
    const config = buildConfig(
      {
        DATABASE_URL: 'postgresql://u@db:5432/botsmith',
        STRIPE_SECRET_KEY: 'sk_test_123',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc',
        STRIPE_PRICE_ID: 'price_123',
        OPENAI_API_KEY: 'sk-abc',
        OPENAI_MODEL_MAP: 'gpt-3.5-turbo=llama3.1:8b,gpt-4o=gpt-4.1',
        PORT: '8080',
      },
      '/repo',
    );
    expect(config.database.url).toBe('postgresql://u@db:5432/botsmith');
    expect(config.stripe?.secretKey).toBe('sk_test_123');
    expect(config.openai?.modelMap).toEqual({ 'gpt-3.5-turbo': 'llama3.1:8b', 'gpt-4o': 'gpt-4.1' });
    expect(config.port).toBe(8080);
  });

  it('switches retrieval to hybrid with OPENAI_EMBEDDING_MODEL, through the OpenAI key and server', () => {
    expect(buildConfig({ OPENAI_API_KEY: 'sk-abc' }, '/repo').embeddings).toBeUndefined();
    const config = buildConfig(
      {
        OPENAI_API_KEY: 'sk-abc',
        OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
        OPENAI_EMBEDDING_MODEL: 'nomic-embed-text:v1.5',
        OPENAI_EMBEDDING_DIMENSIONS: '256',
      },
      '/repo',
    );
    expect(config.embeddings).toEqual({
      apiKey: 'sk-abc',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'nomic-embed-text:v1.5',
      dimensions: 256,
      timeoutMs: 60_000,
      maxRetries: 2,
    });
  });

  it('refuses an embeddings model without a key, and a bad dimension count', () => {
    expect(() => buildConfig({ OPENAI_EMBEDDING_MODEL: 'text-embedding-3-small' }, '/repo')).toThrow(
      /- OPENAI_EMBEDDING_MODEL: needs OPENAI_API_KEY/,
    );
    expect(() =>
      buildConfig({ OPENAI_API_KEY: 'k', OPENAI_EMBEDDING_MODEL: 'm', OPENAI_EMBEDDING_DIMENSIONS: '0' }, '/repo'),
    ).toThrow(/- OPENAI_EMBEDDING_DIMENSIONS: /);
    expect(() => buildConfig({ OPENAI_API_KEY: 'k', OPENAI_EMBEDDING_MODEL: 'a model' }, '/repo')).toThrow(
      /- OPENAI_EMBEDDING_MODEL: OPENAI_EMBEDDING_MODEL must be a model id/,
    );
  });

  it('refuses a Stripe key without the webhook secret and the price, naming both', () => {
    const attempt = () => buildConfig({ STRIPE_SECRET_KEY: 'sk_live_123' }, '/repo');
    expect(attempt).toThrow(ConfigValidationError);
    expect(attempt).toThrow(/- STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY/);
    expect(attempt).toThrow(/- STRIPE_PRICE_ID: STRIPE_PRICE_ID is required with STRIPE_SECRET_KEY/);
    expect(() => buildConfig({ STRIPE_SECRET_KEY: 'sk_live_123', STRIPE_PRICE_ID: 'price_1' }, '/repo')).toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
    expect(
      buildConfig(
        { STRIPE_SECRET_KEY: 'sk_live_123', STRIPE_PRICE_ID: 'price_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' },
        '/repo',
      ).stripe?.priceId,
    ).toBe('price_1');
  });

  it('stops with one sentence naming every bad variable', () => {
    const attempt = () => buildConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SESSION_SECRET: 'short' }, '/repo');
    expect(attempt).toThrow(ConfigValidationError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/will not start/);
      expect(message).toMatch(/- PORT:/);
      expect(message).toMatch(/- DATABASE_URL: DATABASE_URL must start with postgres/);
      expect(message).toMatch(/- SESSION_SECRET:/);
    }
  });

  describe('production refuses stand-ins unless told', () => {
    it('refuses test-mode payments and the mail outbox, naming both variables and the way out', () => {
      const message = failure(PRODUCTION);
      expect(message).toMatch(/will not start/);
      expect(message).toContain(
        '- NODE_ENV=production needs real payments and mail: set STRIPE_SECRET_KEY (without it payments are the ' +
          'built-in test mode) and SMTP_URL (without it mail is only written to the outbox folder), or set ' +
          'ALLOW_DEMO_ADAPTERS=true to run a demo with no real charges.',
      );
    });

    it('names only what is missing', () => {
      const noMail = failure({ ...PRODUCTION, ...STRIPE });
      expect(noMail).toContain('set SMTP_URL (without it mail is only written to the outbox folder), or set');
      expect(noMail).not.toContain('STRIPE_SECRET_KEY');
      const noPayments = failure({ ...PRODUCTION, ...SMTP });
      expect(noPayments).toContain('set STRIPE_SECRET_KEY (without it payments are the built-in test mode), or set');
      expect(noPayments).not.toContain('SMTP_URL');
    });

    it('starts with real adapters, and is not in demo mode', () => {
      const config = buildConfig({ ...PRODUCTION, ...STRIPE, ...SMTP }, '/repo');
      expect(config.env).toBe('production');
      expect(config.allowDemoAdapters).toBe(false);
      expect(isDemoMode(config)).toBe(false);
    });

    it('starts a demo with ALLOW_DEMO_ADAPTERS=true, and says so (demo mode)', () => {
      const config = buildConfig({ ...PRODUCTION, ALLOW_DEMO_ADAPTERS: 'true' }, '/repo');
      expect(config.stripe).toBeUndefined();
      expect(config.mail.smtpUrl).toBeUndefined();
      expect(isDemoMode(config)).toBe(true);
      // Real payments with the outbox allowed: charges are real, so no demo bar.
      expect(isDemoMode(buildConfig({ ...PRODUCTION, ...STRIPE, ALLOW_DEMO_ADAPTERS: 'true' }, '/repo'))).toBe(false);
      expect(failure({ ...PRODUCTION, ALLOW_DEMO_ADAPTERS: 'yes' })).toMatch(
        /- ALLOW_DEMO_ADAPTERS: ALLOW_DEMO_ADAPTERS must be true or false \(got "yes"\)/,
      );
      expect(failure({ ...PRODUCTION, ALLOW_DEMO_ADAPTERS: 'false' })).toMatch(/NODE_ENV=production needs/);
    });

    it('needs nothing outside production (the zero-setup start)', () => {
      for (const NODE_ENV of ['development', 'test', undefined]) {
        const config = buildConfig({ NODE_ENV }, '/repo');
        expect(isDemoMode(config)).toBe(false);
      }
    });
  });

  describe('start-up warnings', () => {
    it('warns once about an sk_test_ key in production', () => {
      const config = buildConfig({ ...PRODUCTION, ...STRIPE, ...SMTP, STRIPE_SECRET_KEY: 'sk_test_abc' }, '/repo');
      expect(configWarnings(config)).toEqual([
        'STRIPE_SECRET_KEY is a test key (sk_test_) in production: Stripe takes no real payments. Use an sk_live_ key.',
      ]);
    });

    it('says nothing about a live key, or a test key outside production', () => {
      expect(configWarnings(buildConfig({ ...PRODUCTION, ...STRIPE, ...SMTP }, '/repo'))).toEqual([]);
      expect(configWarnings(buildConfig({ ...STRIPE, STRIPE_SECRET_KEY: 'sk_test_abc' }, '/repo'))).toEqual([]);
      expect(configWarnings(buildConfig({}, '/repo'))).toEqual([]);
    });
  });

  describe('errors never echo a secret', () => {
    it('names each bad variable and what is wrong, without its value', () => {
      const secrets = {
        SESSION_SECRET: 'hunter2-session',
        STRIPE_SECRET_KEY: 'rk_live_hunter2stripe',
        STRIPE_WEBHOOK_SECRET: 'wh_hunter2webhook',
        STRIPE_PRICE_ID: 'price_1',
        DATABASE_URL: 'mysql://admin:hunter2db@db.internal/botsmith',
        SMTP_URL: 'http://mailer:hunter2smtp@smtp.internal',
        REDIS_URL: 'http://:hunter2redis@redis.internal',
        PUBLIC_URL: 'not a url hunter2public',
        OPENAI_BASE_URL: 'user:hunter2openai@nowhere',
        S3_ENDPOINT: 'minio:hunter2s3@nowhere',
        STRIPE_API_URL: 'stripe:hunter2api@nowhere',
      };
      const message = failure(secrets);
      expect(message).not.toMatch(/hunter2/);
      expect(message).not.toMatch(/\(got /);
      for (const variable of Object.keys(secrets).filter((name) => name !== 'STRIPE_PRICE_ID')) {
        expect(message).toMatch(new RegExp(`^  - ${variable}: ${variable} must`, 'm'));
      }
    });

    it('still repeats harmless values', () => {
      const message = failure({ PORT: 'eighty', LOG_LEVEL: 'loud', NODE_ENV: 'staging' });
      expect(message).toContain('(got "eighty")');
      expect(message).toContain('(got "loud")');
      expect(message).toContain('(got "staging")');
    });
  });

  describe('TRUST_PROXY', () => {
    it('defaults to loopback (the app on its own, or a proxy on the same machine)', () => {
      expect(buildConfig({}, '/repo').trustProxy).toEqual(['loopback']);
    });

    it('takes a hop count, or a list of addresses, CIDRs and express range names', () => {
      expect(buildConfig({ TRUST_PROXY: '1' }, '/repo').trustProxy).toBe(1);
      expect(buildConfig({ TRUST_PROXY: '0' }, '/repo').trustProxy).toBe(0);
      expect(buildConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,loopback,fd00::/8,::1' }, '/repo').trustProxy).toEqual(
        ['10.0.0.0/8', '192.168.1.5', 'loopback', 'fd00::/8', '::1'],
      );
    });

    it.each([
      'true',
      'nginx',
      '10.0.0.0/33',
      '::/129',
      '10.0.0.1/8/2',
      '1.2.3',
      'fe80::1%eth0',
      '10.0.0.1,',
      '-1',
      '100',
    ])('refuses %j with a sentence', (value) => {
      expect(failure({ TRUST_PROXY: value })).toContain(
        '- TRUST_PROXY: TRUST_PROXY must be a hop count (1 behind one reverse proxy) or a comma-separated list of ' +
          'proxy addresses or CIDRs (e.g. 10.0.0.0/8,loopback)',
      );
    });
  });

  describe('CRAWL_ALLOW_PRIVATE', () => {
    it('keeps the crawler off private networks unless set to true', () => {
      expect(buildConfig({}, '/repo').crawl.allowPrivate).toBe(false);
      expect(buildConfig({ CRAWL_ALLOW_PRIVATE: 'false' }, '/repo').crawl.allowPrivate).toBe(false);
      expect(buildConfig({ CRAWL_ALLOW_PRIVATE: 'true' }, '/repo').crawl.allowPrivate).toBe(true);
    });

    it('refuses anything but true or false', () => {
      expect(failure({ CRAWL_ALLOW_PRIVATE: 'yes' })).toContain(
        '- CRAWL_ALLOW_PRIVATE: CRAWL_ALLOW_PRIVATE must be true or false (got "yes")',
      );
    });

    it('names the product in the crawler user agent', () => {
      expect(buildConfig({ PUBLIC_URL: 'https://app.botsmith.dev/' }, '/repo').crawl.userAgent).toBe(
        'BotsmithBot/1.0 (+https://app.botsmith.dev)',
      );
    });
  });

  it('limits account requests per client IP to SIGNUP_IP_RATE_LIMIT an hour (default 20), a positive integer', () => {
    expect(buildConfig({}, '/repo').accountRequestsPerIpPerHour).toBe(20);
    expect(buildConfig({ SIGNUP_IP_RATE_LIMIT: '50' }, '/repo').accountRequestsPerIpPerHour).toBe(50);
    for (const bad of ['0', '-3', 'many', '2.5']) {
      expect(() => buildConfig({ SIGNUP_IP_RATE_LIMIT: bad }, '/repo')).toThrow(/- SIGNUP_IP_RATE_LIMIT:/);
    }
  });

  it('reads the actions variables: private addresses off by default, the key 32+ characters and never echoed', () => {
    expect(buildConfig({}, '/repo').actions).toEqual({ allowPrivate: false, encryptionKey: undefined });
    const key = 'k'.repeat(32);
    expect(buildConfig({ ACTIONS_ALLOW_PRIVATE: 'true', ACTIONS_ENCRYPTION_KEY: key }, '/repo').actions).toEqual({
      allowPrivate: true,
      encryptionKey: key,
    });
    expect(() => buildConfig({ ACTIONS_ALLOW_PRIVATE: 'yes' }, '/repo')).toThrow(/- ACTIONS_ALLOW_PRIVATE:/);
    const message = failure({ ACTIONS_ENCRYPTION_KEY: 'hunter2-short-key' });
    expect(message).toMatch(/- ACTIONS_ENCRYPTION_KEY: ACTIONS_ENCRYPTION_KEY must be at least 32 characters long/);
    expect(message).not.toContain('hunter2');
  });
});
