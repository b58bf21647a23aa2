import { monthlyReportMail, type MonthlyReport } from './mail.templates.js';

/** The monthly report mail (docs/product.md#monthly-report): its figures, its links, and escaping. */
const base: MonthlyReport = {
  from: '2026-10-03',
  to: '2026-11-02',
  timeZone: 'Europe/Paris',
  conversations: 42,
  resolutionRate: 0.5714,
  costPerResolvedCents: 12.5,
  topics: [
    { text: 'How do I return an order?', conversations: 12 },
    { text: 'Opening hours', conversations: 1 },
  ],
  unanswered: [
    {
      text: 'Do you ship to Norway?',
      count: 5,
      botName: 'Shop helper',
      answerUrl: 'https://b.example/dashboard/conversations?view=questions&botId=7',
    },
  ],
  insightsUrl: 'https://b.example/dashboard/insights',
  settingsUrl: 'https://b.example/dashboard?settings=account',
};

describe('monthly report mail', () => {
  it('gives the period, the figures, the topics and the unanswered questions with their links', () => {
    const mail = monthlyReportMail(base);
    expect(mail.subject).toBe('Your Botsmith report: 42 conversations from October 3 to November 2');
    const lines = mail.text.split('\n');
    expect(mail.text).toContain(
      'Here is what your bots did from October 3 to November 2, 2026 (the billing period that just ended, days in Europe/Paris time).',
    );
    expect(lines).toEqual(
      expect.arrayContaining([
        'Conversations: 42',
        'Resolution rate: 57%',
        // 12.5 cents rounds to 13.
        'Cost per resolved conversation: $0.13',
        'Top topics:',
        '1. How do I return an order? (12 conversations)',
        '2. Opening hours (1 conversation)',
        'Most asked questions your bots could not answer:',
        '1. "Do you ship to Norway?", asked 5 times (Shop helper)',
        '   Answer it: https://b.example/dashboard/conversations?view=questions&botId=7',
        'https://b.example/dashboard/insights',
      ]),
    );
    expect(mail.text).toContain(
      'turn off the monthly report in Settings: https://b.example/dashboard?settings=account',
    );
    expect(mail.html).toContain(
      'href="https://b.example/dashboard/conversations?view=questions&amp;botId=7">Answer it</a>',
    );
    expect(mail.html).toContain('<li>Cost per resolved conversation: $0.13</li>');
    expect(mail.html).toContain('href="https://b.example/dashboard/insights"');
    // eslint-disable-next-line no-control-regex
    expect(/^[\x00-\x7F]*$/.test(mail.text + mail.html + mail.subject)).toBe(true);
  });

  it('says so when nothing was decided or resolved, and leaves out empty lists', () => {
    const mail = monthlyReportMail({
      ...base,
      conversations: 1,
      resolutionRate: null,
      costPerResolvedCents: null,
      topics: [],
      unanswered: [],
    });
    expect(mail.subject).toBe('Your Botsmith report: 1 conversation from October 3 to November 2');
    expect(mail.text).toContain('Resolution rate: no conversation decided yet');
    expect(mail.text).toContain('Cost per resolved conversation: no conversation was resolved');
    expect(mail.text).not.toContain('Top topics');
    expect(mail.text).not.toContain('could not answer');
    expect(mail.html).not.toContain('<ol');
  });

  it('escapes what visitors and the owner typed, keeps it on one line, and cuts long questions', () => {
    const mail = monthlyReportMail({
      ...base,
      topics: [{ text: '<img src=x onerror=alert(1)>\r\nBcc: x@example.com', conversations: 2 }],
      unanswered: [
        {
          text: `"><script>alert(1)</script>${'a'.repeat(300)}`,
          count: 2,
          botName: 'Bot & <b>Co</b>',
          answerUrl: base.unanswered[0].answerUrl,
        },
      ],
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>Co</b>');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; Bcc: x@example.com (2 conversations)');
    expect(mail.html).toContain('Bot &amp; &lt;b&gt;Co&lt;/b&gt;');
    expect(mail.text).toContain('1. <img src=x onerror=alert(1)> Bcc: x@example.com (2 conversations)');
    const question = mail.text.split('\n').find((line) => line.startsWith('1. "'))!;
    expect(question).toMatch(/^1\. ""><script>alert\(1\)<\/script>a+\.\.\.", asked 2 times \(Bot & <b>Co<\/b>\)$/);
    expect(question.length).toBeLessThan(200);
  });
});
