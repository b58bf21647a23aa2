import { createHmac, timingSafeEqual } from 'node:crypto';
import { newEventId, newWebhookSecret, signatureHeader } from './webhook-signature.js';

describe('signatureHeader', () => {
  it('signs "<t>.<body>" with HMAC-SHA256 of the secret, as t=…,v1=<hex>', () => {
    const body = '{"id":"evt_1","type":"webhook.test","createdAt":"2026-01-01T00:00:00.000Z","data":{}}';
    const header = signatureHeader('whsec_abc', body, 1_767_225_600.9);
    const expected = createHmac('sha256', 'whsec_abc').update(`1767225600.${body}`).digest('hex');
    expect(header).toBe(`t=1767225600,v1=${expected}`);
  });

  it('gives another signature for another secret, body or time', () => {
    const base = signatureHeader('s1', 'body', 100);
    expect(signatureHeader('s2', 'body', 100)).not.toBe(base);
    expect(signatureHeader('s1', 'body!', 100)).not.toBe(base);
    expect(signatureHeader('s1', 'body', 101)).not.toBe(base);
  });

  it('verifies with the README recipe and fails it for a changed body', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ id: newEventId(), data: { ok: true } });
    const header = signatureHeader(secret, body, 1000);
    const verify = (raw: string): boolean => {
      const { t, v1 } = Object.fromEntries(header.split(',').map((part) => part.split('='))) as Record<string, string>;
      const mac = createHmac('sha256', secret).update(`${t}.${raw}`).digest();
      const given = Buffer.from(v1, 'hex');
      return given.length === mac.length && timingSafeEqual(given, mac);
    };
    expect(verify(body)).toBe(true);
    expect(verify(body.replace('true', 'false'))).toBe(false);
  });
});

describe('secrets and event ids', () => {
  it('are long, random and recognisable', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(secret);
    expect(newEventId()).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(newEventId()).not.toBe(newEventId());
  });
});
