import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LEAD_THANK_YOU_DEFAULT, WIDGET_LANGUAGES } from '@botsmith/contract';
import { describe, expect, it } from 'vitest';
import { pickLanguage } from '../lib/i18n';
import en from './en';
import extrasEn from './extras/en';

// Vitest runs in widget/ (jsdom gives modules http: URLs, so paths come from the working directory).
const dir = path.resolve('src/lang');
const files = readdirSync(dir).filter((name) => /^[a-z]{2}\.ts$/.test(name));
const modules = import.meta.glob<{ default: Record<string, unknown> }>('./[a-z][a-z].ts', { eager: true });
/** The second chunk's texts (src/extras/: the menu, the lead form, an answer's rating and sources). */
const extrasModules = import.meta.glob<{ default: Record<string, unknown> }>('./extras/[a-z][a-z].ts', {
  eager: true,
});

describe('the language files', () => {
  it('are exactly the languages the contract offers owners', () => {
    expect(files.map((name) => name.slice(0, 2)).sort()).toEqual([...WIDGET_LANGUAGES].sort());
  });

  /** Every key of English, no other, each a non-empty text keeping its %s, and not a copy of English. */
  function expectTranslation(texts: Record<string, unknown>, english: Record<string, string>, file: string): void {
    expect(Object.keys(texts).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(texts)) {
      expect(typeof text, key).toBe('string');
      expect((text as string).trim(), key).not.toBe('');
      expect((text as string).includes('%s'), key).toBe(english[key].includes('%s'));
    }
    if (file != 'en.ts') {
      // A translation, not a copy: at most names like "Conversation", "E-mail" or "Sources" read the same.
      const same = Object.keys(english).filter((key) => texts[key] == english[key]);
      expect(same.length, same.join(', ')).toBeLessThanOrEqual(3);
    }
  }

  for (const file of files) {
    it(`${file}: every key of English, no other, each a non-empty text keeping its %s`, () => {
      expectTranslation(modules[`./${file}`].default, en, file);
    });

    it(`extras/${file}: the second chunk's texts, the same way`, () => {
      expect(extrasModules[`./extras/${file}`], `src/lang/extras/${file} is missing`).toBeDefined();
      expectTranslation(extrasModules[`./extras/${file}`].default, extrasEn, file);
    });
  }

  it('says the quoted product texts exactly in English', () => {
    const source = readFileSync(path.resolve('src/lib/messages.ts'), 'utf8');
    for (const text of [en.placeholder, en.botFailed, en.error, en.sendFailed, en.unavailable])
      expect(source).toContain(`'${text}'`);
    expect(extrasEn.thanks).toBe(LEAD_THANK_YOU_DEFAULT);
  });
});

describe('pickLanguage', () => {
  const built = { en: 1, es: 1, fr: 1, de: 1, pt: 1, it: 1, nl: 1, ja: 1 };

  it("takes the first of the visitor's languages it speaks, by its primary subtag", () => {
    expect(pickLanguage('auto', ['de-DE', 'en-US'], built)).toBe('de');
    expect(pickLanguage(undefined, ['pt-BR'], built)).toBe('pt');
    expect(pickLanguage('auto', ['ar-EG', 'he', 'FR-ca'], built)).toBe('fr');
    expect(pickLanguage('auto', ['JA'], built)).toBe('ja');
  });

  it('falls back to English when it speaks none of them, or the browser names none', () => {
    expect(pickLanguage('auto', ['ar', 'zh-CN'], built)).toBe('en');
    expect(pickLanguage('auto', [], built)).toBe('en');
    expect(pickLanguage('auto', [''], built)).toBe('en');
  });

  it("keeps the owner's fixed choice whatever the browser says, unless it is not built", () => {
    expect(pickLanguage('nl', ['de-DE'], built)).toBe('nl');
    expect(pickLanguage('xx', ['de-DE'], built)).toBe('en');
    expect(pickLanguage('de', ['ja'], { en: 1 })).toBe('en');
  });

  it('never takes an inherited property for a language', () => {
    expect(pickLanguage('auto', ['constructor', '__proto__', 'to'], built)).toBe('en');
  });
});

describe('right-to-left pages', () => {
  it('lay out the window with logical sides only: nothing but the owner-chosen corner is left or right', () => {
    const css = ['window.css', 'extras.css']
      .map((file) => readFileSync(path.resolve('src/styles', file), 'utf8'))
      .join('\n')
      .replace(/\/\*[\s\S]*?\*\//g, '');
    const physical = css
      .split('}')
      .filter((rule) =>
        /(^|[\s;{])(left|right|padding-(left|right)|margin-(left|right)|border-[a-z-]*(left|right)[a-z-]*)\s*:|text-align:\s*(left|right)/.test(
          rule,
        ),
      )
      .map((rule) => rule.slice(0, rule.lastIndexOf('{')).split('{').pop()!.trim());
    // The window's corner of the page is the owner's choice (left or right), not the text's.
    expect(physical).toEqual(['.w', '.left .w', '.w,\n  .left .w']);
  });
});
