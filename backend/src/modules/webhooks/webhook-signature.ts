import { createHmac, randomBytes } from 'node:crypto';

/**
 * The `Botsmith-Signature` header value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`
 * keyed with the endpoint's secret. The time is inside the signed text, so a receiver that refuses
 * old `t` values refuses a replayed delivery (README.md#webhook-signatures shows the check).
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const t = Math.floor(unixSeconds);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** A new endpoint secret: 32 random bytes, prefixed so an owner recognises it in a config file. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** A new event id, unique across events; every delivery of the event carries it. */
export function newEventId(): string {
  return `evt_${randomBytes(16).toString('hex')}`;
}
