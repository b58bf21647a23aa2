import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectPageErrors, DESKTOP, launchBrowser, screenshot } from '../support/browser.js';
import { payWithTestCard, signUpAndIn } from '../support/owner.js';

// Greetings, which the offline model answers and charges: an answer it could not give is free
// (docs/product.md#the-fair-meter).
const PROMPTS = ['Hello, what are your opening hours?', 'Hi, do you ship to Canada?'];

async function chat(context: BrowserContext, baseUrl: string, botId: number, prompt: string): Promise<string> {
  const response = await context.request.post(`${baseUrl}/api/chat`, {
    data: { botId, chatHistory: [], prompt },
    headers: { Origin: baseUrl, 'X-Page-Url': `${baseUrl}/`, 'X-Visitor-Id': 'e2e-usage-visitor' },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { message: string }).message;
}

describe('usage and logs in the browser, after chatting with a bot', () => {
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const analyticsRequests: string[] = [];
  let botName: string;
  let expectedDollars: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ ...DESKTOP, acceptDownloads: true });
    context.on('request', (request) => {
      if (/mixpanel/i.test(request.url())) analyticsRequests.push(request.url());
    });
    page = await context.newPage();
    errors = collectPageErrors(page);
    await signUpAndIn(context, baseUrl, dataDir, 'usage');
    await payWithTestCard(page, baseUrl);

    botName = `Usage Bot ${crypto.randomBytes(2).toString('hex')}`;
    const created = await context.request.post(`${baseUrl}/api/bots`, {
      data: { botName },
      headers: { Origin: baseUrl },
    });
    expect(created.status()).toBe(201);
    const botId = ((await created.json()) as { bot: { id: number } }).bot.id;
    for (const prompt of PROMPTS) expect(await chat(context, baseUrl, botId, prompt)).not.toBe('');

    // What the ledger says two answers cost (the tier's price, from the server, not assumed here).
    const usage = (await (await context.request.get(`${baseUrl}/api/user/usage`)).json()) as { usageCents: number };
    expect(usage.usageCents).toBeGreaterThan(0);
    expectedDollars = `$${(usage.usageCents / 100).toFixed(2)}`;
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it("the bot's Usage tab shows its dollars and the 10-day chart", async () => {
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByRole('button', { name: `${botName} settings` }).click();
    await page.getByRole('tablist', { name: 'Bot settings' }).getByRole('tab', { name: 'Usage' }).click();
    await expect
      .poll(() => page.getByTestId('bot-usage-dollars').textContent(), { timeout: 10_000 })
      .toBe(expectedDollars);
    const chart = page.getByRole('figure', { name: 'Bot usage over the last 10 days' });
    await chart.locator('svg').first().waitFor();
    // Answers (what an owner pays for) and visitor messages share a count axis; cost has its own chart.
    for (const series of ['Answers', 'Visitor messages', 'Cost']) expect(await chart.innerText()).toContain(series);
    await page.waitForTimeout(800); // let the lines finish drawing for the screenshot
    await screenshot(page, 'usage-bot-tab');
    await page.keyboard.press('Escape');
  });

  it('the settings Usage tab shows the same dollars, the credits left and the chart', async () => {
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Usage' }).click();
    await expect
      .poll(() => page.getByTestId('settings-usage-dollars').textContent(), { timeout: 10_000 })
      .toBe(expectedDollars);
    expect(await page.getByTestId('settings-credits-dollars').textContent()).toMatch(/^\$\d+\.\d{2}$/);
    const chart = page.getByRole('figure', { name: 'Usage over the last 10 days' });
    await chart.locator('svg').first().waitFor();
    expect(await page.getByText('resets on the 3rd', { exact: false }).count()).toBeGreaterThan(0);
    await page.waitForTimeout(800);
    await screenshot(page, 'usage-settings-tab');
  });

  it('the Logs tab downloads user_logs_{date}_{time}.xlsx holding the conversation', async () => {
    await page.getByRole('tab', { name: 'Logs' }).click();
    const button = page.getByRole('button', { name: 'Download Logs' });
    await expect.poll(() => button.isEnabled(), { timeout: 10_000 }).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/^user_logs_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.xlsx$/);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'usage-e2e-')), download.suggestedFilename());
    await download.saveAs(file);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const text = (value: unknown) =>
      value && typeof value === 'object' && 'richText' in value
        ? (value as ExcelJS.CellRichTextValue).richText.map((run) => run.text).join('')
        : value;
    const rows: unknown[][] = [];
    workbook.getWorksheet('Logs')!.eachRow((row, index) => {
      if (index > 1) rows.push((row.values as unknown[]).slice(1).map(text));
    });
    // One visitor message and one answer per prompt, all from this bot.
    expect(rows).toHaveLength(PROMPTS.length * 2);
    expect(rows.map((r) => r[3])).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(rows.filter((r) => r[3] === 'user').map((r) => r[4])).toEqual(PROMPTS);
    expect(new Set(rows.map((r) => r[1]))).toEqual(new Set([botName]));
    const summary: unknown[][] = [];
    workbook.getWorksheet('Summary')!.eachRow((row, index) => {
      if (index > 1) summary.push((row.values as unknown[]).slice(1).map(text));
    });
    expect(summary.at(-1)![0]).toBe('Total');
    expect(`$${(summary.at(-1)![3] as number).toFixed(2)}`).toBe(expectedDollars);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('sent nothing to an analytics service (no token configured) and threw no page errors', () => {
    expect(analyticsRequests).toEqual([]);
    expect(errors).toEqual([]);
  });
});
