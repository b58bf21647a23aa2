import { describe, expect, it } from '@jest/globals';
import { IdentitySecretBox, SecretBox } from './identity-secret.js';

const KEY = 'k'.repeat(40);

describe('SecretBox', () => {
  it('opens what it sealed, only where it was bound and only under the same key and purpose', () => {
    const box = new SecretBox(KEY, 'action-headers');
    const sealed = box.seal('sk_live_1', 'action-header:1:x-api-key');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('sk_live_1');
    expect(box.open(sealed, 'action-header:1:x-api-key')).toBe('sk_live_1');
    expect(box.open(sealed, 'action-header:2:x-api-key')).toBeNull();
    expect(new SecretBox('o'.repeat(40), 'action-headers').open(sealed, 'action-header:1:x-api-key')).toBeNull();
    expect(new SecretBox(KEY, 'identity-secret').open(sealed, 'action-header:1:x-api-key')).toBeNull();
    expect(box.open(`${sealed.slice(0, -2)}AA`, 'action-header:1:x-api-key')).toBeNull();
    expect(box.open(null, 'x')).toBeNull();
  });

  it("keeps the identity secret's format: a value sealed for a bot opens for that bot only", () => {
    const identity = new IdentitySecretBox(KEY);
    const sealed = identity.seal('idsec_abc', 4);
    expect(identity.open(sealed, 4)).toBe('idsec_abc');
    expect(identity.open(sealed, 5)).toBeNull();
    // The same as a SecretBox for purpose identity-secret bound to "bot:<id>": rows sealed before stay readable.
    expect(new SecretBox(KEY, 'identity-secret').open(sealed, 'bot:4')).toBe('idsec_abc');
  });
});
