import { attachment } from './file-serving.js';
import { isStorageKey, newStorageKey } from '../storage/file-storage.js';
import { iconKeyFromUrl } from '../storage/file-urls.js';
import { displayName } from './uploads.service.js';

describe('stored file names', () => {
  it('generates keys that only the key pattern accepts', () => {
    const key = newStorageKey('icons', 'png');
    expect(key).toMatch(/^icons\/[0-9a-f-]{36}\.png$/);
    expect(isStorageKey(key)).toBe(true);
    expect(newStorageKey('icons', 'png')).not.toBe(key);
    for (const bad of [
      '../icons/x.png',
      'icons/../../etc/passwd',
      `icons/${key.slice(6, 42)}.svg`,
      `other/${key.slice(6)}`,
      `${key}/extra`,
      `${key}\u0000.png`,
      '',
    ]) {
      expect(isStorageKey(bad)).toBe(false);
    }
  });

  it("recognises only this server's icon addresses", () => {
    const config = { publicUrl: 'https://app.botsmith.dev' };
    const key = newStorageKey('icons', 'webp');
    expect(iconKeyFromUrl(config, `https://app.botsmith.dev/uploads/${key}`)).toBe(key);
    expect(iconKeyFromUrl(config, `/uploads/${key}`)).toBe(key);
    expect(iconKeyFromUrl(config, `https://evil.example/uploads/${key}`)).toBeNull();
    expect(iconKeyFromUrl(config, `https://app.botsmith.dev/uploads/${key.replace('icons', 'documents')}`)).toBeNull();
    expect(iconKeyFromUrl(config, 'https://app.botsmith.dev/uploads/icons/../../x.png')).toBeNull();
  });
});

describe('displayName', () => {
  it.each([
    ['handbook.pdf', 'handbook.pdf'],
    ['../../etc/passwd', 'passwd.pdf'],
    ['C:\\Users\\me\\Price list.PDF', 'Price list.PDF'],
    ['..\\..\\evil<script>.pdf', 'evilscript.pdf'],
    ['line\r\nbreak.pdf', 'linebreak.pdf'],
    ['', 'document.pdf'],
    ['...', 'document.pdf'],
    ['.hidden.pdf', 'hidden.pdf'],
    ['résumé "final".pdf', 'résumé final.pdf'],
  ])('shows %j as %j', (original, expected) => {
    expect(displayName(original)).toBe(expected);
  });

  it('keeps names within 255 characters, ending in .pdf', () => {
    const name = displayName(`${'a'.repeat(400)}.pdf`);
    expect(name).toHaveLength(255);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});

describe('attachment', () => {
  it('gives an ASCII fallback and the RFC 5987 UTF-8 name, escaping quotes and backslashes', () => {
    expect(attachment('plain.pdf')).toBe(`attachment; filename="plain.pdf"; filename*=UTF-8''plain.pdf`);
    expect(attachment('a"b\\c.pdf')).toBe(`attachment; filename="a_b_c.pdf"; filename*=UTF-8''a%22b%5Cc.pdf`);
    expect(attachment('żółw (1).pdf')).toBe(
      `attachment; filename="___w (1).pdf"; filename*=UTF-8''%C5%BC%C3%B3%C5%82w%20%281%29.pdf`,
    );
  });
});
