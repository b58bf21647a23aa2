import { buildConfig } from './config.js';
import { ConfigValidationError } from './environment.js';

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
});
