import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { CHAT_VISITOR_LIMITS } from '@botsmith/contract';

/**
 * How the owner's server says who the visitor is (docs/product.md#verified-visitors): a JWT signed
 * with the bot's identity secret, or, for owners who cannot make JWTs, the user id and its hex
 * HMAC-SHA256 under the same secret.
 */
export type IdentityProof = { token: string } | { userId: string; userHash: string };

/** A visitor the owner's server vouched for. */
export interface VerifiedVisitor {
  /** The owner's user id: the conversation and the per-visitor limit follow it. */
  sub: string;
  name?: string;
  email?: string;
  /** The token's other claims (none for a userHash). */
  attributes: Record<string, string | number | boolean>;
}

export const IDENTITY_LIMITS = {
  /** Nothing longer is parsed. */
  tokenMaxChars: 4096,
  subMaxChars: 200,
  attributesMax: 20,
  /** The attributes as JSON, in bytes. */
  attributesMaxBytes: 1024,
  /** `exp` at most this far ahead. */
  maxLifetimeSeconds: 24 * 60 * 60,
  /** Clocks differ: this much leeway on `exp`'s upper bound and on `nbf`. */
  skewSeconds: 60,
} as const;

/** Claims the token's shape uses; every other claim is an attribute. */
const RESERVED = new Set(['sub', 'name', 'email', 'exp', 'iat', 'nbf', 'iss', 'aud', 'jti', 'bot']);
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const HEX_HASH = /^[0-9a-fA-F]{64}$/;

/**
 * The visitor `proof` names when it is signed with this bot's `secret`; null for anything else (a
 * bad signature, an expired token, a token for another bot or signed with a secret since rotated),
 * which the caller treats as an anonymous visitor, never as an error.
 *
 * Checked with node:crypto rather than a JWT library: only HS256 is accepted, so the whole check
 * is one HMAC compared in constant time plus the claim rules below, and there is no `alg`
 * negotiation (`none`, RS256 with the secret as a public key) for a library option to get wrong.
 */
export function verifyIdentity(
  proof: IdentityProof,
  secret: string | null,
  botId: number,
  now: Date = new Date(),
): VerifiedVisitor | null {
  if (!secret) return null;
  if ('token' in proof) return verifyToken(proof.token, secret, botId, Math.floor(now.getTime() / 1000));
  const { userId, userHash } = proof;
  if (typeof userId !== 'string' || !validSub(userId) || typeof userHash !== 'string' || !HEX_HASH.test(userHash)) {
    return null;
  }
  const expected = createHmac('sha256', secret).update(userId, 'utf8').digest();
  return timingSafeEqual(expected, Buffer.from(userHash, 'hex')) ? { sub: userId, attributes: {} } : null;
}

/**
 * The proof in the widget's `X-Visitor-Identity` header, which it sends on every visitor route
 * (rating, lead, the conversation's messages and events, deleting it) because GET and DELETE carry
 * no `visitor` body: a JWT as is, or `userId=…&userHash=…` URL-encoded. Anything else is no proof.
 */
export function identityFromHeader(value: string | undefined): IdentityProof | undefined {
  if (!value || value.length > IDENTITY_LIMITS.tokenMaxChars) return undefined;
  if (!value.includes('=')) return { token: value };
  const fields = new URLSearchParams(value);
  const userId = fields.get('userId');
  const userHash = fields.get('userHash');
  return userId && userHash ? { userId, userHash } : undefined;
}

/** The visitor id a verified visitor has with a bot: the same on every device and network. */
export function verifiedVisitorId(botId: number, sub: string): string {
  // 'u-' + 43 characters: never the shape of an id a visitor token names (22 characters), so a
  // visitor token cannot name a verified visitor; only a valid proof does.
  return `u-${createHash('sha256').update(`${botId}\n${sub}`).digest('base64url')}`;
}

function verifyToken(token: string, secret: string, botId: number, nowSeconds: number): VerifiedVisitor | null {
  if (typeof token !== 'string' || token.length > IDENTITY_LIMITS.tokenMaxChars) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return null;
  const [headerPart, payloadPart, signaturePart] = parts;
  const header = jsonObject(headerPart);
  if (!header || header.alg !== 'HS256' || (header.typ !== undefined && header.typ !== 'JWT') || 'crit' in header) {
    return null;
  }
  const expected = createHmac('sha256', secret).update(`${headerPart}.${payloadPart}`).digest();
  const given = Buffer.from(signaturePart, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;

  const claims = jsonObject(payloadPart);
  if (!claims) return null;
  const { sub, exp, nbf, name, email } = claims;
  if (typeof sub !== 'string' || !validSub(sub)) return null;
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= nowSeconds) return null;
  if (exp > nowSeconds + IDENTITY_LIMITS.maxLifetimeSeconds + IDENTITY_LIMITS.skewSeconds) return null;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSeconds + IDENTITY_LIMITS.skewSeconds)) return null;
  // The secret is the bot's own, so a token signed for another bot already failed; a token that
  // names its bot must name this one.
  for (const claim of ['bot', 'aud'] as const) {
    const named = claims[claim];
    if (named !== undefined && named !== botId && named !== String(botId)) return null;
  }
  if (name !== undefined && (typeof name !== 'string' || name.length > CHAT_VISITOR_LIMITS.nameMaxChars)) return null;
  if (email !== undefined && (typeof email !== 'string' || email.length > CHAT_VISITOR_LIMITS.emailMaxChars)) {
    return null;
  }

  const attributes: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(claims)) {
    if (RESERVED.has(key)) continue;
    if (
      typeof value !== 'string' &&
      typeof value !== 'boolean' &&
      !(typeof value === 'number' && Number.isFinite(value))
    ) {
      return null;
    }
    attributes[key] = value;
  }
  if (Object.keys(attributes).length > IDENTITY_LIMITS.attributesMax) return null;
  if (Buffer.byteLength(JSON.stringify(attributes)) > IDENTITY_LIMITS.attributesMaxBytes) return null;

  const visitor: VerifiedVisitor = { sub, attributes };
  if (name?.trim()) visitor.name = name.trim();
  if (email?.trim()) visitor.email = email.trim();
  return visitor;
}

function validSub(sub: string): boolean {
  return sub.length > 0 && sub.length <= IDENTITY_LIMITS.subMaxChars && sub.trim() === sub;
}

function jsonObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
