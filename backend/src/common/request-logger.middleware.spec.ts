import { redactPath } from './request-logger.middleware.js';

describe('request log lines', () => {
  it('never contain the secret of an e-mailed link', () => {
    const token = 'q3v9VnS0cXJ0lQp5k1WQx3m7sX0b2eQZ9xkQmJ4rT1s';
    expect(redactPath(`/api/auth/verify-email/${token}`)).toBe('/api/auth/verify-email/[redacted]');
    expect(redactPath(`/api/auth/reset-password/${token}`)).toBe('/api/auth/reset-password/[redacted]');
    expect(redactPath(`/reset-password/${token}`)).toBe('/reset-password/[redacted]');
    expect(redactPath(`/api/auth/VERIFY-Email/${token}`)).toBe('/api/auth/VERIFY-Email/[redacted]');
    expect(redactPath('/api/auth/forgot-password')).toBe('/api/auth/forgot-password');
    expect(redactPath('/api/bots/12')).toBe('/api/bots/12');
  });
});
