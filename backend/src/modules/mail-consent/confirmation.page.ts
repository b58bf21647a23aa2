import type { ConfirmationView } from './mail-consent.service.js';

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function page(title: string, body: string): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#1f2937">',
    '<main style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">',
    '<p style="margin:0 0 24px;font-size:20px;font-weight:800;color:#047857">Botsmith</p>',
    body,
    '</main></body></html>',
  ].join('');
}

const p = (text: string) => `<p style="font-size:15px;line-height:1.5">${escapeHtml(text)}</p>`;
const link = (href: string, label: string) =>
  `<p style="margin:24px 0 8px"><a href="${escapeHtml(href)}" style="display:inline-block;background:#059669;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;font-size:15px">${escapeHtml(label)}</a></p>`;
const button = (label: string) =>
  `<form method="post"><button type="submit" style="background:#059669;color:#ffffff;border:0;padding:12px 20px;border-radius:8px;font-weight:600;font-size:15px;cursor:pointer">${escapeHtml(label)}</button></form>`;

/**
 * The page of a confirmation link (docs/product.md#mail-consent): server-rendered, no script, every
 * stored text escaped. Before confirming it only asks (a plain form POST), so a mail scanner that
 * opens links confirms nothing; afterwards it says so, and for a visitor shows the owner's replies.
 */
export function confirmationPage(view: ConfirmationView): string {
  if (view.kind === 'lead_notice') {
    if (!view.confirmed) {
      return page(
        'Confirm this address',
        p(`Someone asked Botsmith to send the messages visitors leave on their chatbot to ${view.email}.`) +
          p('Confirm to receive them. If you do not know what this is about, close this page: nothing is sent.') +
          button('Confirm this address'),
      );
    }
    return page(
      'Address confirmed',
      p(`Confirmed: ${view.email} now receives the leads of this chatbot.`) +
        p("To stop them, ask the chatbot's owner to remove this address."),
    );
  }
  const bot = view.botName.replace(/\s+/g, ' ').trim();
  if (!view.confirmed) {
    return page(
      'See the reply',
      p(`${bot} replied to your message. Confirm that ${view.email} is your address to see the reply.`) +
        button('See the reply'),
    );
  }
  const replies = view.replies
    .map(
      (reply) =>
        `<section style="border-top:1px solid #e5e7eb;padding-top:12px;margin-top:12px">` +
        `<p style="margin:0 0 4px;font-size:13px;color:#6b7280">${escapeHtml(reply.agentName ?? 'Support')}, ` +
        `${escapeHtml(reply.createdAt.toISOString().slice(0, 16).replace('T', ' '))} UTC</p>` +
        `<p style="margin:0;font-size:15px;line-height:1.5;white-space:pre-wrap">${escapeHtml(reply.content)}</p></section>`,
    )
    .join('');
  return page(
    `Replies from ${bot}`,
    p(`Replies from ${bot}. Your address is confirmed: later replies are e-mailed to ${view.email}.`) +
      (replies || p('No reply to show.')) +
      (view.chatUrl
        ? link(view.chatUrl, `Continue the chat on ${new URL(view.chatUrl).host}`) +
          p('It opens the chat on the page where you wrote, in the browser you wrote from.')
        : p('To answer, go back to the chat on the website where you wrote.')),
  );
}

/** The page of a link that is unknown or past its time. */
export function invalidLinkPage(sentence: string): string {
  return page('Link not valid', p(sentence));
}
