import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A new identity secret: 32 random bytes, prefixed so an owner recognises it in a config file. */
export function newIdentitySecret(): string {
  return `idsec_${randomBytes(32).toString('base64url')}`;
}

const SEALED = /^v1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/;

/**
 * Secrets the server must read back (not hash) at rest: AES-256-GCM under a key derived (HKDF) from
 * `keyMaterial` for one `purpose`, so a copy of the database alone opens none of them. Each value
 * is bound (GCM's additional data) to what it belongs to, so a sealed value copied elsewhere in
 * the database does not open there. Used for bots' identity secrets and actions' header values.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', keyMaterial, 'botsmith', purpose, 32));
  }

  /** `v1.<iv>.<ciphertext>.<tag>`. */
  seal(value: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return `v1.${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  /** The value, or null when there is none or it does not open (another key, bound elsewhere). */
  open(sealed: string | null, boundTo: string): string | null {
    const match = sealed ? SEALED.exec(sealed) : null;
    if (!match) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(match[1], 'base64url'));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(Buffer.from(match[3], 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(match[2], 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/**
 * A bot's identity secret at rest (docs/product.md#verified-visitors): the server needs the secret
 * itself to check signatures, so it cannot be stored as a hash; it is sealed (SecretBox) under a
 * key derived from the session secret. Shown to the owner once, when made; no route reads it back.
 */
export class IdentitySecretBox {
  private readonly box: SecretBox;

  constructor(sessionSecret: string) {
    this.box = new SecretBox(sessionSecret, 'identity-secret');
  }

  /** Bound to the bot so a sealed value copied to another bot does not open. */
  seal(secret: string, botId: number): string {
    return this.box.seal(secret, `bot:${botId}`);
  }

  /** The secret, or null when there is none or it does not open (another session secret, another bot). */
  open(sealed: string | null, botId: number): string | null {
    return this.box.open(sealed, `bot:${botId}`);
  }
}
