import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../support/app-server.js';
import { collectPageErrors, DESKTOP, launchBrowser, screenshot } from '../support/browser.js';
import { linkFromOutbox } from '../support/outbox.js';
import { payWithTestCard, signUpAndIn } from '../support/owner.js';

/**
 * When the bot cannot help, a person can (docs/product.md#leads-and-handoff): a bot at its monthly
 * budget keeps its launcher on an owner's site, says "Leave a message" and opens the lead form; a
 * visitor leaves an e-mail; the owner sees the lead in the dashboard, opens its conversation and
 * replies; the visitor's open widget shows the reply under the owner's display name, and the reply
 * is mailed to the address the visitor left. The budget is spent through the real chat path.
 */

const VISITOR_EMAIL = `visitor-${crypto.randomBytes(3).toString('hex')}@example.com`;
const REPLY = 'Hi! This is Dana from the shop. Yes, we can ship it tomorrow.';

describe('leads in the browser: at the cap a visitor leaves an e-mail, the owner replies, the open widget shows it', () => {
  let server: AppServer;
  let host: http.Server;
  let hostUrl: string;
  let browser: Browser;
  let owner: BrowserContext;
  let dashboard: Page;
  let widget: Page;
  let ownerErrors: string[];
  let visitorErrors: string[];
  let botId: number;
  let ownerEmail: string;

  beforeAll(async () => {
    // Its own server: the offline model answers at once, so spending the budget takes seconds.
    server = await startAppServer({ OFFLINE_MODEL_WORD_DELAY_MS: '0', RUN_SCHEDULER: 'false' });
    // The owner's site, on another origin than the product: the widget as customers embed it.
    host = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><title>Acme Shop</title></head><body><h1>Acme Shop</h1>` +
          `<script src="${server.baseUrl}/widget.js" data-bot-id="${botId}" async></script></body></html>`,
      );
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
    browser = await launchBrowser();
    owner = await browser.newContext(DESKTOP);
    dashboard = await owner.newPage();
    ownerErrors = collectPageErrors(dashboard);
    ownerEmail = await signUpAndIn(owner, server.baseUrl, server.dataDir, 'leads');
    await payWithTestCard(dashboard, server.baseUrl);
  }, 240_000);

  afterAll(async () => {
    await owner?.close();
    await browser?.close();
    await new Promise((resolve) => host?.close(resolve));
    await server?.stop();
  });

  it('the bot spends its $1 budget and its public face says it takes messages instead of chats', async () => {
    const baseUrl = server.baseUrl;
    const headers = { Origin: baseUrl };
    const created = await owner.request.post(`${baseUrl}/api/bots`, { data: { botName: 'Acme Helper' }, headers });
    expect(created.status()).toBe(201);
    botId = ((await created.json()) as { bot: { id: number } }).bot.id;
    const saved = await owner.request.put(`${baseUrl}/api/bots/${botId}`, { data: { usageLimitDollars: 1 }, headers });
    expect(saved.status(), await saved.text()).toBe(200);
    const { apiKey } = (
      (await (await owner.request.get(`${baseUrl}/api/bots/${botId}`)).json()) as {
        bot: { apiKey: string };
      }
    ).bot;

    // Answered messages from the owner's own server (the bot's API key) until the next would not fit.
    let face: { hidden: boolean; leadOnly: boolean } = { hidden: false, leadOnly: false };
    for (let i = 0; i < 40 && !face.hidden; i++) {
      const chat = await fetch(`${baseUrl}/api/chat`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${apiKey}`,
          'X-Visitor-Id': `spender-${i}`,
          'Content-Type': 'application/json',
        },
        // A greeting, which the offline model answers and charges: an answer it could not give is
        // free (docs/product.md#the-fair-meter) and would never reach the budget.
        body: JSON.stringify({ botId, prompt: `Hello, question ${i}` }),
      });
      expect(chat.status, await chat.clone().text()).toBe(200);
      face = ((await (await fetch(`${baseUrl}/api/widget/bots/${botId}`)).json()) as { bot: typeof face }).bot;
    }
    expect(face).toMatchObject({ hidden: true, leadOnly: true });
  }, 120_000);

  it('the launcher stays on the site and says "Leave a message"; the visitor leaves an e-mail', async () => {
    const visitor = await browser.newContext(DESKTOP);
    widget = await visitor.newPage();
    visitorErrors = collectPageErrors(widget);
    await widget.goto(hostUrl);
    const launcher = widget.getByRole('button', { name: 'Leave a message' });
    await launcher.waitFor();
    // Said to sighted visitors too, as its tooltip.
    expect(await launcher.getAttribute('title')).toBe('Leave a message');
    await launcher.click();
    const form = widget.getByRole('form', { name: 'Leave a message' });
    await form.waitFor();
    // No chat to type into: the bot cannot answer now.
    expect(await widget.getByRole('textbox', { name: 'Message', exact: true }).count()).toBe(0);
    await screenshot(widget, 'leads-widget-form-at-cap');
    const email = form.getByRole('textbox', { name: 'E-mail' });
    expect(await email.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await email.fill(VISITOR_EMAIL);
    await email.press('Enter');
    await widget.getByText("Thanks! We'll get back to you soon.").waitFor();
    expect(await form.count()).toBe(0);
    // The conversation is now the owner's: the visitor can write again.
    await widget.getByRole('textbox', { name: 'Message', exact: true }).waitFor();
    await screenshot(widget, 'leads-widget-thank-you');

    // The owner heard about it by e-mail, with the visitor's address.
    await linkFromOutbox(server.dataDir, ownerEmail, new RegExp(VISITOR_EMAIL.replace(/[.]/g, '\\.')));
    expect(visitorErrors).toEqual([]);
  }, 90_000);

  it('the owner sees the lead, opens its conversation and replies; the open widget shows the reply at once', async () => {
    await dashboard.goto(`${server.baseUrl}/dashboard/leads`);
    const table = dashboard.getByRole('table', { name: 'Leads' });
    const row = table.getByRole('row').filter({ hasText: VISITOR_EMAIL });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('Acme Helper');
    await screenshot(dashboard, 'leads-dashboard-list');
    await row.getByRole('link', { name: `Open the conversation of the lead from ${VISITOR_EMAIL}` }).click();

    const transcript = dashboard.getByRole('region', { name: 'Transcript' });
    await transcript.getByText('Handoff').waitFor();
    await transcript.getByLabel('Reply to the visitor').fill(REPLY);
    await transcript.getByRole('button', { name: 'Send reply' }).click();
    await transcript.getByRole('listitem').filter({ hasText: REPLY }).waitFor();
    await screenshot(dashboard, 'leads-dashboard-replied');

    // The visitor's widget, open all along, receives it (the events stream reads new replies every 2 s).
    const bubble = widget.locator('.m.agent').filter({ hasText: REPLY });
    await bubble.waitFor({ timeout: 15_000 });
    expect(await bubble.locator('b').textContent()).toBe('Support');
    await screenshot(widget, 'leads-widget-reply');

    // And by e-mail, to the address the visitor left: first a fixed-text notice (never the reply's
    // text) whose link confirms the address and shows the reply (docs/product.md#mail-consent).
    const link = await linkFromOutbox(
      server.dataDir,
      VISITOR_EMAIL,
      /http:\/\/[^\s"]+\/api\/mail\/confirm\/[A-Za-z0-9_-]{43}/,
    );
    const mailbox = await widget.context().newPage();
    await mailbox.goto(link);
    expect(await mailbox.content()).not.toContain('Dana from the shop');
    await mailbox.getByRole('button', { name: 'See the reply' }).click();
    await mailbox.getByText('Dana from the shop', { exact: false }).first().waitFor();
    await mailbox.close();
    expect(visitorErrors).toEqual([]);
    expect(ownerErrors).toEqual([]);
  }, 90_000);
});
