import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectPageErrors, DESKTOP, launchBrowser, PHONE, screenshot } from '../support/browser.js';
import { payWithTestCard, signUpAndIn } from '../support/owner.js';

/** A small one-page PDF with real text (Helvetica), offsets computed so any reader accepts it. */
function textPdf(lines: string[]): Buffer {
  const text = lines
    .map((line, i) => `BT /F1 12 Tf 50 ${740 - i * 18} Td (${line.replace(/[()\\]/g, '')}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

function crc32(buffer: Buffer): number {
  let crc = ~0;
  for (const byte of buffer) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A solid-colour PNG of `size` pixels (optionally padded with a private chunk to `padTo` bytes). */
function png(rgb: [number, number, number], size = 32, padTo = 0): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.concat(Array.from({ length: size }, () => Buffer.from(rgb)))]);
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
  ];
  const base = Buffer.concat([...parts, chunk('IEND', Buffer.alloc(0))]).length;
  if (padTo > base) parts.push(chunk('zzZz', Buffer.alloc(padTo - base - 12, 0x41)));
  return Buffer.concat([...parts, chunk('IEND', Buffer.alloc(0))]);
}

/** Waits for a toast (notistack) with exactly this text. */
async function toast(page: Page, text: string): Promise<void> {
  await page.locator('#notistack-snackbar', { hasText: text }).first().waitFor({ timeout: 15_000 });
}

/** The preview widget's banner background, read through its open shadow root. */
function bannerBackground(page: Page): Promise<string> {
  return page
    .locator('botsmith-widget .w .b')
    .first()
    .evaluate((el) => {
      const style = getComputedStyle(el);
      return `${style.backgroundImage} ${style.backgroundColor}`;
    });
}

describe('dashboard in the browser: categories, bots, every edit tab, uploads, preview, snippet, deletion', () => {
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const categoryName = `Acme ${crypto.randomBytes(2).toString('hex')}`;
  const botName = `Trail Guide ${crypto.randomBytes(2).toString('hex')}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext(DESKTOP);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    page = await context.newPage();
    errors = collectPageErrors(page);
    await signUpAndIn(context, baseUrl, dataDir, 'dashboard');
    await payWithTestCard(page, baseUrl);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('greets a new owner with an empty state and the Add New Bot card', async () => {
    await page.getByRole('heading', { level: 1, name: 'All Bots' }).waitFor();
    await page.getByText('No bots yet').waitFor();
    expect(await page.getByRole('button', { name: 'Add New Bot' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'feedback@botsmith.dev' }).getAttribute('href')).toBe(
      'mailto:feedback@botsmith.dev',
    );
    await screenshot(page, 'dashboard-empty');
  });

  it('creates a category and, inside it, a bot (keyboard only)', async () => {
    await page.getByRole('button', { name: '+ Add Category' }).click();
    const categoryDialog = page.getByRole('dialog', { name: 'Add Category' });
    await categoryDialog.getByRole('button', { name: 'Add Category' }).click();
    await categoryDialog.getByText('Category name is required.').waitFor();
    await categoryDialog.getByLabel('Category Name').fill(`  ${categoryName}  `);
    await page.keyboard.press('Enter');
    await categoryDialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: new RegExp(`^${categoryName}`) }).click();
    await page.getByRole('heading', { level: 1, name: categoryName }).waitFor();

    // Keyboard: focus the Add New Bot card, open it with Enter, type the name, submit with Enter.
    await page.getByRole('button', { name: 'Add New Bot' }).focus();
    await page.keyboard.press('Enter');
    const botDialog = page.getByRole('dialog', { name: 'Add New Bot' });
    await botDialog.getByLabel('Bot Name').waitFor();
    await page.keyboard.type(botName);
    await page.keyboard.press('Enter');
    await toast(page, `${botName} created successfully!`);
    await page.getByRole('button', { name: `${botName} settings` }).waitFor();
    await screenshot(page, 'dashboard-category-with-bot');
  });

  it('saves the Details tab', async () => {
    await page.getByRole('button', { name: `${botName} settings` }).click();
    const dialog = page.getByRole('dialog', { name: botName });
    await dialog.getByLabel('Custom greeting').fill('Howdy, hiker! Ask me about trails.');
    await dialog.getByRole('combobox', { name: /Model/ }).click();
    await page.getByRole('option', { name: /GPT-4o Mini/ }).click();
    await dialog.getByLabel('Allowed domain').fill('https://example.com/path');
    await dialog.getByRole('button', { name: 'Save Details' }).click();
    await dialog.getByText('Enter the domain only', { exact: false }).waitFor();
    await dialog.getByLabel('Allowed domain').fill('trails.example.com');
    await dialog.getByRole('button', { name: 'Save Details' }).click();
    await toast(page, 'Bot details updated successfully!');
  });

  it('previews styling live in the real widget, uploads an icon and saves', async () => {
    const dialog = page.getByRole('dialog', { name: botName });
    await dialog.getByRole('tab', { name: 'Styling' }).click();
    await page.locator('botsmith-widget').waitFor({ state: 'attached', timeout: 15_000 });
    await page.locator('botsmith-widget .w .b').first().waitFor({ timeout: 15_000 });
    expect(await page.locator('script[src="/widget.js"][data-preview="true"]').count()).toBe(1);
    expect(await bannerBackground(page)).toContain('rgb(46, 204, 113)');

    // Unsaved: the banner turns red in the preview before anything is saved.
    const banner = dialog.getByRole('group', { name: 'Banner colour' });
    // A colour is solid until the owner asks for a gradient (issue 27).
    await banner.getByRole('checkbox', { name: 'Use a gradient' }).check();
    await banner.getByLabel('Banner colour start colour', { exact: true }).fill('#ff0000');
    await banner.getByLabel('Banner colour end colour', { exact: true }).fill('#cc0000');
    await expect.poll(() => bannerBackground(page), { timeout: 10_000 }).toContain('rgb(255, 0, 0)');

    // The 500KB rule is checked before anything is sent; a small PNG uploads and shows in the launcher.
    const input = dialog.getByTestId('icon-input');
    await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: png([0, 0, 0], 8, 512_000) });
    await dialog.getByText('Image is too big. Keep under 500KB in size.').waitFor();
    const uploaded = page.waitForResponse((r) => r.url().includes('/api/upload/icon/'));
    await input.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png([255, 140, 0]) });
    const fileUrl = ((await (await uploaded).json()) as { fileUrl: string }).fileUrl;
    expect(fileUrl).toMatch(/\/uploads\/icons\/[0-9a-f-]{36}\.png$/);
    await dialog.getByRole('button', { name: 'Use default icon' }).waitFor();

    await dialog.getByRole('button', { name: 'Left' }).click();
    await screenshot(page, 'dashboard-styling-preview');
    await dialog.getByRole('button', { name: 'Save Styling' }).click();
    await toast(page, 'Styling updated successfully!');
    const saved = (await (await context.request.get(`${baseUrl}/api/bots`)).json()) as {
      bots: Array<{ name: string; bannerColor: string; widgetPosition: string; bubbleIcon: string }>;
    };
    expect(saved.bots.find((b) => b.name === botName)).toMatchObject({
      bannerColor: 'linear-gradient(to right, #ff0000, #cc0000)',
      widgetPosition: 'left',
      bubbleIcon: fileUrl,
    });
  });

  it('removes the preview when leaving the Styling tab', async () => {
    const dialog = page.getByRole('dialog', { name: botName });
    await dialog.getByRole('tab', { name: 'Prompting' }).click();
    await expect.poll(() => page.locator('botsmith-widget').count()).toBe(0);
    expect(await page.locator('script[data-preview="true"]').count()).toBe(0);
  });

  it('saves prompting, and uploads a PDF as the reference document from the Knowledge tab', async () => {
    const dialog = page.getByRole('dialog', { name: botName });
    await dialog
      .getByLabel('Prompt', { exact: true })
      .fill('You are the trail guide of Acme Outdoor. Keep answers short.');
    await dialog.getByLabel('Max tokens').fill('');
    await dialog.getByLabel('Max tokens').pressSequentially('2500');
    expect(await dialog.getByLabel('Max tokens').inputValue()).toBe('250');
    await dialog.getByRole('button', { name: 'Save Prompting' }).click();
    await toast(page, 'Prompting settings saved!');

    // The reference document is one of the knowledge sources (issue 27): Knowledge tab, Add.
    await dialog.getByRole('tab', { name: /^Knowledge/ }).click();
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('menuitem', { name: /Reference document/ }).click();
    const upload = page.getByRole('dialog', { name: 'Reference document' });
    const input = upload.getByTestId('document-input');
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a pdf') });
    await upload.getByText('File type must be one of application/pdf, .pdf').waitFor();
    await input.setInputFiles({
      name: 'trail-handbook.pdf',
      mimeType: 'application/pdf',
      buffer: textPdf(['Trail handbook.', 'The Ridge Loop is 12 km long and closes at sunset.']),
    });
    await toast(page, 'Document uploaded successfully!');
    await upload.waitFor({ state: 'hidden' });
    await dialog
      .getByRole('listitem', { name: 'trail-handbook.pdf' })
      .getByText(/Reference document/)
      .waitFor();
    await screenshot(page, 'dashboard-knowledge');
  });

  it('shows the embed snippet at once and copies it', async () => {
    const dialog = page.getByRole('dialog', { name: botName });
    await dialog.getByRole('tab', { name: 'Deploy' }).click();
    const snippet = (await dialog.getByLabel('Embed snippet').innerText()).trim();
    expect(snippet).toMatch(new RegExp(`^<script src="${baseUrl}/widget\\.js" data-bot-id="\\d+" async></script>$`));
    await dialog.getByRole('button', { name: 'Copy to Clipboard' }).click();
    await toast(page, 'Widget snippet copied to clipboard!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
  });

  // Issue 28.1: verified visitors, against the real API.
  it("makes the bot's identity secret, shows it once, and rotates it only after confirming", async () => {
    const dialog = page.getByRole('dialog', { name: botName });
    await dialog.getByRole('tab', { name: 'Deploy' }).click();
    await dialog.getByText('No identity secret yet.').waitFor();
    await dialog.getByRole('button', { name: 'Create identity secret' }).click();
    const secret = await dialog.getByLabel('New identity secret').inputValue();
    expect(secret).toMatch(/^idsec_/);
    await dialog.getByText('Copy this secret now: it will not be shown again. If you lose it, rotate it.').waitFor();
    await dialog.getByRole('button', { name: 'Copy identity secret' }).click();
    await toast(page, 'Identity secret copied to clipboard!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await dialog.getByRole('button', { name: 'Yes, Rotate Secret' }).click();
    await expect.poll(() => dialog.getByLabel('New identity secret').inputValue()).not.toBe(secret);
    // Read again (another tab and back): set, and not shown.
    await dialog.getByRole('tab', { name: 'Details' }).click();
    await dialog.getByRole('tab', { name: 'Deploy' }).click();
    await dialog.getByText('An identity secret is set.').waitFor();
    expect(await dialog.getByLabel('New identity secret').count()).toBe(0);
    expect(await dialog.getByText(/identity tokens? refused this week/).count()).toBe(0);
  });

  it('deletes the bot in two steps', async () => {
    const dialog = page.getByRole('dialog', { name: botName });
    await dialog.getByRole('tab', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).waitFor();
    await dialog.getByRole('button', { name: 'Yes, Delete' }).click();
    await toast(page, 'Bot successfully deleted!');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByRole('button', { name: `${botName} settings` }).count()).toBe(0);
  });

  it('deletes the category after the confirm', async () => {
    await page.getByRole('button', { name: `Delete category ${categoryName}` }).click();
    const confirm = page.getByRole('dialog', { name: `Delete ${categoryName}?` });
    await confirm.getByText('Are you sure you want to delete this category?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Category deleted successfully!');
    await page.getByRole('heading', { level: 1, name: 'All Bots' }).waitFor();
    expect(await page.getByRole('button', { name: new RegExp(`^${categoryName}`) }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('works on a phone: categories in a drawer, the edit modal full screen', async () => {
    const phone = await browser.newContext({ ...PHONE, storageState: await context.storageState() });
    const mobile = await phone.newPage();
    const mobileErrors = collectPageErrors(mobile);
    await mobile.goto(`${baseUrl}/dashboard`);
    await mobile.getByRole('heading', { level: 1, name: 'All Bots' }).waitFor();
    expect(await mobile.getByRole('button', { name: '+ Add Category' }).isVisible()).toBe(false);
    await mobile.getByRole('button', { name: 'Open menu' }).click();
    await mobile.getByRole('button', { name: '+ Add Category' }).waitFor();
    await mobile.waitForTimeout(400); // the drawer's slide-in, for the screenshot
    await screenshot(mobile, 'dashboard-phone-drawer');
    await mobile.keyboard.press('Escape');
    await mobile.getByRole('button', { name: 'Add New Bot' }).click();
    await mobile.getByLabel('Bot Name').fill('Phone Bot');
    await mobile.getByRole('button', { name: 'Create Bot' }).click();
    await mobile.getByRole('button', { name: 'Phone Bot settings' }).click();
    const dialog = mobile.getByRole('dialog', { name: 'Phone Bot' });
    await dialog.getByLabel(/^Name/).waitFor();
    const box = await dialog.boundingBox();
    expect(box?.width).toBe(PHONE.viewport!.width);
    await screenshot(mobile, 'dashboard-phone-edit');
    expect(mobileErrors).toEqual([]);
    await phone.close();
  });
});
