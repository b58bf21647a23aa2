import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A new identity secret: 32 random bytes, prefixed so an owner recognises it in a config file. */
export function newIdentitySecret(): string {
  return `idsec_${randomBytes(32).toString('base64url')}`;
}

const SEALED = /^v1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/;

/**
 * A bot's identity secret at rest (docs/product.md#verified-visitors): the server needs the secret
 * itself to check signatures, so it cannot be stored as a hash; it is sealed with AES-256-GCM under
 * a key derived from the session secret, so a copy of the database alone does not let anyone sign
 * visitors in. Shown to the owner once, when made; no route reads it back.
 */
export class IdentitySecretBox {
  private readonly key: Buffer;

  constructor(sessionSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', sessionSecret, 'botsmith', 'identity-secret', 32));
  }

  /** `v1.<iv>.<ciphertext>.<tag>`, bound to the bot so a sealed value copied to another bot does not open. */
  seal(secret: string, botId: number): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(`bot:${botId}`));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `v1.${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  /** The secret, or null when there is none or it does not open (another session secret, another bot). */
  open(sealed: string | null, botId: number): string | null {
    const match = sealed ? SEALED.exec(sealed) : null;
    if (!match) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(match[1], 'base64url'));
      decipher.setAAD(Buffer.from(`bot:${botId}`));
      decipher.setAuthTag(Buffer.from(match[3], 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(match[2], 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
