import { passwordResetMail, signupAttemptMail, verifyEmailMail } from './mail.templates.js';

describe('account mails', () => {
  const link = 'https://botsmith.example/verify-email/abc_DEF-123';

  it('carry the link in the plain-text part (own line) and in the HTML part', () => {
    for (const mail of [verifyEmailMail(link), passwordResetMail(link)]) {
      expect(mail.text.split('\n')).toContain(link);
      expect(mail.html).toContain(`href="${link}"`);
      expect(mail.subject.length).toBeGreaterThan(0);
    }
  });

  it('escape what they put into HTML', () => {
    const mail = verifyEmailMail('https://x.example/verify-email/"><script>alert(1)</script>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
  });

  it('say how long each link works, and the signup notice carries no token link', () => {
    expect(verifyEmailMail(link).text).toContain('24 hours');
    expect(passwordResetMail(link).text).toContain('1 hour');
    const notice = signupAttemptMail('https://b.example/login', 'https://b.example/forgot-password');
    expect(notice.text).toContain('https://b.example/login');
    expect(notice.text).toContain('https://b.example/forgot-password');
    expect(notice.text).not.toMatch(/verify-email|reset-password/);
  });

  it('are plain ASCII, so the .eml stays readable', () => {
    for (const mail of [verifyEmailMail(link), passwordResetMail(link), signupAttemptMail('a', 'b')]) {
      // eslint-disable-next-line no-control-regex
      expect(/^[\x00-\x7F]*$/.test(mail.text + mail.html + mail.subject)).toBe(true);
    }
  });
});
