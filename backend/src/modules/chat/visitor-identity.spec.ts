import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { IdentitySecretBox, newIdentitySecret } from '../bots/identity-secret.js';
import { identityFromHeader, verifiedVisitorId, verifyIdentity } from './visitor-identity.js';

const SECRET = 'idsec_test-secret-for-bot-7';
const BOT = 7;
const NOW = new Date('2026-11-27T10:00:00Z');
const NOW_S = NOW.getTime() / 1000;

function b64(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

/** A JWT as an owner's server makes one (any header, any claims). */
function jwt(
  claims: Record<string, unknown>,
  secret = SECRET,
  header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' },
) {
  const signed = `${b64(header)}.${b64(claims)}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

const verify = (token: string) => verifyIdentity({ token }, SECRET, BOT, NOW);

describe('verifyIdentity (JWT)', () => {
  it('accepts a good token: sub, name, e-mail and the other claims as attributes', () => {
    const token = jwt({
      sub: 'user-42',
      name: ' Ana ',
      email: 'ana@example.com',
      exp: NOW_S + 3600,
      iat: NOW_S,
      plan: 'pro',
      seats: 3,
      admin: false,
    });
    expect(verify(token)).toEqual({
      sub: 'user-42',
      name: 'Ana',
      email: 'ana@example.com',
      attributes: { plan: 'pro', seats: 3, admin: false },
    });
  });

  it('refuses a forged signature, another secret and a tampered payload', () => {
    const good = jwt({ sub: 'u', exp: NOW_S + 60 });
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60 }, 'idsec_another'))).toBeNull();
    const [h, , s] = good.split('.');
    expect(verify(`${h}.${b64({ sub: 'admin', exp: NOW_S + 60 })}.${s}`)).toBeNull();
    expect(verify(`${good.slice(0, -2)}AA`)).toBeNull();
    expect(verify('not.a.jwt!')).toBeNull();
    expect(verify('')).toBeNull();
    expect(verify('a'.repeat(5000))).toBeNull();
  });

  it('requires exp, in the future and at most 24 h ahead', () => {
    expect(verify(jwt({ sub: 'u' }))).toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S - 1 }))).toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S }))).toBeNull();
    expect(verify(jwt({ sub: 'u', exp: String(NOW_S + 60) }))).toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 25 * 3600 }))).toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 24 * 3600 }))).not.toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60, nbf: NOW_S + 3600 }))).toBeNull();
  });

  it('accepts HS256 only: alg none, RS256 and HS512 are refused', () => {
    const claims = { sub: 'u', exp: NOW_S + 60 };
    expect(verify(`${b64({ alg: 'none' })}.${b64(claims)}.`)).toBeNull();
    expect(verify(jwt(claims, SECRET, { alg: 'none' }))).toBeNull();
    expect(verify(jwt(claims, SECRET, { alg: 'RS256' }))).toBeNull();
    expect(verify(jwt(claims, SECRET, { alg: 'HS512' }))).toBeNull();
    expect(verify(jwt(claims, SECRET, { alg: 'HS256', crit: ['x'] }))).toBeNull();
    expect(verify(jwt(claims, SECRET, { alg: 'HS256' }))).not.toBeNull();
  });

  it('refuses a token that names another bot, and one with a bad sub', () => {
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60, bot: 8 }))).toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60, aud: '8' }))).toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60, bot: 7, aud: '7' }))).not.toBeNull();
    expect(verify(jwt({ exp: NOW_S + 60 }))).toBeNull();
    expect(verify(jwt({ sub: 42, exp: NOW_S + 60 }))).toBeNull();
    expect(verify(jwt({ sub: '', exp: NOW_S + 60 }))).toBeNull();
    expect(verify(jwt({ sub: 'x'.repeat(201), exp: NOW_S + 60 }))).toBeNull();
  });

  it('refuses more than 20 attributes, more than 1 KB of them, and values that are not scalars', () => {
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`a${i}`, i]));
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60, ...twenty }))).not.toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60, ...twenty, a20: 1 }))).toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60, note: 'x'.repeat(1000) }))).not.toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60, note: 'x'.repeat(1020) }))).toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60, tags: ['a'] }))).toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60, address: { city: 'x' } }))).toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60, plan: null }))).toBeNull();
    expect(verify(jwt({ sub: 'u', exp: NOW_S + 60, name: 5 }))).toBeNull();
  });

  it('refuses every proof when the bot has no secret', () => {
    expect(verifyIdentity({ token: jwt({ sub: 'u', exp: NOW_S + 60 }) }, null, BOT, NOW)).toBeNull();
  });
});

describe('verifyIdentity (userHash)', () => {
  const hash = (userId: string, secret = SECRET) => createHmac('sha256', secret).update(userId).digest('hex');

  it('accepts the hex HMAC-SHA256 of the user id, with no attributes', () => {
    expect(verifyIdentity({ userId: 'user-42', userHash: hash('user-42') }, SECRET, BOT, NOW)).toEqual({
      sub: 'user-42',
      attributes: {},
    });
    expect(
      verifyIdentity({ userId: 'user-42', userHash: hash('user-42').toUpperCase() }, SECRET, BOT, NOW),
    ).not.toBeNull();
  });

  it("refuses another user's hash, another secret's and malformed hashes", () => {
    expect(verifyIdentity({ userId: 'user-43', userHash: hash('user-42') }, SECRET, BOT, NOW)).toBeNull();
    expect(verifyIdentity({ userId: 'user-42', userHash: hash('user-42', 'idsec_old') }, SECRET, BOT, NOW)).toBeNull();
    expect(verifyIdentity({ userId: 'user-42', userHash: 'zz' }, SECRET, BOT, NOW)).toBeNull();
    expect(verifyIdentity({ userId: '', userHash: hash('') }, SECRET, BOT, NOW)).toBeNull();
  });
});

describe('verifiedVisitorId', () => {
  it('is the same for a sub on one bot, and differs across bots and subs', () => {
    expect(verifiedVisitorId(7, 'a')).toBe(verifiedVisitorId(7, 'a'));
    expect(verifiedVisitorId(7, 'a')).not.toBe(verifiedVisitorId(8, 'a'));
    expect(verifiedVisitorId(7, 'a')).not.toBe(verifiedVisitorId(7, 'b'));
    expect(verifiedVisitorId(7, 'a')).toMatch(/^u-[A-Za-z0-9_-]{43}$/);
  });
});

describe('identityFromHeader', () => {
  it('reads a JWT as is, or userId and userHash URL-encoded; anything else is no proof', () => {
    expect(identityFromHeader('aaa.bbb.ccc')).toEqual({ token: 'aaa.bbb.ccc' });
    expect(identityFromHeader(`userId=customer+1%2F%C3%A9&userHash=${'ab'.repeat(32)}`)).toEqual({
      userId: 'customer 1/é',
      userHash: 'ab'.repeat(32),
    });
    // A proof that is only half there, empty, or longer than any token.
    expect(identityFromHeader('userId=customer-1')).toBeUndefined();
    expect(identityFromHeader('userHash=00&userId=')).toBeUndefined();
    expect(identityFromHeader('')).toBeUndefined();
    expect(identityFromHeader(undefined)).toBeUndefined();
    expect(identityFromHeader('x'.repeat(4097))).toBeUndefined();
    // A value that is no JWT is still a proof: verifyIdentity refuses it, and the refusal is anonymous.
    expect(identityFromHeader('not a token')).toEqual({ token: 'not a token' });
  });
});

describe('IdentitySecretBox', () => {
  it('opens what it sealed for the same bot only, and nothing under another session secret', () => {
    const box = new IdentitySecretBox('session-secret-one-that-is-long-enough');
    const secret = newIdentitySecret();
    expect(secret).toMatch(/^idsec_[A-Za-z0-9_-]{43}$/);
    const sealed = box.seal(secret, 7);
    expect(sealed).not.toContain(secret.slice(6));
    expect(sealed.length).toBeLessThanOrEqual(200);
    expect(box.open(sealed, 7)).toBe(secret);
    expect(box.open(sealed, 8)).toBeNull();
    expect(new IdentitySecretBox('another-session-secret-long-enough').open(sealed, 7)).toBeNull();
    expect(box.open(null, 7)).toBeNull();
    expect(box.open('garbage', 7)).toBeNull();
  });
});
