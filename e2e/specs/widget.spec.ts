import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { widgetTheme } from '@botsmith/contract';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../support/app-server.js';
import { collectPageErrors, DESKTOP, launchBrowser, PHONE, screenshot } from '../support/browser.js';
import { startFakeApi, startHostSite, type FakeApi, type HostSite } from './widget-fixtures.js';

/**
 * The embeddable widget in Chromium, on a customer's site of another origin (127.0.0.2) with a
 * strict CSP (no inline script or style, Trusted Types required) and CSS that tries to restyle
 * everything with !important. Most tests talk to a fake API that speaks the widget's contract
 * in its own process (widget-fake-api.mjs), so every error path can be produced; the last one embeds the real built
 * product and chats with its demo bot on the offline model.
 */

const widget = (page: Page, botId: string): Locator => page.locator(`botsmith-widget[data-bot="${botId}"]`);
const launcher = (page: Page, botId: string): Locator => widget(page, botId).locator('button.l');
const chatWindow = (page: Page, botId: string): Locator => widget(page, botId).locator('.w');
const messageBox = (page: Page, botId: string): Locator => widget(page, botId).locator('textarea');
const sendButton = (page: Page, botId: string): Locator =>
  widget(page, botId).getByRole('button', { name: 'Send message' });

function css(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);
}

/** Position and size from layout, unaffected by an entrance animation's transform. */
function layoutBox(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  return locator.evaluate((el: HTMLElement) => ({
    x: el.offsetLeft,
    y: el.offsetTop,
    width: el.offsetWidth,
    height: el.offsetHeight,
  }));
}

async function send(page: Page, botId: string, text: string): Promise<void> {
  await messageBox(page, botId).fill(text);
  await messageBox(page, botId).press('Enter');
}

const cspViolations = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

function chatRequests(api: FakeApi) {
  return api.requests.filter((r) => r.path == '/api/chat' && r.method == 'POST');
}

/**
 * Load (script execution to visible launcher, including the bot fetch) and open (click to visible
 * window, the chunk fetched on a cold cache) in Chromium, from the widget's performance marks.
 * Printed, not asserted: this machine is shared, so single runs vary.
 *
 * Nothing touches the page while a mark is awaited: the host page logs each mark to the console
 * (widget-fixtures.ts), and the test waits for that message. Playwright's locator and
 * waitForFunction polling would run scripts on the page's main thread inside the measured window
 * (it added 10-30 ms here), which no real visitor's page does.
 */
async function measureTimings(browser: Browser, url: string, botId: string, runs: number): Promise<string> {
  const loads: number[] = [];
  const opens: number[] = [];
  const logged = (page: Page, mark: string) => page.waitForEvent('console', (m) => m.text() == `botsmith:${mark}`);
  for (let i = 0; i < runs; i++) {
    // A new context each time: an empty HTTP cache, so the window's chunk comes over the network.
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const shown = logged(page, 'launcher');
    await page.goto(url);
    await shown;
    // A bare click event: no hover or focus before it, so nothing was prefetched.
    const opened = logged(page, 'open');
    await launcher(page, botId).dispatchEvent('click');
    await opened;
    const t = await page.evaluate(() => {
      const at = (n: string) => performance.getEntriesByName(`botsmith:${n}`)[0].startTime;
      return { load: at('launcher') - at('exec'), open: at('open') - at('click') };
    });
    loads.push(t.load);
    opens.push(t.open);
    await context.close();
  }
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const stats = (xs: number[]) => {
    const s = sorted(xs);
    return `median ${s[Math.floor(s.length / 2)].toFixed(1)} ms, min ${s[0].toFixed(1)}, max ${s.at(-1)!.toFixed(1)} (${xs.map((x) => x.toFixed(1)).join(', ')})`;
  };
  expect(loads.every((x) => x > 0) && opens.every((x) => x > 0)).toBe(true);
  return `load: ${stats(loads)}; open, cold cache: ${stats(opens)}`;
}

interface WindowState {
  t: number;
  dots: boolean;
  disabled: boolean;
  glow: boolean;
  /** The text of the assistant bubble after the visitor's last message, if any. */
  reply: string | null;
}

/** Records the window's state at every DOM change (a MutationObserver in the page). */
async function startRecording(page: Page, botId: string): Promise<void> {
  await widget(page, botId).evaluate((host) => {
    const root = host.shadowRoot!;
    const states: WindowState[] = [];
    const snap = () => {
      const button = root.querySelector<HTMLButtonElement>('button.s')!;
      const bubbles = Array.from(root.querySelectorAll('.m'));
      const lastUser = bubbles.map((b) => b.classList.contains('user')).lastIndexOf(true);
      const after = bubbles
        .slice(lastUser + 1)
        .find((b) => b.classList.contains('assistant') && !b.classList.contains('dots'));
      states.push({
        t: performance.now(),
        dots: !!root.querySelector('.dots'),
        disabled: button.disabled,
        glow: button.classList.contains('glow'),
        reply: lastUser >= 0 && after ? after.textContent : null,
      });
    };
    const observer = new MutationObserver(snap);
    observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
    (window as unknown as { __record: { states: WindowState[]; observer: MutationObserver } }).__record = {
      states,
      observer,
    };
  });
}

