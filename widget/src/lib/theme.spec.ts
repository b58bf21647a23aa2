import { describe, expect, it } from 'vitest';
import { iconUrl } from './theme';

describe('iconUrl', () => {
  it('resolves an upload path against the API origin', () => {
    expect(iconUrl('/uploads/icons/a.png', 'https://api.example')).toBe('https://api.example/uploads/icons/a.png');
  });
  it('refuses non-http schemes', () => {
    expect(iconUrl('javascript:alert(1)', 'https://api.example')).toBe('');
    expect(iconUrl('data:image/svg+xml,<svg onload=alert(1)>', 'https://api.example')).toBe('');
    expect(iconUrl('', 'https://api.example')).toBe('');
  });
});
