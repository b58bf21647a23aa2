import { describe, expect, it } from 'vitest';
import { background, contrastText, extractHex, launcherVars, radius, widgetTheme, windowVars } from './widget-theme.js';

describe('extractHex', () => {
  it('takes the first 6-digit hex of a gradient', () => {
    expect(extractHex('linear-gradient(to right, #ff9800, #2ecc71)', '#000')).toBe('#ff9800');
  });
  it('takes a 3-digit hex', () => {
    expect(extractHex('linear-gradient(135deg, #abc, #def)', '#000')).toBe('#abc');
  });
  it('accepts a bare hex', () => {
    expect(extractHex('#DCF8C6', '#000')).toBe('#DCF8C6');
  });
  it('falls back when there is no 3- or 6-digit hex', () => {
    expect(extractHex('linear-gradient(to right, red, blue)', '#2ecc71')).toBe('#2ecc71');
    expect(extractHex('#abcd', '#2ecc71')).toBe('#2ecc71');
    expect(extractHex('#12345678', '#2ecc71')).toBe('#2ecc71');
    expect(extractHex(undefined, '#fff')).toBe('#fff');
    expect(extractHex(42, '#fff')).toBe('#fff');
    expect(extractHex('', '#fff')).toBe('#fff');
  });
});

describe('background', () => {
  it('keeps a well-formed gradient in every direction the dashboard offers', () => {
    for (const dir of ['to right', 'to bottom', '135deg', 'to left', 'to top']) {
      const g = `linear-gradient(${dir}, #ff0000, #0000ff)`;
      expect(background(g, '#fff')).toBe(g);
    }
  });
  it('uses the solid colour of a gradient it does not accept', () => {
    expect(background('linear-gradient(to right, #ff0000, rgb(0,0,0))', '#fff')).toBe('#ff0000');
  });
  it('never passes through other CSS', () => {
    const evil = 'linear-gradient(to right, #ff0000, #0000ff); background: url(https://evil.example/x)';
    expect(background(evil, '#fff')).toBe('#ff0000');
    expect(background('url(javascript:alert(1))', '#fff')).toBe('#fff');
    expect(background('expression(alert(1))', '#f1f0f0')).toBe('#f1f0f0');
  });
  it('falls back to the default colours', () => {
    expect(background(null, '#2ecc71')).toBe('#2ecc71');
  });
});

describe('radius', () => {
  it('accepts px, %, em and bare numbers', () => {
    expect(radius('10px', '12px')).toBe('10px');
    expect(radius('50%', '12px')).toBe('50%');
    expect(radius('1.5em', '12px')).toBe('1.5em');
    expect(radius('8', '12px')).toBe('8px');
    expect(radius(8, '12px')).toBe('8px');
  });
  it('falls back to 12px on anything else', () => {
    expect(radius('', '12px')).toBe('12px');
    expect(radius('10px; color: red', '12px')).toBe('12px');
    expect(radius(undefined, '12px')).toBe('12px');
  });
});

describe('contrastText', () => {
  it('is black on light and white on dark colours', () => {
    expect(contrastText('#DCF8C6')).toBe('#000000');
    expect(contrastText('#fff')).toBe('#000000');
    expect(contrastText('#1a237e')).toBe('#ffffff');
    expect(contrastText('#000')).toBe('#ffffff');
  });
});

describe('launcherVars and windowVars', () => {
  it("use the widget's fallbacks for a bot without styling", () => {
    const w = windowVars({});
    expect(w['--banner']).toBe('#2ecc71');
    expect(w['--user']).toBe('#DCF8C6');
    expect(w['--user-fg']).toBe('#000000');
    expect(w['--asst']).toBe('#f1f0f0');
    expect(w['--bg']).toBe('#ffffff');
    expect(w['--win-r']).toBe('12px');
    expect(launcherVars({})['--bubble']).toBe('#2ecc71');
    expect(launcherVars({})['--bubble-r']).toBe('50%');
  });
  it('paint gradients and take text colours as solid hex', () => {
    const w = windowVars({
      bannerColor: 'linear-gradient(to right, #111111, #333333)',
      bannerTextColor: 'linear-gradient(to right, #fafafa, #fafafa)',
      widgetBubbleColor: 'linear-gradient(to bottom, #ff9800, #ff9800)',
    });
    expect(w['--banner']).toBe('linear-gradient(to right, #111111, #333333)');
    expect(w['--banner-fg']).toBe('#fafafa');
    expect(w['--user-fg']).toBe('#000000');
  });
});

describe('widgetTheme', () => {
  it("holds the launcher's and the window's variables, and nothing but custom properties", () => {
    const theme = widgetTheme({ bubbleColor: 'linear-gradient(to right, #111111, #222222)' });
    expect(theme).toEqual({
      ...launcherVars({ bubbleColor: 'linear-gradient(to right, #111111, #222222)' }),
      ...windowVars({}),
    });
    expect(Object.keys(theme).every((key) => key.startsWith('--'))).toBe(true);
  });
});