async function stopRecording(page: Page): Promise<WindowState[]> {
  return page.evaluate(() => {
    const r = (window as unknown as { __record: { states: WindowState[]; observer: MutationObserver } }).__record;
    r.observer.disconnect();
    return r.states;
  });
}

describe('the embeddable widget on a hostile customer site', () => {
  let api: FakeApi;
  let site: HostSite;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  async function openPage(query: string, options = DESKTOP): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext(options);
    contexts.push(context);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${site.origin}/page?${query}`);
    return { page, errors };
  }

  beforeAll(async () => {
    if (!fs.existsSync(path.join(REPO_ROOT, 'widget', 'dist', 'widget.js'))) {
      execSync('npm run build -w widget', { cwd: REPO_ROOT, stdio: 'inherit' });
    }
    api = await startFakeApi();
    site = await startHostSite(api.origin);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await site?.close();
    await api?.close();
  });

  it("shows the launcher in the owner's styling and fetches the window only on first hover", async () => {
    const { page, errors } = await openPage('bots=1');
    const button = launcher(page, '1');
    await button.waitFor({ state: 'visible' });
    expect(await css(button, 'background-image')).toBe(
      'linear-gradient(to right, rgb(30, 136, 229), rgb(142, 36, 170))',
    );
    expect(await css(button, 'color')).toBe('rgb(255, 255, 255)');
    expect(await css(button, 'border-radius')).toBe('50%');
    expect(await css(button, 'position')).toBe('fixed');
    expect(await css(button, 'opacity')).toBe('1');
    const b = await layoutBox(button);
    expect([b.width, b.x + b.width, b.y + b.height]).toEqual([60, 1280 - 20, 800 - 20]);
    expect(await button.getAttribute('aria-label')).toBe('Open chat with Acme Support');
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    await page.waitForTimeout(300);
    const chunkRequests = () => api.requests.filter((r) => r.path.startsWith('/widget-assets/')).length;
    const before = chunkRequests();
    await button.hover();
    await expect.poll(chunkRequests).toBe(before + 1);

    expect(await cspViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('opens, sends on Enter and streams the reply as safe Markdown', async () => {
    const { page, errors } = await openPage('bots=1');
    await launcher(page, '1').click();
    const win = chatWindow(page, '1');
    await win.waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.tagName)).toBe('TEXTAREA');
    expect(await launcher(page, '1').getAttribute('aria-expanded')).toBe('true');

    const b = await layoutBox(win);
    // 350x500 above the launcher (20 px margin + 60 px launcher + 12 px gap).
    expect([b.width, b.height, b.x + b.width, b.y + b.height]).toEqual([350, 500, 1280 - 20, 800 - 92]);
    expect(await css(win, 'border-radius')).toBe('10px');
    expect(await css(win.locator('.b'), 'background-image')).toBe(
      'linear-gradient(to right, rgb(30, 136, 229), rgb(142, 36, 170))',
    );
    expect(await win.locator('.b small').textContent()).toBe('AI answers can be wrong.');
    const greeting = win.locator('.m.assistant').first();
    expect(await greeting.textContent()).toBe('Hi! How can I help you today?');
    expect(await css(greeting, 'background-image')).toBe(
      'linear-gradient(to right, rgb(241, 240, 240), rgb(241, 240, 240))',
    );
    expect(await css(greeting, 'max-width')).toBe('75%');
    expect(await messageBox(page, '1').getAttribute('placeholder')).toBe('Type your message here...');

    const before = chatRequests(api).length;
    await messageBox(page, '1').fill('   ');
    await messageBox(page, '1').press('Enter');
    await messageBox(page, '1').fill('line one');
    await messageBox(page, '1').press('Shift+Enter');
    expect(await messageBox(page, '1').inputValue()).toBe('line one\n');
    expect(chatRequests(api).length).toBe(before);

    // Every state the window goes through, recorded in the page: robust however slow the machine.
    await startRecording(page, '1');
    await send(page, '1', 'Hello there');
    const reply = win.locator('.m.assistant').nth(1);
    await expect.poll(() => sendButton(page, '1').isDisabled(), { timeout: 10_000 }).toBe(false);
    const states = await stopRecording(page);
    const user = win.locator('.m.user');
    expect(await user.textContent()).toBe('Hello there');
    expect(await css(user, 'background-image')).toBe('linear-gradient(to right, rgb(30, 136, 229), rgb(30, 136, 229))');
    expect(await css(user, 'color')).toBe('rgb(255, 255, 255)');
    // The three dots while waiting, with the send button disabled and glowing.
    expect(states.some((x) => x.dots && x.disabled && x.glow)).toBe(true);
    // Streaming: part of the reply on screen while still waiting.
    const final = (await reply.textContent()) ?? '';
    expect(states.some((x) => x.disabled && x.reply && x.reply.length < final.length)).toBe(true);
    // The glow lasts 400 ms (measured in the page's own clock).
    const on = states.find((x) => x.glow)!.t;
    const off = states.find((x) => x.t > on && !x.glow)!.t;
    expect(off - on).toBeGreaterThanOrEqual(390);
    expect(await sendButton(page, '1').getAttribute('class')).not.toContain('glow');
    expect(await reply.locator('em').textContent()).toBe('Hello there');
    expect(await reply.locator('strong').textContent()).toBe('bold');
    expect(await reply.locator('code').textContent()).toBe('code');
    expect(await reply.locator('li').count()).toBe(2);
    const link = reply.locator('a');
    expect(await link.getAttribute('href')).toBe('https://example.com/docs');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer nofollow');

    const request = chatRequests(api).at(-1)!;
    // The page's origin and path only: its query (?bots=1) never leaves the page.
    const pageUrl = new URL(page.url());
    expect(pageUrl.search).not.toBe('');
    expect(request.headers['x-page-url']).toBe(pageUrl.origin + pageUrl.pathname);
    // No identity of the widget's own making: the server issues one with the first answer.
    expect(request.headers['x-visitor-id']).toBeUndefined();
    expect(request.headers['x-visitor-token']).toBeUndefined();
    expect(request.headers.accept).toBe('text/event-stream');
    expect(request.headers.cookie).toBeUndefined();
    expect(request.headers.origin).toBe(site.origin);
    expect(JSON.parse(request.body)).toEqual({
      botId: '1',
      chatHistory: [{ role: 'assistant', content: 'Hi! How can I help you today?' }],
      prompt: 'Hello there',
      model: 'gpt-4o-mini',
    });

    // A reply carrying HTML and a javascript: link stays text.
    await send(page, '1', 'show me xss');
    await expect.poll(() => win.locator('.m.assistant').count(), { timeout: 10_000 }).toBe(3);
    await expect.poll(() => sendButton(page, '1').isDisabled(), { timeout: 10_000 }).toBe(false);
    const evil = win.locator('.m.assistant').nth(2);
    expect(await evil.textContent()).toBe('Careful: <img src=x onerror="window.pwned=1"> and click me stay text.');
    expect(await evil.locator('img, a').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    const second = JSON.parse(chatRequests(api).at(-1)!.body) as { chatHistory: unknown[] };
    expect(second.chatHistory).toHaveLength(3);
    expect(chatRequests(api).at(-1)!.headers['x-visitor-token']).toBe('v1.fake-visitor-of-bot-1');

    expect(await cspViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps the conversation across a navigation on the same site and starts a new one on request', async () => {
    const { page } = await openPage('bots=5');
    await launcher(page, '5').click();
    await send(page, '5', 'Chocolate please');
    await expect.poll(() => sendButton(page, '5').isDisabled(), { timeout: 10_000 }).toBe(false);

    await page.getByRole('link', { name: 'Another page' }).click();
    await page.waitForURL(/\/other/);
    await launcher(page, '5').click();
    const win = chatWindow(page, '5');
    await win.locator('.m.user').waitFor();
    expect(await win.locator('.m.user').textContent()).toBe('Chocolate please');
    expect(await win.locator('.m.assistant').count()).toBe(2);

    await win.getByRole('button', { name: 'New conversation' }).click();
    expect(await win.locator('.m').count()).toBe(1);
    expect(await win.locator('.m').textContent()).toBe('Sweet! What are you craving?');
  });

  it('offers the starter questions under the greeting; a tap sends one and they go', async () => {
    const { page, errors } = await openPage('bots=9');
    await launcher(page, '9').click();
    const win = chatWindow(page, '9');
    const chip = win.getByRole('button', { name: 'Do you deliver?' });
    await chip.waitFor({ state: 'visible' });
    expect(await win.getByRole('button', { name: 'What are your opening hours?' }).isVisible()).toBe(true);
    // In the bot's styling, whatever the host page's CSS says about buttons.
    expect(await css(chip, 'border-top-color')).toBe('rgb(109, 76, 65)');
    expect(await css(chip, 'border-radius')).toBe('16px');

    const before = chatRequests(api).length;
    await chip.click();
    await expect.poll(() => sendButton(page, '9').isDisabled(), { timeout: 10_000 }).toBe(false);
    expect(chatRequests(api).length).toBe(before + 1);
    expect(await win.locator('.m.user').textContent()).toBe('Do you deliver?');
    expect(await win.locator('.m.assistant').nth(1).textContent()).toContain('You said Do you deliver?');
    expect(await win.getByRole('button', { name: 'What are your opening hours?' }).count()).toBe(0);
    expect(await cspViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("shows a domain refusal in the server's words as an italic bubble and stays usable", async () => {
    const { page, errors } = await openPage('bots=3');
    await launcher(page, '3').click();
    await send(page, '3', 'hello');
    const bubble = chatWindow(page, '3').locator('.m.error');
    await bubble.waitFor();
    expect(await bubble.textContent()).toBe(api.refusalText);
    expect(await css(bubble, 'font-style')).toBe('italic');
    expect(await sendButton(page, '3').isDisabled()).toBe(false);
    await send(page, '3', 'again');
    await expect.poll(() => bubble.count()).toBe(2);
    expect(errors).toEqual([]);
  });

  it('falls back to its own texts when the server gives none or the bot is unknown', async () => {
    const { page } = await openPage('bots=6,999');
    await launcher(page, '6').click();
    await send(page, '6', 'hello');
    const bubble = chatWindow(page, '6').locator('.m.error');
    await bubble.waitFor();
    expect(await bubble.textContent()).toBe('An error occurred while sending your message.');
    await launcher(page, '6').click();

    // An unknown bot still gets a launcher, so its owner can see what is wrong.
    await launcher(page, '999').click();
    const unknown = chatWindow(page, '999').locator('.m.error');
    await unknown.waitFor();
    expect(await unknown.textContent()).toBe('This chatbot does not exist.');
  });

  it('renders nothing for a bot over its budget', async () => {
    const { page, errors } = await openPage('bots=4');
    // The page has its answer (hidden: true), and the widget had time to act on it.
    await expect
      .poll(() =>
        page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .some((r) => r.name.includes('/api/widget/bots/4') && (r as PerformanceResourceTiming).responseEnd > 0),
        ),
      )
      .toBe(true);
    await page.waitForTimeout(300);
    expect(await page.locator('botsmith-widget').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('falls back to its default colours for styling it cannot trust', async () => {
    const { page } = await openPage('bots=7');
    await launcher(page, '7').click();
    const win = chatWindow(page, '7');
    await win.waitFor({ state: 'visible' });
    expect(await css(launcher(page, '7'), 'background-color')).toBe('rgb(46, 204, 113)');
    expect(await css(launcher(page, '7'), 'background-image')).toBe('none');
    expect(await css(win.locator('.b'), 'background-color')).toBe('rgb(46, 204, 113)');
    expect(await css(win, 'background-color')).toBe('rgb(255, 255, 255)');
    expect(await css(win, 'border-radius')).toBe('12px');
    expect(await css(win.locator('.m.assistant'), 'background-color')).toBe('rgb(241, 240, 240)');
    await send(page, '7', 'hi');
    expect(await css(win.locator('.m.user'), 'background-color')).toBe('rgb(220, 248, 198)');
  });

  it('runs two snippets side by side, and the same snippet twice as one widget', async () => {
    const { page, errors } = await openPage('bots=1,5,1,2');
    await launcher(page, '2').waitFor();
    await launcher(page, '5').waitFor();
    await launcher(page, '1').waitFor();
    expect(await page.locator('botsmith-widget').count()).toBe(3);
    // Layout positions (bot 5's launcher may still be blowing up).
    const [one, five, two] = await Promise.all(['1', '5', '2'].map((id) => layoutBox(launcher(page, id))));
    expect(two.x).toBe(20); // bot 2 sits on the left
    expect(one.x).toBe(1280 - 20 - 60); // 1 and 5 share the right side, stacked
    expect(five.x).toBe(one.x);
    expect(Math.abs(one.y - five.y)).toBeGreaterThanOrEqual(60);

    await launcher(page, '5').click();
    await send(page, '5', 'Lollipops');
    await expect.poll(() => chatWindow(page, '5').locator('.m.assistant').count(), { timeout: 10_000 }).toBe(2);
    await launcher(page, '2').click();
    await chatWindow(page, '2').waitFor({ state: 'visible' });
    expect(await css(chatWindow(page, '2').locator('.b'), 'color')).toBe('rgb(255, 213, 79)');
    expect(await cspViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("shows the owner's icon, and runs from the <head> before the body exists", async () => {
    const { page, errors } = await openPage('bots=8&head=1');
    const icon = launcher(page, '8').locator('img');
    await icon.waitFor();
    expect(await icon.getAttribute('src')).toBe(`${api.origin}/uploads/icons/owl.svg`);
    await expect.poll(() => icon.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await css(launcher(page, '8'), 'border-radius')).toBe('12px');
    await launcher(page, '8').click();
    await chatWindow(page, '8').waitFor({ state: 'visible' });
    expect(await launcher(page, '8').locator('img').count()).toBe(0); // a close icon while open
    expect(await cspViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('is usable from the keyboard', async () => {
    const { page } = await openPage('bots=1');
    await launcher(page, '1').waitFor();
    await page.keyboard.press('Tab'); // the page's own link
    await page.keyboard.press('Tab');
    expect(await launcher(page, '1').evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(
      true,
    );
    await page.keyboard.press('Enter');
    await chatWindow(page, '1').waitFor({ state: 'visible' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.tagName))
      .toBe('TEXTAREA');
    await page.keyboard.type('Typed with keys');
    await page.keyboard.press('Enter');
    await expect.poll(() => chatWindow(page, '1').locator('.m.assistant').count(), { timeout: 10_000 }).toBe(2);
    await page.keyboard.press('Escape');
    await chatWindow(page, '1').waitFor({ state: 'hidden' });
    expect(await launcher(page, '1').evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(
      true,
    );
    expect(await launcher(page, '1').getAttribute('aria-expanded')).toBe('false');
  });

  it('becomes full width on a phone', async () => {
    const { page } = await openPage('bots=1', PHONE);
    await launcher(page, '1').tap();
    const win = chatWindow(page, '1');
    await win.waitFor({ state: 'visible' });
    const b = await layoutBox(win);
    expect([b.x, b.y, b.width, b.height]).toEqual([0, 0, 390, 844]);
    await win.getByRole('button', { name: 'Close chat' }).tap();
    await win.waitFor({ state: 'hidden' });
    await launcher(page, '1').waitFor({ state: 'visible' });
  });

  it('renders the /widget page window: 350x500, open, fixed at the bottom right', async () => {
    const { page } = await openPage('bots=5&mode=inline');
    const win = chatWindow(page, '5');
    await win.waitFor({ state: 'visible' });
    expect(await launcher(page, '5').count()).toBe(0);
    const b = await layoutBox(win);
    expect([b.width, b.height, b.x + b.width, b.y + b.height]).toEqual([350, 500, 1280 - 20, 800 - 20]);
    expect(await win.getByRole('button', { name: 'Close chat' }).count()).toBe(0);
    await send(page, '5', 'Gummies');
    await expect.poll(() => win.locator('.m.assistant').count(), { timeout: 10_000 }).toBe(2);
  });

  it('previews unsaved styling and goes away with its script tag', async () => {
    const { page, errors } = await openPage('bots=1&mode=preview');
    const win = chatWindow(page, '1');
    await win.waitFor({ state: 'visible' });
    // As the dashboard sends it (useWidgetPreview): the unsaved fields and the theme they make.
    const styling = {
      bannerColor: 'linear-gradient(to top, #000000, #000000)',
      bubbleColor: 'linear-gradient(to right, #ff0000, #ff0000)',
    };
    const detail = {
      ...styling,
      theme: widgetTheme(styling),
      customGreeting: 'Unsaved greeting',
      animation: 'shake',
      widgetPosition: 'left',
    };
    await page.evaluate((d) => window.dispatchEvent(new CustomEvent('botsmith:preview', { detail: d })), detail);
    expect(await css(win.locator('.b'), 'background-image')).toBe(
      'linear-gradient(to top, rgb(0, 0, 0), rgb(0, 0, 0))',
    );
    expect(await css(launcher(page, '1'), 'background-image')).toBe(
      'linear-gradient(to right, rgb(255, 0, 0), rgb(255, 0, 0))',
    );
    expect(await launcher(page, '1').getAttribute('class')).toBe('l a-shake');
    expect(await win.locator('.m.assistant').first().textContent()).toBe('Unsaved greeting');
    expect(await layoutBox(launcher(page, '1'))).toMatchObject({ x: 20 });

    for (const animation of ['none', 'blowup', 'glow', 'slide', 'rotate', 'shake', 'drop', 'roll', 'bogus']) {
      await page.evaluate((a) => {
        window.dispatchEvent(new CustomEvent('botsmith:preview', { detail: { botId: 1, animation: a } }));
      }, animation);
      const expected = animation == 'none' || animation == 'bogus' ? 'none' : `bs-${animation}`;
      expect(await css(launcher(page, '1'), 'animation-name')).toBe(expected);
    }
    // Another bot's preview event is ignored.
    await page.evaluate(() =>
      window.dispatchEvent(new CustomEvent('botsmith:preview', { detail: { botId: 2, customGreeting: 'Not mine' } })),
    );
    expect(await win.locator('.m.assistant').first().textContent()).toBe('Unsaved greeting');

    await page.evaluate(() => document.querySelector('script[data-preview]')?.remove());
    await expect.poll(() => page.locator('botsmith-widget').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('goes away when a single-page app removes its script tag', async () => {
    const { page, errors } = await openPage('bots=1');
    await launcher(page, '1').click();
    await chatWindow(page, '1').waitFor({ state: 'visible' });
    await page.evaluate(() => document.querySelector('script[data-bot-id]')?.remove());
    await expect.poll(() => page.locator('botsmith-widget').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('defines one global, Botsmith, which the host page uses to open, ask and close', async () => {
    const names = async (query: string) => {
      const { page } = await openPage(query);
      if (query.includes('bots=1')) {
        await launcher(page, '1').click();
        await chatWindow(page, '1').waitFor({ state: 'visible' });
      }
      return page.evaluate(() => Object.getOwnPropertyNames(window));
    };
    const without = new Set(await names('bots='));
    const added = (await names('bots=1')).filter((n) => !without.has(n));
    expect(added).toEqual(['Botsmith']);

    const { page, errors } = await openPage('bots=5');
    await launcher(page, '5').waitFor();
    // The site's own "Chat with us" button (its script calls window.Botsmith.open()).
    await page.dispatchEvent('#host-open', 'click');
    const win = chatWindow(page, '5');
    await win.waitFor({ state: 'visible' });
    expect(await launcher(page, '5').getAttribute('aria-expanded')).toBe('true');

    const before = chatRequests(api).length;
    await page.evaluate(() => {
      const botsmith = (window as unknown as { Botsmith: { identify(v: unknown): void; send(t: string): void } })
        .Botsmith;
      botsmith.identify({ name: 'Ada Lovelace', email: 'ada@example.com', plan: 'gold' });
      botsmith.send('Asked by the page');
    });
    // The request first (the send button is enabled before the send begins too), then the reply.
    await expect.poll(() => chatRequests(api).length, { timeout: 10_000 }).toBe(before + 1);
    await win.locator('.m.assistant').nth(1).waitFor();
    expect(await win.locator('.m.user').textContent()).toBe('Asked by the page');
    // Only the two fields go on, with the message.
    expect(JSON.parse(chatRequests(api).at(-1)!.body).visitor).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });

    // The owner's server's proof (issue 28.1, docs/product.md#verified-visitors) goes on the same way.
    const signed = chatRequests(api).length;
    await expect.poll(() => sendButton(page, '5').isDisabled(), { timeout: 10_000 }).toBe(false);
    await page.evaluate(() => {
      const botsmith = (window as unknown as { Botsmith: { identify(v: unknown): void; send(t: string): void } })
        .Botsmith;
      botsmith.identify({ token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2ln', plan: 'gold' });
      botsmith.send('Where is my order?');
    });
    await expect.poll(() => chatRequests(api).length, { timeout: 10_000 }).toBe(signed + 1);
    await win.locator('.m.assistant').nth(2).waitFor();
    expect(JSON.parse(chatRequests(api).at(-1)!.body).visitor).toEqual({
      token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2ln',
    });
    // And as X-Visitor-Identity, which every other visitor route reads too (a display-only identify sends none).
    expect(chatRequests(api).at(-1)!.headers['x-visitor-identity']).toBe('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2ln');
    expect(chatRequests(api).at(-2)!.headers['x-visitor-identity']).toBeUndefined();

    await page.evaluate(() => (window as unknown as { Botsmith: { close(): void } }).Botsmith.close());
    await win.waitFor({ state: 'hidden' });
    // Removed with the widget's script tag.
    await page.evaluate(() => document.querySelector('script[data-bot-id]')?.remove());
    await expect.poll(() => page.evaluate(() => 'Botsmith' in window)).toBe(false);
    expect(await cspViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("speaks German to a German browser and loads only the German window; the owner's texts stay", async () => {
    const context = await browser.newContext({ ...DESKTOP, locale: 'de-DE' });
    contexts.push(context);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const chunksBefore = api.requests.filter((r) => r.path.startsWith('/widget-assets/')).length;
    await page.goto(`${site.origin}/page?bots=9`);
    await launcher(page, '9').click();
    const win = chatWindow(page, '9');
    await win.waitFor({ state: 'visible' });
    expect(await win.getAttribute('aria-label')).toBe('Chat mit Corner Cafe');
    // The launcher speaks German too once the German window is there: it closes the chat now.
    expect(await launcher(page, '9').getAttribute('aria-label')).toBe('Chat schließen');
    expect(await launcher(page, '9').getAttribute('title')).toBe('Chat schließen');
    expect(await messageBox(page, '9').getAttribute('placeholder')).toBe('Schreiben Sie hier Ihre Nachricht...');
    expect(await win.getByRole('button', { name: 'Neue Unterhaltung' }).isVisible()).toBe(true);
    // The owner's starter questions, as written.
    expect(await win.getByRole('button', { name: 'Do you deliver?' }).isVisible()).toBe(true);
    const chunks = api.requests.filter((r) => r.path.startsWith('/widget-assets/')).slice(chunksBefore);
    expect(chunks.map((r) => r.path)).toEqual([expect.stringMatching(/^\/widget-assets\/window-de-[\w-]+\.js$/)]);
    await win.getByRole('button', { name: 'Nachricht senden' }).waitFor();
    // The menu comes with the window's second chunk, in the same language, on the first click.
    await win.getByRole('button', { name: 'Weitere Optionen' }).click();
    await win.getByRole('menuitem', { name: 'Diese Unterhaltung löschen' }).waitFor();
    const later = api.requests.filter((r) => r.path.startsWith('/widget-assets/')).slice(chunksBefore + 1);
    expect(later.map((r) => r.path)).toEqual([expect.stringMatching(/^\/widget-assets\/extras-de-[\w-]+\.js$/)]);
    // The lead form, on request, in German too, named like the menu item that opened it.
    await win.getByRole('menuitem', { name: 'Mit einem Menschen sprechen' }).click();
    const form = win.getByRole('form', { name: 'Mit einem Menschen sprechen' });
    await form.waitFor();
    expect(await form.getByRole('textbox', { name: 'E-Mail' }).getAttribute('type')).toBe('email');
    expect(await form.getByRole('button', { name: 'Senden' }).isVisible()).toBe(true);
    await form.getByRole('button', { name: 'Abbrechen' }).click();
    await form.waitFor({ state: 'detached' });
    await launcher(page, '9').click();
    await win.waitFor({ state: 'hidden' });
    expect(await launcher(page, '9').getAttribute('aria-label')).toBe('Chat mit Corner Cafe öffnen');
    expect(await cspViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("fits the lead form in a phone's window below a conversation, its Send in view, and cancels it", async () => {
    const { page, errors } = await openPage('bots=9', PHONE);
    await launcher(page, '9').tap();
    const win = chatWindow(page, '9');
    await win.waitFor({ state: 'visible' });
    // A conversation long enough that the form opens where the window ends.
    for (const question of ['Do you have oat milk?', 'And gluten-free cake?']) {
      await send(page, '9', question);
      await expect.poll(() => sendButton(page, '9').isDisabled(), { timeout: 10_000 }).toBe(false);
    }
    await win.getByRole('button', { name: 'More options' }).tap();
    await win.getByRole('menuitem', { name: 'Talk to a person' }).tap();
    const form = win.getByRole('form', { name: 'Talk to a person' });
    await form.waitFor();
    const viewport = PHONE.viewport!;
    const inView = async (name: string) => {
      const box = (await form.getByRole('button', { name, exact: true }).boundingBox())!;
      return box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height;
    };
    // The form scrolled into the window whole: its Send and Cancel within the phone's screen,
    // above the message box (not under it).
    await expect.poll(() => inView('Send')).toBe(true);
    expect(await inView('Cancel')).toBe(true);
    const submit = (await form.getByRole('button', { name: 'Send', exact: true }).boundingBox())!;
    const input = (await messageBox(page, '9').boundingBox())!;
    expect(submit.y + submit.height).toBeLessThanOrEqual(input.y);
    // Its first field has the keyboard.
    expect(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('name'))).toBe(
      'name',
    );

    // Cancel closes it without sending anything; the chat goes on.
    const leads = () => api.requests.filter((r) => r.path == '/api/chat/lead').length;
    const before = leads();
    await form.getByRole('button', { name: 'Cancel' }).tap();
    await form.waitFor({ state: 'detached' });
    expect(leads()).toBe(before);
    expect(await win.locator('.m.user').count()).toBe(2);
    expect(await messageBox(page, '9').isEnabled()).toBe(true);
    expect(await cspViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('mirrors itself on a right-to-left page', async () => {
    const { page, errors } = await openPage('bots=5&dir=rtl');
    await launcher(page, '5').click();
    await send(page, '5', 'Hello');
    await expect.poll(() => sendButton(page, '5').isDisabled(), { timeout: 10_000 }).toBe(false);
    const win = chatWindow(page, '5');
    expect(await css(win, 'direction')).toBe('rtl');
    const user = await win.locator('.m.user').boundingBox();
    const answer = await win.locator('.m.assistant').nth(1).boundingBox();
    const box = await win.boundingBox();
    // The visitor's bubble on the left, the bot's on the right; the banner's buttons on the left.
    expect(user!.x - box!.x).toBeLessThan(40);
    expect(box!.x + box!.width - (answer!.x + answer!.width)).toBeLessThan(40);
    const close = await win.getByRole('button', { name: 'Close chat' }).boundingBox();
    const title = await win.locator('.t strong').boundingBox();
    expect(close!.x).toBeLessThan(title!.x);
    // Still in the owner's corner (bottom right).
    expect(box!.x + box!.width).toBeGreaterThan(DESKTOP.viewport!.width - 60);
    expect(errors).toEqual([]);
  });

  it("deletes this visitor's conversation from its menu, on the server and in the browser", async () => {
    const { page, errors } = await openPage('bots=5');
    await launcher(page, '5').click();
    await send(page, '5', 'Forget me');
    await expect.poll(() => sendButton(page, '5').isDisabled(), { timeout: 10_000 }).toBe(false);
    const win = chatWindow(page, '5');
    await win.getByRole('button', { name: 'More options' }).click();
    await win.getByRole('menuitem', { name: 'Delete this conversation' }).click();
    await expect.poll(() => win.locator('.m').count()).toBe(1);
    expect(await win.locator('.m').textContent()).toBe('Sweet! What are you craving?');
    const deletion = api.requests
      .filter((r) => r.method == 'DELETE' && r.path == '/api/chat/conversations/current')
      .at(-1);
    expect(JSON.parse(deletion!.body)).toEqual({ botId: '5' });
    expect(deletion!.headers['x-visitor-token']).toBe('v1.fake-visitor-of-bot-5');

    // Gone from the browser too: the next page starts afresh.
    await page.getByRole('link', { name: 'Another page' }).click();
    await page.waitForURL(/\/other/);
    await launcher(page, '5').click();
    await chatWindow(page, '5').waitFor({ state: 'visible' });
    expect(await chatWindow(page, '5').locator('.m').count()).toBe(1);
    expect(await cspViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('saves screenshots of the open widget in three stylings', async () => {
    for (const [id, name, prompt] of [
      ['1', 'acme', 'Where is my order?'],
      ['2', 'night-owl', 'Can I change my address?'],
      ['5', 'candy-shop', 'Something sweet'],
    ] as const) {
      const { page } = await openPage(`bots=${id}`);
      await launcher(page, id).click();
      await send(page, id, prompt);
      await expect.poll(() => sendButton(page, id).isDisabled(), { timeout: 10_000 }).toBe(false);
      await page.mouse.move(0, 0);
      await page.waitForTimeout(1700); // the scrollbar hides after 1500 ms
      const file = await screenshot(page, `widget-${name}`);
      expect(fs.statSync(file).size).toBeGreaterThan(5000);
    }
  });

  it('measures load (script execution to visible launcher) and open (click to visible window, cold cache)', async () => {
    const t = await measureTimings(browser, `${site.origin}/page?bots=1`, '1', 11);
    console.log(`[widget timings, fake API process] ${t}`);
  });
});

describe('the widget of the built product on a customer site', () => {
  const baseUrl = inject('baseUrl');
  let site: HostSite;
  let browser: Browser;

  beforeAll(async () => {
    site = await startHostSite(baseUrl);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('shows the real refusal for the demo bot on a foreign site, and stays usable', async () => {
    // The demo bot answers only on the product's own site.
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${site.origin}/page?bots=1`);
    await launcher(page, '1').click();
    const win = chatWindow(page, '1');
    await win.waitFor({ state: 'visible' });
    await send(page, '1', 'Hello?');
    const bubble = win.locator('.m.error');
    await bubble.waitFor({ timeout: 15_000 });
    expect(await bubble.textContent()).toMatch(/\S/);
    expect(await bubble.textContent()).not.toBe('An error occurred while sending your message.');
    expect(await css(bubble, 'font-style')).toBe('italic');
    expect(await sendButton(page, '1').isDisabled()).toBe(false);
    expect(await cspViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("streams the offline model's reply on the product's own landing page", async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(baseUrl);
    await launcher(page, '1').click();
    const win = chatWindow(page, '1');
    await win.waitFor({ state: 'visible' });
    expect(await win.locator('.m.assistant').first().textContent()).not.toBe('');
    const chat = page.waitForResponse((r) => r.url() == `${baseUrl}/api/chat`);
    await send(page, '1', 'What does Botsmith cost?');
    const answer = await chat;
    expect(answer.headers()['content-type']).toContain('text/event-stream');
    await expect.poll(() => sendButton(page, '1').isDisabled(), { timeout: 30_000 }).toBe(false);
    expect(await win.locator('.m.error').count()).toBe(0);
    expect((await win.locator('.m.assistant').nth(1).textContent())?.length).toBeGreaterThan(10);
    // The answer (not the greeting) can be rated once its id came with the stream's last event.
    expect(await win.getByRole('group', { name: 'Rate this answer' }).count()).toBe(1);
    // Thumbs a finger can hit: at least 32 px each way.
    for (const name of ['Good answer', 'Bad answer']) {
      const box = (await win.getByRole('button', { name }).boundingBox())!;
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(32);
    }
    // No model name under the input unless the owner turned it on (the demo bot did not).
    expect(await win.locator('.ml').count()).toBe(0);
    const face = (await (await page.request.get(`${baseUrl}/api/widget/bots/1`)).json()) as {
      bot: { modelLabel: string };
    };
    expect(face.bot.modelLabel).toBe('');
    const bad = win.getByRole('button', { name: 'Bad answer' });
    const rated = page.waitForResponse((r) => r.url() == `${baseUrl}/api/chat/feedback`);
    await bad.click();
    expect((await rated).status()).toBe(204);
    expect(await bad.getAttribute('aria-pressed')).toBe('true');
    expect(await win.getByRole('button', { name: 'Good answer' }).getAttribute('aria-pressed')).toBe('false');
    expect(errors).toEqual([]);
    await page.mouse.move(0, 0);
    await page.waitForTimeout(1700);
    await screenshot(page, 'widget-demo-bot');
    await context.close();
  });

  it('measures load and open against the built product', async () => {
    const t = await measureTimings(browser, `${site.origin}/page?bots=1`, '1', 11);
    console.log(`[widget timings, built product] ${t}`);
  });
});
