import crypto from 'node:crypto';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectPageErrors, launchBrowser, screenshot } from '../support/browser.js';
import { payWithTestCard, signUpAndIn } from '../support/owner.js';
import { startHostSite, type HostSite } from './widget-fixtures.js';

/**
 * Nothing lost, styling that is quick (issue 27; docs/product.md#edit-bot-modal, #colours,
 * #owner-replies): edits survive tab switches and are not discarded without asking; the default
 * colours (#bot-defaults) are flagged by the contrast check and fixed with one click; a person's reply
 * reaches a visitor who opens the site again in a new tab.
 */

const LARGE = { viewport: { width: 1440, height: 900 } };
const SMALL = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const SHOTS = '/tmp/shots/round2_10';

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
  await screenshot(page, `owner-experience-${name}`);
}

async function createBot(context: BrowserContext, baseUrl: string, botName: string): Promise<number> {
  const created = await context.request.post(`${baseUrl}/api/bots`, {
    data: { botName },
    headers: { Origin: baseUrl },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { bot: { id: number } }).bot.id;
}

async function savedBot(context: BrowserContext, baseUrl: string, botId: number) {
  const res = await context.request.get(`${baseUrl}/api/bots/${botId}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { bot: Record<string, unknown> }).bot;
}

describe('the edit-bot dialog keeps edits and asks before discarding them', () => {
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  let browser: Browser;
  let owner: BrowserContext;
  let page: Page;
  let errors: string[];
  let botId: number;
  const botName = `Keeper ${crypto.randomBytes(2).toString('hex')}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await browser.newContext(LARGE);
    page = await owner.newPage();
    errors = collectPageErrors(page);
    await signUpAndIn(owner, baseUrl, dataDir, 'keeper');
    await payWithTestCard(page, baseUrl);
    botId = await createBot(owner, baseUrl, botName);
  }, 240_000);

  afterAll(async () => {
    await owner?.close();
    await browser?.close();
  });

  it('keeps a greeting typed on Details while the owner fixes the contrast on Styling', async () => {
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByRole('button', { name: `${botName} settings` }).click();
    const dialog = page.getByRole('dialog', { name: botName });
    await dialog.getByLabel('Custom greeting').fill('Welcome back, hiker!');
    await dialog.getByRole('tab', { name: 'Details (unsaved changes)' }).waitFor();
    await shot(page, 'dialog-details-1440');

    await dialog.getByRole('tab', { name: /^Styling/ }).click();
    const warning = dialog.getByRole('alert').filter({ hasText: 'hard to read' });
    await warning.waitFor();
    // The default colours (docs/product.md#bot-defaults), as they are: white on #2ecc71 fails on the banner, launcher and send arrow.
    expect(await warning.innerText()).toContain('3 colour pairs are hard to read');
    expect(await warning.innerText()).toContain('Banner title: 2.1:1, needs 4.5:1 for text.');
    expect(await warning.innerText()).toContain('Send arrow: 2.1:1, needs 3.0:1 for an icon.');
    expect(await warning.innerText()).toContain('Launcher icon: 2.1:1, needs 3.0:1 for an icon.');
    const banner = dialog.getByRole('group', { name: 'Banner colour' });
    expect(await banner.getByLabel('Banner colour', { exact: true }).inputValue()).toBe('#2ecc71');
    await shot(page, 'dialog-styling-contrast-1440');

    await dialog.getByRole('button', { name: 'Banner title: Use black text' }).click();
    await expect.poll(() => warning.innerText()).toContain('2 colour pairs are hard to read');
    expect(await warning.innerText()).not.toContain('Banner title');
    // The live preview paints the fix before it is saved.
    const title = page.locator('botsmith-widget .w .b strong').first();
    await expect
      .poll(() => title.evaluate((el) => getComputedStyle(el).color), { timeout: 10_000 })
      .toBe('rgb(0, 0, 0)');
    await shot(page, 'dialog-styling-fixed-1440');

    await dialog.getByRole('tab', { name: /^Prompting/ }).click();
    await dialog.getByRole('tab', { name: /^Details/ }).click();
    expect(await dialog.getByLabel('Custom greeting').inputValue()).toBe('Welcome back, hiker!');
    expect(errors).toEqual([]);
  }, 90_000);

  it('asks before ✕ discards; Keep editing keeps the edits, and saving one tab leaves the other unsaved', async () => {
    const dialog = page.getByRole('dialog', { name: botName });
    await dialog.getByRole('button', { name: 'Close' }).click();
    const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await ask.waitFor();
    expect(await ask.innerText()).toContain('Your changes in Details and Styling are not saved.');
    await page.waitForTimeout(400); // the fade-in, for the screenshot
    await shot(page, 'dialog-discard-1440');
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(await dialog.getByLabel('Custom greeting').inputValue()).toBe('Welcome back, hiker!');

    await dialog.getByRole('button', { name: 'Save Details' }).click();
    await page.getByText('Bot details updated successfully!').waitFor();
    await dialog.getByRole('tab', { name: 'Details', exact: true }).waitFor();
    expect(await savedBot(owner, baseUrl, botId)).toMatchObject({ customGreeting: 'Welcome back, hiker!' });

    // Escape asks too; the Styling fix was never saved, and Discard changes drops it. The Save
    // button was disabled while it saved, which leaves the focus on the page's body, where the
    // dialog does not hear keys: the owner's next key goes to the dialog once it has the focus.
    await dialog.getByRole('tab', { name: 'Details', exact: true }).focus();
    await page.keyboard.press('Escape');
    await ask.waitFor();
    expect(await ask.innerText()).toContain('Your changes in Styling are not saved.');
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await savedBot(owner, baseUrl, botId)).toMatchObject({
      bannerTextColor: 'linear-gradient(to right, #ffffff, #ffffff)',
    });
    expect(errors).toEqual([]);
  }, 90_000);

  it('fits a phone: the Styling tab and its contrast check at 390×844', async () => {
    const phone = await browser.newContext({ ...SMALL, storageState: await owner.storageState() });
    const mobile = await phone.newPage();
    await mobile.goto(`${baseUrl}/dashboard`);
    await mobile.getByRole('button', { name: `${botName} settings` }).click();
    const dialog = mobile.getByRole('dialog', { name: botName });
    await dialog.getByRole('tab', { name: /^Styling/ }).click();
    await dialog.getByRole('alert').filter({ hasText: 'hard to read' }).waitFor();
    await shot(mobile, 'dialog-styling-390');
    const hex = dialog.getByRole('group', { name: 'Banner colour' }).getByLabel('Banner colour', { exact: true });
    // The whole "#rrggbb" fits its field.
    expect(await hex.evaluate((el: HTMLInputElement) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await dialog.getByRole('button', { name: 'Banner title: Darken the background' }).click();
    await mobile.waitForTimeout(300);
    await mobile.evaluate(() => document.querySelector('[role="dialog"] .MuiDialogContent-root')?.scrollBy(0, 700));
    await shot(mobile, 'dialog-styling-fields-390');
    await dialog.getByRole('tab', { name: /^Details/ }).click();
    await shot(mobile, 'dialog-details-390');
    await phone.close();
  }, 90_000);
});

