/**
 * The account mails. Each has a plain-text part (links on their own line, so any mail client can
 * open them) and a small HTML part with the same words. Kept ASCII so the .eml stays readable.
 */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const PRODUCT = 'Botsmith';

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function layout(paragraphs: string[], action?: { label: string; url: string }, footer?: string): string {
  const p = (text: string) => `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#1f2937">${text}</p>`;
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#059669;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(action.label)}</a></p>` +
      p(`Or paste this link into your browser:<br><a href="${escapeHtml(action.url)}">${escapeHtml(action.url)}</a>`)
    : '';
  return [
    '<!doctype html><html><body style="margin:0;padding:24px;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif">',
    '<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">',
    `<p style="margin:0 0 24px;font-size:20px;font-weight:800;color:#047857">${PRODUCT}</p>`,
    paragraphs.map((text) => p(escapeHtml(text))).join(''),
    button,
    footer ? `<p style="margin:24px 0 0;font-size:13px;color:#6b7280">${escapeHtml(footer)}</p>` : '',
    '</div></body></html>',
  ].join('');
}

export function verifyEmailMail(link: string): MailContent {
  const intro = `Welcome to ${PRODUCT}! Please confirm your email address to finish creating your account.`;
  const footer = 'This link works once and expires in 24 hours. If you did not sign up, you can ignore this email.';
  return {
    subject: `Verify your email for ${PRODUCT}`,
    text: `${intro}\n\nConfirm your email:\n${link}\n\n${footer}\n`,
    html: layout([intro], { label: 'Verify my email', url: link }, footer),
  };
}

export function signupAttemptMail(loginUrl: string, forgotUrl: string): MailContent {
  const intro = `Someone (perhaps you) tried to create a ${PRODUCT} account with this email address, but an account with this address already exists.`;
  const footer = 'If this was not you, you can ignore this email: nothing about your account has changed.';
  return {
    subject: `Someone tried to sign up to ${PRODUCT} with your email`,
    text: `${intro}\n\nLog in:\n${loginUrl}\n\nForgot your password? Reset it here:\n${forgotUrl}\n\n${footer}\n`,
    html: layout([intro, `Forgot your password? Reset it at ${forgotUrl}`], { label: 'Log in', url: loginUrl }, footer),
  };
}

export function passwordResetMail(link: string): MailContent {
  const intro = `We received a request to reset the password of your ${PRODUCT} account.`;
  const footer =
    'This link works once and expires in 1 hour. If you did not ask for a reset, you can ignore this email: your password stays the same.';
  return {
    subject: `Reset your ${PRODUCT} password`,
    text: `${intro}\n\nChoose a new password:\n${link}\n\n${footer}\n`,
    html: layout([intro], { label: 'Reset my password', url: link }, footer),
  };
}

