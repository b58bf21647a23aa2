import crypto from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectPageErrors, DESKTOP, launchBrowser, screenshot } from '../support/browser.js';
import { payWithTestCard, signUpAndIn } from '../support/owner.js';

/**
 * The loop from "the bot missed this" to "now it knows" (docs/product.md#conversations): a
 * visitor asks a bot with no knowledge a question in the widget and rates the answer down; the
 * owner finds the conversation under "Unanswered" in the dashboard's Conversations page, writes
 * the answer with "Fix this answer"; the visitor asks again and gets the owner's answer (the
 * offline demo model gives a correction word for word: docs/product.md#corrections).
 */

const QUESTION = 'Do you rent kayaks at the lake?';
const CORRECTION = 'Yes: kayaks are 30 dollars a day at the boathouse, life jackets included.';

describe('conversations in the browser: rate an answer down, find it, correct it, get the corrected answer', () => {
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  let browser: Browser;
  let owner: BrowserContext;
  let visitor: BrowserContext;
  let dashboard: Page;
  let widget: Page;
  let ownerErrors: string[];
  let visitorErrors: string[];
  let botId: number;
  const botName = `Lake Helper ${crypto.randomBytes(2).toString('hex')}`;

  /** Sends `text` in the widget and answers the reply once it has streamed in whole. */
  async function ask(text: string): Promise<string> {
    // Settled answers: not the typing dots, not a reply still streaming.
    const answers = widget.locator('.m.assistant:not(.dots):not([aria-busy="true"])');
    const before = await answers.count();
    const message = widget.getByRole('textbox', { name: 'Message' });
    await message.fill(text);
    await message.press('Enter');
    await expect.poll(() => answers.count(), { timeout: 60_000 }).toBe(before + 1);
    return (await answers.last().textContent()) ?? '';
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await browser.newContext(DESKTOP);
    dashboard = await owner.newPage();
    ownerErrors = collectPageErrors(dashboard);
    await signUpAndIn(owner, baseUrl, dataDir, 'conversations');
    await payWithTestCard(dashboard, baseUrl);
    const created = await owner.request.post(`${baseUrl}/api/bots`, {
      data: { botName },
      headers: { Origin: baseUrl },
    });
    expect(created.status()).toBe(201);
    botId = ((await created.json()) as { bot: { id: number } }).bot.id;
    visitor = await browser.newContext(DESKTOP);
    widget = await visitor.newPage();
    visitorErrors = collectPageErrors(widget);
  }, 240_000);

  afterAll(async () => {
    await owner?.close();
    await visitor?.close();
    await browser?.close();
  });

  it('the visitor gets no answer from a bot without knowledge and rates it down', async () => {
    await widget.goto(`${baseUrl}/widget?botId=${botId}`);
    const answer = await ask(QUESTION);
    expect(answer).not.toContain(CORRECTION);
    // The rating buttons follow the answer's bubble; the newest group is the latest answer's.
    const rating = widget.getByRole('group', { name: 'Rate this answer' }).last();
    const bad = rating.getByRole('button', { name: 'Bad answer' });
    const sent = widget.waitForResponse((r) => r.url().endsWith('/api/chat/feedback'));
    await bad.click();
    expect((await sent).status()).toBe(204);
    expect(await bad.getAttribute('aria-pressed')).toBe('true');
    await screenshot(widget, 'conversations-widget-rated-down');
    expect(visitorErrors).toEqual([]);
  }, 90_000);

  it('the owner finds it under Unanswered and writes the answer with "Fix this answer"', async () => {
    await dashboard.goto(`${baseUrl}/dashboard`);
    await dashboard
      .getByRole('navigation', { name: 'Bot categories' })
      .getByRole('button', { name: 'Conversations' })
      .click();
    await dashboard.getByRole('heading', { level: 1, name: 'Conversations' }).waitFor();
    await dashboard.getByRole('button', { name: 'Unanswered', exact: true }).click();
    await dashboard.waitForURL(/filter=unanswered/);
    const list = dashboard.getByRole('list', { name: 'Conversations' });
    const row = list.getByRole('listitem').filter({ hasText: QUESTION });
    await row.waitFor({ timeout: 15_000 }).catch(async (e) => {
      await screenshot(dashboard, 'debug-conv');
      throw e;
    });
    expect(await row.textContent()).toContain(botName);
    expect(await row.textContent()).toContain('Thumbs down');
    await row.getByRole('button').click();

    const transcript = dashboard.getByRole('region', { name: 'Transcript' });
    const answer = transcript.getByRole('listitem').filter({ hasText: 'Not helpful' });
    await answer.waitFor();
    expect(await answer.textContent()).toContain('Unanswered');
    expect(await answer.textContent()).toContain('Not helpful');
    await screenshot(dashboard, 'conversations-unanswered');

    await answer.getByRole('button', { name: 'Fix this answer' }).click();
    const dialog = dashboard.getByRole('dialog', { name: 'Fix this answer' });
    expect(await dialog.getByLabel("Visitor's question").inputValue()).toBe(QUESTION);
    await dialog.getByLabel('Answer', { exact: true }).fill(CORRECTION);
    await screenshot(dashboard, 'conversations-fix-answer');
    await dialog.getByRole('button', { name: 'Save answer' }).click();
    await dashboard.getByText('Answer saved: the bot gives it from now on.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(ownerErrors).toEqual([]);
  }, 90_000);

  it('the visitor asks again and gets the corrected answer; the report marks the question fixed', async () => {
    const answer = await ask(QUESTION);
    expect(answer).toContain(CORRECTION);
    await screenshot(widget, 'conversations-widget-corrected');

    await dashboard.goto(`${baseUrl}/dashboard/conversations?view=questions&botId=${botId}`);
    const questions = dashboard.getByRole('list', { name: 'Questions' });
    await questions.getByText('Fixed', { exact: true }).waitFor({ timeout: 15_000 });
    await dashboard.getByRole('button', { name: 'Hide fixed (1)' }).click();
    await dashboard.getByText('No unanswered questions').waitFor();
    expect(visitorErrors).toEqual([]);
    expect(ownerErrors).toEqual([]);
  }, 90_000);
});
