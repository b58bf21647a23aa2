import { buildConfig } from '../../config/config.js';

/** The mail limits of docs/product.md#mail-consent: defaults, variables, refusals. */
describe('mail limit configuration', () => {
  it('has the documented defaults from an empty environment', () => {
    expect(buildConfig({}, '/repo').mailLimits).toEqual({ dailyPerAccount: 500, digestPollMs: 30_000 });
  });

  it('takes each variable (a digest poll of 0: this instance sends none)', () => {
    const config = buildConfig({ MAIL_DAILY_LIMIT_PER_ACCOUNT: '20', LEAD_DIGEST_POLL_MS: '0' }, '/repo');
    expect(config.mailLimits).toEqual({ dailyPerAccount: 20, digestPollMs: 0 });
  });

  it('refuses a daily limit that is not a whole number of 1 or more, and a negative poll', () => {
    for (const bad of ['0', '-1', '2.5', 'many']) {
      expect(() => buildConfig({ MAIL_DAILY_LIMIT_PER_ACCOUNT: bad }, '/repo')).toThrow(
        /- MAIL_DAILY_LIMIT_PER_ACCOUNT: .*\(got /,
      );
    }
    expect(() => buildConfig({ LEAD_DIGEST_POLL_MS: '-5' }, '/repo')).toThrow(/- LEAD_DIGEST_POLL_MS: /);
  });
});