/** Money as the dashboard shows it: `$12.34`. */
function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** A bot name on one line (a subject is a header), whatever the owner typed. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export interface BotBudgetAlert {
  botName: string;
  /** 50, 80 or 100. */
  percent: number;
  spentCents: number;
  budgetDollars: number;
  /** Below 100 %: the day (`YYYY-MM-DD`) the budget is reached at this pace, if it is this period. */
  budgetReachedOn?: string | null;
  dashboardUrl: string;
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st, 22nd, 23rd … 31st. */
export function ordinalDay(day: number): string {
  const teen = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th');
  return `${day}${suffix}`;
}

export function botBudgetAlertMail(alert: BotBudgetAlert): MailContent {
  const name = oneLine(alert.botName);
  const reached = alert.percent >= 100;
  const subject = reached
    ? `${name} has reached 100% of its monthly budget`
    : `${name} has used ${alert.percent}% of its monthly budget`;
  const spent = `${name} has spent ${dollars(alert.spentCents)} of its $${alert.budgetDollars} monthly budget this billing period.`;
  const pace =
    !reached && alert.budgetReachedOn
      ? ` At this pace, ${name} reaches its $${alert.budgetDollars} budget around the ${ordinalDay(Number(alert.budgetReachedOn.slice(8, 10)))}.`
      : '';
  const next = reached
    ? 'It no longer answers and is hidden from your website until the next billing period starts on the 3rd, or until you raise its budget in its Usage tab.'
    : 'When it reaches 100%, it stops answering and hides itself until the next billing period. You can change its budget in its Usage tab.';
  const footer = 'You get this email once per billing period at 50%, 80% and 100% of each bot budget.';
  return {
    subject,
    text: `${spent}${pace}\n\n${next}\n\nOpen your dashboard:\n${alert.dashboardUrl}\n\n${footer}\n`,
    html: layout([spent + pace, next], { label: 'Open my dashboard', url: alert.dashboardUrl }, footer),
  };
}

export interface AccountSpendAlert {
  /** 50, 100, 150, ...: the share of the threshold passed. */
  percent: number;
  spentCents: number;
  thresholdDollars: number;
  settingsUrl: string;
}

export function accountSpendAlertMail(alert: AccountSpendAlert): MailContent {
  const subject = `Your ${PRODUCT} spend this month has passed ${alert.percent}% of your $${alert.thresholdDollars} alert`;
  const spent = `Your bots have spent ${dollars(alert.spentCents)} this billing period, ${alert.percent}% or more of the $${alert.thresholdDollars} spend alert you set.`;
  const next =
    'Each bot also has its own monthly budget. You can change the alert amount in Settings, or set it to 0 to stop these emails.';
  const footer = 'You get this email once per billing period at each 50% step of your spend alert.';
  return {
    subject,
    text: `${spent}\n\n${next}\n\nOpen your dashboard:\n${alert.settingsUrl}\n\n${footer}\n`,
    html: layout([spent, next], { label: 'Open my dashboard', url: alert.settingsUrl }, footer),
  };
}

export interface LeadMailMessage {
  role: 'user' | 'assistant' | 'error' | 'agent';
  content: string;
  createdAt: Date;
}

export interface LeadMail {
  botName: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  message: string | null;
  /** The conversation so far, oldest first (possibly empty: a lead left before any message). */
  transcript: LeadMailMessage[];
  /** The conversation in the dashboard's inbox. */
  conversationUrl: string;
}

const TRANSCRIPT_ROLES: Record<LeadMailMessage['role'], string> = {
  user: 'Visitor',
  assistant: 'Bot',
  error: 'Not answered',
  agent: 'You',
};

/** A visitor left their contact with a bot (docs/product.md#leads-and-handoff): the lead, then the transcript. */
export function leadMail(lead: LeadMail): MailContent {
  const name = oneLine(lead.botName);
  const who = lead.name ? oneLine(lead.name) : (lead.email ?? lead.phone ?? 'A visitor');
  const subject = `New lead from ${name}: ${who}`.slice(0, 200);
  const intro = `A visitor left their contact with ${name}. The conversation is now marked as handled by a person: the bot stays quiet in it.`;
  const fields = [
    ['Name', lead.name],
    ['Email', lead.email],
    ['Phone', lead.phone],
    ['Message', lead.message],
  ].filter((field): field is [string, string] => field[1] !== null);
  const fieldLines = fields.map(([label, value]) => `${label}: ${value}`);
  const transcriptLines = lead.transcript.map(
    (m) =>
      `[${m.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC] ${TRANSCRIPT_ROLES[m.role]}: ${m.content}`,
  );
  const transcriptText = transcriptLines.length > 0 ? transcriptLines.join('\n\n') : '(No messages before the lead.)';
  const footer = "You get this email for each lead. Change where leads go in the bot's Leads tab.";
  const text =
    `${intro}\n\n${fieldLines.join('\n')}\n\nTranscript:\n\n${transcriptText}\n\n` +
    `Open the conversation:\n${lead.conversationUrl}\n\n${footer}\n`;
  const pre = (value: string) =>
    `<pre style="margin:0 0 16px;font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.5;white-space:pre-wrap;color:#1f2937">${escapeHtml(value)}</pre>`;
  const html = layout([intro], { label: 'Open the conversation', url: lead.conversationUrl }, footer).replace(
    '<p style="margin:24px 0">',
    `${pre(fieldLines.join('\n'))}<p style="margin:0 0 8px;font-weight:600">Transcript</p>${pre(transcriptText)}<p style="margin:24px 0">`,
  );
  return { subject, text, html };
}

export interface AgentReply {
  /** The owner's display name (Settings), as on the reply in the widget. */
  agentName: string;
  botName: string;
  content: string;
  /** The conversation's page with the widget opening on it (contract widgetChatLink), when known. */
  chatUrl?: string | null;
}

/**
 * An owner's reply from the inbox, to the visitor who left their address in a lead
 * (docs/product.md#owner-replies). No link: the page address came from the visitor's browser, and
 * a mail from us must not carry an address anyone could have chosen.
 */
export function agentReplyMail(reply: AgentReply): MailContent {
  const name = oneLine(reply.agentName);
  const bot = oneLine(reply.botName);
  const intro = `${name} replied to your conversation with ${bot}:`;
  const lines = reply.content.split(/\r?\n/).filter((line) => line.trim() !== '');
  const footer = 'You get this email because you left your address in that chat.';
  if (reply.chatUrl) {
    const next = 'To answer, continue the chat on the page where you wrote, in the browser you wrote from:';
    return {
      subject: `${name} replied to your message`,
      text: `${intro}\n\n${reply.content}\n\n${next}\n${reply.chatUrl}\n\n${footer}\n`,
      html: layout([intro, ...lines, next], { label: 'Continue the chat', url: reply.chatUrl }, footer),
    };
  }
  const next = 'To answer, go back to the chat on the website where you wrote to us.';
  return {
    subject: `${name} replied to your message`,
    text: `${intro}\n\n${reply.content}\n\n${next}\n\n${footer}\n`,
    html: layout([intro, ...lines, next], undefined, footer),
  };
}

/**
 * Asks a lead address to confirm before it receives any lead (docs/product.md#mail-consent). Fixed
 * text: nothing the owner typed (no bot name, no lead), so listing a stranger's address cannot
 * mail them anything but this one request.
 */
export function leadAddressConfirmationMail(link: string): MailContent {
  const intro = `Someone asked ${PRODUCT} to send the messages visitors leave on their chatbot to this address. Nothing is sent to it until you confirm.`;
  const footer = `If you do not know what this is about, ignore this email: ${PRODUCT} sends nothing more to this address.`;
  return {
    subject: `Confirm that you want to receive leads from ${PRODUCT}`,
    text: `${intro}\n\nConfirm this address:\n${link}\n\n${footer}\n`,
    html: layout([intro], { label: 'Confirm this address', url: link }, footer),
  };
}

export interface ReplyNotice {
  botName: string;
  /** The host of the site the chat is on. */
  site: string;
}

/**
 * The first reply to a visitor's address (docs/product.md#mail-consent): fixed text and a link that
 * confirms the address and shows the reply. Never the owner's text: the address was typed into a
 * form by whoever sent the lead.
 */
export function replyNoticeMail(notice: ReplyNotice, link: string): MailContent {
  const line = `${oneLine(notice.botName)} replied to your message on ${oneLine(notice.site)}`;
  const intro = `${line} \u2014 see the reply`;
  const footer = `You get this email because this address was left in a chat on that site. If it was not you, ignore this email: nothing more is sent to it.`;
  return {
    subject: line.slice(0, 200),
    text: `${intro}:\n${link}\n\n${footer}\n`,
    html: layout([intro], { label: 'See the reply', url: link }, footer),
  };
}

/** The leads a digest lists (docs/product.md#mail-consent). */
export interface DigestLead {
  botName: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  message: string | null;
  createdAt: Date;
}

/** Lead notices past the fifth to one address within 10 minutes, as one mail at the window's end. */
export function leadDigestMail(leads: DigestLead[], inboxUrl: string): MailContent {
  const subject = `${leads.length} more leads in the last 10 minutes`;
  const intro = `${leads.length} more visitors left their contact in the last 10 minutes. To keep your mailbox readable, they come together in this email.`;
  const lines = leads.map((lead) => {
    const fields = [lead.name, lead.email, lead.phone].filter((v): v is string => v !== null).map(oneLine);
    const message = lead.message ? `: ${oneLine(lead.message).slice(0, 300)}` : '';
    return `[${lead.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC] ${oneLine(lead.botName)}, ${fields.join(', ')}${message}`;
  });
  const footer = "Change where leads go in each bot's Leads tab.";
  return {
    subject,
    text: `${intro}\n\n${lines.join('\n\n')}\n\nOpen your leads:\n${inboxUrl}\n\n${footer}\n`,
    html: layout([intro, ...lines], { label: 'Open my leads', url: inboxUrl }, footer),
  };
}

export interface WebhookDisabledNotice {
  /** The endpoint's address, as the owner registered it. */
  url: string;
  /** How many days every attempt failed. */
  days: number;
  dashboardUrl: string;
}

/**
 * An owner's webhook endpoint was disabled after failing for days (docs/product.md#webhooks). Sent
 * once per disabling; fixed text but for the endpoint's address.
 */
export function webhookDisabledMail(notice: WebhookDisabledNotice): MailContent {
  const url = oneLine(notice.url);
  const intro = `${PRODUCT} disabled your webhook endpoint ${url}: every delivery to it failed for ${notice.days} days in a row.`;
  const next =
    'Nothing more is sent to it until you enable it again. The events that happen meanwhile are kept and sent first when you do. To enable it, open your dashboard, then Settings > Integrations, and choose Enable on this endpoint.';
  const footer = 'You get this email once each time an endpoint is disabled.';
  return {
    subject: `Your webhook endpoint was disabled: ${url}`.slice(0, 200),
    text: `${intro}

${next}

Open your dashboard:
${notice.dashboardUrl}

${footer}
`,
    html: layout([intro, next], { label: 'Open my dashboard', url: notice.dashboardUrl }, footer),
  };
}

/** The monthly report (docs/product.md#monthly-report): the billing period that ended, in figures. */
export interface MonthlyReport {
  /** The period's first and last days (`YYYY-MM-DD`), in `timeZone`. */
  from: string;
  to: string;
  timeZone: string;
  conversations: number;
  /** Resolved among the decided conversations (0 to 1); null when none was decided. */
  resolutionRate: number | null;
  /** Null when no conversation was resolved. */
  costPerResolvedCents: number | null;
  /** The most asked topics, at most 3. */
  topics: Array<{ text: string; conversations: number }>;
  /** The most asked questions the bots could not answer, at most 3, each with the page to answer it. */
  unanswered: Array<{ text: string; count: number; botName: string; answerUrl: string }>;
  insightsUrl: string;
  settingsUrl: string;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `2026-10-03` as `October 3`, with the year when asked. */
function dayName(date: string, withYear = false): string {
  const [y, m, d] = date.split('-').map(Number);
  return `${MONTHS[m - 1]} ${d}${withYear ? `, ${y}` : ''}`;
}

/** A question or topic on one line, cut to a readable length. */
function quoted(text: string): string {
  const line = oneLine(text);
  return line.length > 140 ? `${line.slice(0, 137)}...` : line;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function monthlyReportMail(report: MonthlyReport): MailContent {
  const period = `${dayName(report.from)} to ${dayName(report.to, true)}`;
  const subject = `Your ${PRODUCT} report: ${plural(report.conversations, 'conversation', 'conversations')} from ${dayName(report.from)} to ${dayName(report.to)}`;
  const intro = `Here is what your bots did from ${period} (the billing period that just ended, days in ${report.timeZone} time).`;
  const rate =
    report.resolutionRate === null ? 'no conversation decided yet' : `${Math.round(report.resolutionRate * 100)}%`;
  const cost =
    report.costPerResolvedCents === null
      ? 'no conversation was resolved'
      : dollars(Math.round(report.costPerResolvedCents));
  const figures = [
    `Conversations: ${report.conversations}`,
    `Resolution rate: ${rate}`,
    `Cost per resolved conversation: ${cost}`,
  ];
  const topics = report.topics.map(
    (t) => `${quoted(t.text)} (${plural(t.conversations, 'conversation', 'conversations')})`,
  );
  const questions = report.unanswered.map(
    (q) => `"${quoted(q.text)}", asked ${plural(q.count, 'time', 'times')} (${oneLine(q.botName)})`,
  );
  const footer = `You get this email on the 3rd of each month about the billing period that ended. To stop it, turn off the monthly report in Settings: ${report.settingsUrl}`;

  const numbered = (lines: string[]) => lines.map((line, i) => `${i + 1}. ${line}`).join('\n');
  const textParts = [intro, figures.join('\n')];
  if (topics.length > 0) textParts.push(`Top topics:\n${numbered(topics)}`);
  if (questions.length > 0) {
    const withLinks = questions.map((line, i) => `${line}\n   Answer it: ${report.unanswered[i].answerUrl}`);
    textParts.push(`Most asked questions your bots could not answer:\n${numbered(withLinks)}`);
  }
  textParts.push(`Open your insights:\n${report.insightsUrl}`, footer);

  const heading = (text: string) =>
    `<p style="margin:16px 0 8px;font-size:15px;font-weight:600;color:#1f2937">${escapeHtml(text)}</p>`;
  const list = (tag: 'ul' | 'ol', items: string[]) =>
    `<${tag} style="margin:0 0 16px;padding-left:20px;font-size:15px;line-height:1.5;color:#1f2937">${items.map((item) => `<li>${item}</li>`).join('')}</${tag}>`;
  const blocks = [
    list('ul', figures.map(escapeHtml)),
    topics.length > 0 ? heading('Top topics') + list('ol', topics.map(escapeHtml)) : '',
    questions.length > 0
      ? heading('Most asked questions your bots could not answer') +
        list(
          'ol',
          questions.map(
            (line, i) => `${escapeHtml(line)} <a href="${escapeHtml(report.unanswered[i].answerUrl)}">Answer it</a>`,
          ),
        )
      : '',
  ].join('');
  const html = layout([intro], { label: 'Open my insights', url: report.insightsUrl }, footer).replace(
    '<p style="margin:24px 0">',
    `${blocks}<p style="margin:24px 0">`,
  );
  return { subject: subject.slice(0, 200), text: `${textParts.join('\n\n')}\n`, html };
}