describe("a person's reply reaches a visitor who opens the site again", () => {
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  let browser: Browser;
  let owner: BrowserContext;
  let visitor: BrowserContext;
  let site: HostSite;
  let botId: number;
  const botName = `Replier ${crypto.randomBytes(2).toString('hex')}`;
  const REPLY = 'Dana here: yes, we ship to Norway within five days.';

  const widgetOf = (page: Page): Locator => page.locator(`botsmith-widget[data-bot="${botId}"]`);

  beforeAll(async () => {
    site = await startHostSite(baseUrl);
    browser = await launchBrowser();
    owner = await browser.newContext(LARGE);
    const dashboard = await owner.newPage();
    await signUpAndIn(owner, baseUrl, dataDir, 'replier');
    await payWithTestCard(dashboard, baseUrl);
    botId = await createBot(owner, baseUrl, botName);
    visitor = await browser.newContext(LARGE);
  }, 240_000);

  afterAll(async () => {
    await owner?.close();
    await visitor?.close();
    await browser?.close();
    await site?.close();
  });

  it('the visitor asks, closes the tab; the owner replies from the inbox; a new tab of the site shows the reply', async () => {
    const first = await visitor.newPage();
    const errors = collectPageErrors(first);
    await first.goto(`${site.origin}/page?bots=${botId}`);
    await widgetOf(first).locator('button.l').click();
    const box = widgetOf(first).locator('textarea');
    await box.fill('Do you ship to Norway?');
    await box.press('Enter');
    await widgetOf(first)
      .locator('.m.assistant:not(.dots):not([aria-busy="true"])')
      .nth(1)
      .waitFor({ timeout: 60_000 });
    expect(errors).toEqual([]);
    await first.close();

    // The owner answers in the inbox, as a person.
    const inbox = await owner.newPage();
    await inbox.goto(`${baseUrl}/dashboard/conversations?botId=${botId}`);
    const row = inbox.getByRole('list', { name: 'Conversations' }).getByRole('listitem').filter({ hasText: 'Norway' });
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole('button').first().click();
    const replyBox = inbox.getByLabel('Reply to the visitor');
    await replyBox.fill(REPLY);
    const replied = inbox.waitForResponse((r) => /\/api\/conversations\/\d+\/reply$/.test(r.url()));
    await inbox.getByRole('button', { name: 'Send reply' }).click();
    expect((await replied).status()).toBe(201);
    await inbox.close();

    // A new tab of the same site, opened from the reply page's link: the widget opens on its own.
    const again = await visitor.newPage();
    await again.goto(`${site.origin}/other?bots=${botId}#botsmith-chat=${botId}`);
    const win = widgetOf(again).locator('.w');
    await win.waitFor({ state: 'visible', timeout: 15_000 });
    await win.getByText('Do you ship to Norway?').waitFor();
    await win.getByText(REPLY).waitFor({ timeout: 20_000 });
    await shot(again, 'widget-reply-1440');
    const phone = await browser.newContext({ ...SMALL, storageState: await visitor.storageState() });
    const mobile = await phone.newPage();
    await mobile.goto(`${site.origin}/page?bots=${botId}#botsmith-chat=${botId}`);
    await widgetOf(mobile).locator('.w').getByText(REPLY).waitFor({ timeout: 20_000 });
    await shot(mobile, 'widget-reply-390');
    await phone.close();
  }, 150_000);

  it('another browser opening the same link sees an empty chat, not the conversation', async () => {
    const stranger = await browser.newContext(LARGE);
    const page = await stranger.newPage();
    await page.goto(`${site.origin}/page?bots=${botId}#botsmith-chat=${botId}`);
    const win = widgetOf(page).locator('.w');
    await win.waitFor({ state: 'visible', timeout: 15_000 });
    await page.waitForTimeout(6000); // a poll of the replies route has run
    expect(await win.innerText()).not.toContain('Norway');
    expect(await win.innerText()).not.toContain(REPLY);
    await stranger.close();
  }, 60_000);
});
