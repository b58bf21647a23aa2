import { describe, expect, it } from 'vitest';
import { DEFAULT_COLOURS, solidGradient, type ColourField } from './bots.js';
import {
  adjustBackground,
  checkContrast,
  contrastRatio,
  readableTextOn,
  relativeLuminance,
  WCAG_AA_GRAPHIC,
  WCAG_AA_TEXT,
} from './contrast.js';

/** A new bot's colours, stored as the API stores them. */
const defaults = Object.fromEntries(
  Object.entries(DEFAULT_COLOURS).map(([field, hex]) => [field, solidGradient(hex)]),
) as Record<ColourField, string>;

describe('contrastRatio', () => {
  it('is 21:1 for black on white and 1:1 for a colour on itself', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#2ecc71', '#2ecc71')).toBe(1);
  });
  it('matches published WCAG figures', () => {
    // #767676 on white is the lightest grey that passes 4.5:1 (4.54:1); #777777 fails (4.48:1).
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
    expect(relativeLuminance('#808080')).toBeCloseTo(0.2159, 3);
  });
  it('says white on the default green (docs/product.md#bot-defaults) is 2.1:1', () => {
    expect(contrastRatio('#ffffff', '#2ecc71')).toBeCloseTo(2.1, 1);
  });
});

describe('checkContrast', () => {
  it('fails the defaults where white sits on #2ecc71: banner title, launcher icon and send arrow', () => {
    const results = checkContrast(defaults);
    const failing = results.filter((r) => !r.passes).map((r) => r.pair.id);
    expect(failing).toEqual(['banner', 'launcher', 'send']);
    const banner = results.find((r) => r.pair.id === 'banner')!;
    expect(banner.ratio).toBe(2.1);
    expect(banner.pair.minimum).toBe(WCAG_AA_TEXT);
    expect(results.find((r) => r.pair.id === 'send')!.pair.minimum).toBe(WCAG_AA_GRAPHIC);
  });
  it('passes the pairs that read well: bot messages, the visitor bubble, the placeholder', () => {
    const passing = checkContrast(defaults)
      .filter((r) => r.passes)
      .map((r) => r.pair.id);
    expect(passing).toEqual(['botMessage', 'visitorMessage', 'placeholder']);
  });
  it('checks a gradient background at its worst stop', () => {
    const results = checkContrast({
      ...defaults,
      bannerColor: 'linear-gradient(to right, #000000, #ffffff)',
      bannerTextColor: solidGradient('#ffffff'),
    });
    const banner = results.find((r) => r.pair.id === 'banner')!;
    expect(banner.ratio).toBe(1);
    expect(banner.passes).toBe(false);
  });
  it('never rounds a failing ratio up to a passing figure', () => {
    const [placeholder] = checkContrast({
      placeholderTextColor: solidGradient('#777777'),
      widgetBackgroundColor: solidGradient('#ffffff'),
    }).filter((r) => r.pair.id === 'placeholder');
    expect(placeholder.passes).toBe(false);
    expect(placeholder.ratio).toBeLessThan(4.5);
  });
  it('reads unusable stored values as the widget paints them (its fallbacks)', () => {
    const results = checkContrast({ bannerColor: 'url(javascript:alert(1))', bannerTextColor: 'red' });
    const banner = results.find((r) => r.pair.id === 'banner')!;
    expect(banner.text).toBe('#ffffff');
    expect(banner.ratio).toBe(2.1);
  });
});

describe('fixes', () => {
  it('picks black text on the default green (over 9:1)', () => {
    expect(readableTextOn(['#2ecc71'])).toBe('#000000');
    expect(contrastRatio('#000000', '#2ecc71')).toBeGreaterThan(9);
    expect(readableTextOn(['#1a237e', '#311b92'])).toBe('#ffffff');
  });
  it('darkens the green under white text just enough to reach AA, keeping its hue', () => {
    const darker = adjustBackground('#2ecc71', '#ffffff', WCAG_AA_TEXT)!;
    expect(contrastRatio('#ffffff', darker)).toBeGreaterThanOrEqual(WCAG_AA_TEXT);
    expect(contrastRatio('#ffffff', darker)).toBeLessThan(WCAG_AA_TEXT + 0.2);
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(darker.slice(i, i + 2), 16));
    expect(g).toBeGreaterThan(r);
    expect(g).toBeGreaterThan(b);
  });
  it('lightens a background under dark text, and leaves a passing one as it is', () => {
    const lighter = adjustBackground('#333333', '#000000', WCAG_AA_TEXT)!;
    expect(contrastRatio('#000000', lighter)).toBeGreaterThanOrEqual(WCAG_AA_TEXT);
    expect(adjustBackground('#FFFFFF', '#000000', WCAG_AA_TEXT)).toBe('#ffffff');
  });
  it('gives null where moving the background away from the text cannot reach the ratio', () => {
    expect(adjustBackground('#999999', '#808080', WCAG_AA_TEXT)).toBeNull();
  });
});
