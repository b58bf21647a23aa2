import {
  accountSpendAlertMail,
  agentReplyMail,
  botBudgetAlertMail,
  ordinalDay,
  leadAddressConfirmationMail,
  leadDigestMail,
  passwordResetMail,
  replyNoticeMail,
  signupAttemptMail,
  verifyEmailMail,
} from './mail.templates.js';

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

describe('budget alert mails', () => {
  const dashboardUrl = 'https://botsmith.example/dashboard';

  it('name the bot and the percentage in the subject, on one line whatever the bot is called', () => {
    const mail = botBudgetAlertMail({
      botName: 'Sales\r\nBcc: victim@example.com',
      percent: 80,
      spentCents: 812,
      budgetDollars: 10,
      dashboardUrl,
    });
    expect(mail.subject).toBe('Sales Bcc: victim@example.com has used 80% of its monthly budget');
    expect(mail.text).toContain('has spent $8.12 of its $10 monthly budget this billing period.');
    expect(mail.text.split('\n')).toContain(dashboardUrl);
    expect(
      botBudgetAlertMail({ botName: 'Helper', percent: 100, spentCents: 999, budgetDollars: 10, dashboardUrl }).subject,
    ).toBe('Helper has reached 100% of its monthly budget');
  });

  it('say when the budget runs out at this pace, below 100 % only (docs/product.md#spend-forecast)', () => {
    const alert = { botName: 'Shop helper', spentCents: 812, budgetDollars: 10, dashboardUrl };
    const line = 'At this pace, Shop helper reaches its $10 budget around the 24th.';
    const eighty = botBudgetAlertMail({ ...alert, percent: 80, budgetReachedOn: '2026-11-24' });
    expect(eighty.text).toContain(`this billing period. ${line}`);
    expect(eighty.html).toContain(line);
    expect(botBudgetAlertMail({ ...alert, percent: 80, budgetReachedOn: null }).text).not.toContain('At this pace');
    expect(botBudgetAlertMail({ ...alert, percent: 100, budgetReachedOn: '2026-11-24' }).text).not.toContain(
      'At this pace',
    );
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 24, 31].map(ordinalDay)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '24th',
      '31st',
    ]);
  });

  it('escape the bot name in HTML', () => {
    const mail = botBudgetAlertMail({
      botName: '<img src=x onerror=1>',
      percent: 50,
      spentCents: 50,
      budgetDollars: 1,
      dashboardUrl,
    });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img');
  });

  it('say the share of the account alert passed', () => {
    const mail = accountSpendAlertMail({
      percent: 150,
      spentCents: 3004,
      thresholdDollars: 20,
      settingsUrl: dashboardUrl,
    });
    expect(mail.subject).toBe('Your Botsmith spend this month has passed 150% of your $20 alert');
    expect(mail.text).toContain('Your bots have spent $30.04 this billing period');
  });
});

describe("an owner's reply to a visitor", () => {
  it('keeps the subject on one line, escapes the reply in HTML and carries no link', () => {
    const mail = agentReplyMail({
      agentName: 'Ana\r\nBcc: x@evil.example',
      botName: 'Acme  Helper',
      content: 'Line one\n<img src=x onerror=alert(1)>',
    });
    expect(mail.subject).toBe('Ana Bcc: x@evil.example replied to your message');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text).toContain('Line one\n<img src=x onerror=alert(1)>');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('href=');
    expect(mail.text).not.toMatch(/https?:\/\//);
  });

  it("links back to the conversation's page when it is known, the address escaped in HTML", () => {
    const chatUrl = 'https://shop.example/a?b=1&c="2"#botsmith-chat=7';
    const mail = agentReplyMail({ agentName: 'Ana', botName: 'Acme', content: 'Hi', chatUrl });
    expect(mail.text).toContain(
      `continue the chat on the page where you wrote, in the browser you wrote from:\n${chatUrl}`,
    );
    expect(mail.html).toContain('href="https://shop.example/a?b=1&amp;c=&quot;2&quot;#botsmith-chat=7"');
    expect(mail.html).toContain('Continue the chat');
  });
});

describe('mails that ask before anything else is sent (docs/product.md#mail-consent)', () => {
  const link = 'https://botsmith.example/api/mail/confirm/abc_DEF-123';

  it('ask a lead address to confirm with a fixed text that carries nothing an owner typed', () => {
    const mail = leadAddressConfirmationMail(link);
    expect(mail.subject).toBe('Confirm that you want to receive leads from Botsmith');
    expect(mail.text.split('\n')).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
  });

  it('say who replied and where, never the reply, with the subject on one line', () => {
    const mail = replyNoticeMail({ botName: 'Acme\r\nBcc: x@evil.example', site: 'shop.example' }, link);
    expect(mail.subject).toBe('Acme Bcc: x@evil.example replied to your message on shop.example');
    expect(mail.text).toContain(
      'Acme Bcc: x@evil.example replied to your message on shop.example \u2014 see the reply',
    );
    expect(mail.text.split('\n')).toContain(link);
    const html = replyNoticeMail({ botName: '<img src=x>', site: 'shop.example' }, link).html;
    expect(html).not.toContain('<img');
  });

  it('list the leads of a digest, escaped in HTML', () => {
    const at = new Date('2026-11-27T10:00:00Z');
    const lead = {
      botName: 'Helper',
      name: '<b>Ann</b>',
      email: 'ann@example.org',
      phone: null,
      message: 'Hi',
      createdAt: at,
    };
    const mail = leadDigestMail(
      [lead, { ...lead, name: null, email: 'bo@example.org' }],
      'https://b.example/dashboard',
    );
    expect(mail.subject).toBe('2 more leads in the last 10 minutes');
    expect(mail.text).toContain('[2026-11-27 10:00 UTC] Helper, <b>Ann</b>, ann@example.org: Hi');
    expect(mail.text).toContain('bo@example.org');
    expect(mail.html).not.toContain('<b>Ann');
  });
});
