/**
 * The link that opens a bot's site with its widget open on the visitor's conversation
 * (docs/product.md#owner-replies): the page the conversation was held on, with the fragment
 * `#botsmith-chat=<botId>`. The widget on that page opens itself when the fragment names its bot.
 * The link carries no token: which conversation it shows is decided by the visitor token kept in
 * that browser, so a forwarded or guessed link opens an empty chat, never someone else's.
 */
export const WIDGET_CHAT_FRAGMENT = 'botsmith-chat=';

/** The page with the fragment, or null when `pageUrl` is not an http(s) address. */
export function widgetChatLink(pageUrl: string | null, botId: number): string | null {
  if (!pageUrl) return null;
  try {
    const url = new URL(pageUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = WIDGET_CHAT_FRAGMENT + String(botId);
    return url.href;
  } catch {
    return null;
  }
}
