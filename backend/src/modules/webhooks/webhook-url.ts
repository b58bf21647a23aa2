import { isIP } from 'node:net';
import { WEBHOOK_LIMITS } from '@botsmith/contract';
import { addressRefusal, hostnameRefusal, STANDARD_PORTS } from '../../common/outbound/address-policy.js';

export type UrlProblem = { code: 'URL_INVALID' | 'URL_NOT_ALLOWED'; message: string };

const INVALID = 'Enter the full address of your endpoint, starting with https://.';
export const NOT_ALLOWED = 'This address points to a private network and cannot receive webhooks.';

/**
 * The endpoint address as stored (the URL parser's normal form), or why it is refused. Checked
 * without DNS: an address or name that is plainly private, loopback or metadata, a non-standard
 * port, credentials in the address, or plain http (unless `allowPrivate`, tests and local
 * development). The name is resolved and checked again at every delivery (a name can change its
 * address after registration), by the guarded agents (common/outbound/guarded-agent.ts).
 */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): { url: string } | UrlProblem {
  if (raw.length > WEBHOOK_LIMITS.urlMaxChars) {
    return { code: 'URL_INVALID', message: `The address can be at most ${WEBHOOK_LIMITS.urlMaxChars} characters.` };
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { code: 'URL_INVALID', message: INVALID };
  }
  const httpAllowed = allowPrivate && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpAllowed) {
    return { code: 'URL_INVALID', message: 'Webhook endpoints must use https://.' };
  }
  if (!url.hostname || url.username || url.password) return { code: 'URL_INVALID', message: INVALID };
  const rule = { allowPrivate };
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  const refusal = isIP(bare) !== 0 ? addressRefusal(bare, rule) : hostnameRefusal(bare, rule);
  if (refusal) return { code: 'URL_NOT_ALLOWED', message: NOT_ALLOWED };
  if (!allowPrivate && !STANDARD_PORTS.has(url.port)) {
    return { code: 'URL_NOT_ALLOWED', message: 'Webhook endpoints must use the standard port (443).' };
  }
  url.hash = '';
  return { url: url.toString() };
}
