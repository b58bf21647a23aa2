import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from './config.js';

/**
 * Production must set SESSION_SECRET (config validation requires 32+ characters). On a fresh
 * machine a random secret is made once and kept in the data folder, so restarts keep sessions.
 * Other keys (the chat's visitor tokens, the client-network hashes) are derived from it.
 */
export function sessionSecret(config: AppConfig): string {
  if (config.session.secret) return config.session.secret;
  if (config.env === 'production') {
    throw new Error('SESSION_SECRET must be set in production (32 or more random characters).');
  }
  const file = path.join(config.dataDir, 'session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const secret = crypto.randomBytes(32).toString('base64url');
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
