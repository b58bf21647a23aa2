import crypto from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectPageErrors, DESKTOP, launchBrowser, screenshot } from '../support/browser.js';
import { payWithTestCard, signUpAndIn } from '../support/owner.js';

/**
 * Insights on real conversations (docs/product.md#analytics): visitors chat with a bot through the
 * chat API (three ask how to return an order, one about kayaks); the owner opens Insights for the
 * bot, sees the conversations counted and the returns question as the most asked topic, and
 * follows it to the inbox searching for its words, narrowed to the bot.
 */

const RETURNS = 'How do I return an order?';
const KAYAKS = 'Do you rent kayaks at the lake?';

describe('insights in the browser: seeded conversations, the topics card, a topic opens the filtered inbox', () => {
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  let browser: Browser;
  let owner: BrowserContext;
  let dashboard: Page;
  let ownerErrors: string[];
  let botId: number;
  const botName = `Shop Helper ${crypto.randomBytes(2).toString('hex')}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await browser.newContext(DESKTOP);
    dashboard = await owner.newPage();
    ownerErrors = collectPageErrors(dashboard);
    await signUpAndIn(owner, baseUrl, dataDir, 'insights');
    await payWithTestCard(dashboard, baseUrl);
    const headers = { Origin: baseUrl };
    const created = await owner.request.post(`${baseUrl}/api/bots`, { data: { botName }, headers });
    expect(created.status()).toBe(201);
    botId = ((await created.json()) as { bot: { id: number } }).bot.id;
    const { apiKey } = (
      (await (await owner.request.get(`${baseUrl}/api/bots/${botId}`)).json()) as { bot: { apiKey: string } }
    ).bot;

    // Four visitors, one conversation each, through the real chat path.
    const questions = [RETURNS, RETURNS, KAYAKS, RETURNS];
    for (const [i, prompt] of questions.entries()) {
      const chat = await fetch(`${baseUrl}/api/chat`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${apiKey}`,
          'X-Visitor-Id': `insights-visitor-${i}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ botId, prompt }),
      });
      expect(chat.status, await chat.clone().text()).toBe(200);
      await chat.text();
    }
  }, 240_000);

  afterAll(async () => {
    await owner?.close();
    await browser?.close();
  });

  it("shows the bot's conversations and its most asked topic", async () => {
    await dashboard.goto(`${baseUrl}/dashboard/insights?botId=${botId}`);
    await dashboard.getByRole('heading', { level: 1, name: 'Insights' }).waitFor();
    await dashboard.getByRole('list', { name: 'Headline figures' }).waitFor({ timeout: 30_000 });
    expect(await dashboard.getByText(/^4 conversations · \d+ messages · 4 visitors/).count()).toBe(1);

    const topics = dashboard.getByRole('list', { name: 'Topics' }).getByRole('link');
    expect(await topics.count()).toBe(2);
    expect(await topics.nth(0).textContent()).toMatch(new RegExp(`^${RETURNS.replace('?', '\\?')}3 conversations`));
    expect(await topics.nth(1).textContent()).toMatch(new RegExp(`^${KAYAKS.replace('?', '\\?')}1 conversation`));
    expect(await topics.nth(0).getAttribute('href')).toBe(
      `/dashboard/conversations?botId=${botId}&q=How+do+I+return+an+order%3F`,
    );
    // A bot without knowledge sources says so.
    await dashboard.getByText(/^This bot has no knowledge sources\./).waitFor();
    await screenshot(dashboard, 'insights-topics', true);
    expect(ownerErrors).toEqual([]);
  }, 90_000);

  it('a topic opens the inbox searching for its words in that bot, listing its three conversations of four', async () => {
    await dashboard
      .getByRole('list', { name: 'Topics' })
      .getByRole('link', { name: /^How do I return/ })
      .click();
    await dashboard.waitForURL(/\/dashboard\/conversations\?/);
    const url = new URL(dashboard.url());
    expect(url.searchParams.get('q')).toBe(RETURNS);
    expect(url.searchParams.get('botId')).toBe(String(botId));
    await dashboard.getByRole('heading', { level: 1, name: 'Conversations' }).waitFor();
    expect(await dashboard.getByLabel('Search messages').inputValue()).toBe(RETURNS);

    const rows = dashboard.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);
    await screenshot(dashboard, 'insights-topic-inbox');
    expect(ownerErrors).toEqual([]);
  }, 90_000);
});
