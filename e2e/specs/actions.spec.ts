import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../support/app-server.js';
import { collectPageErrors, DESKTOP, launchBrowser, screenshot } from '../support/browser.js';
import { payWithTestCard, signUpAndIn } from '../support/owner.js';

/**
 * Actions for verified visitors (docs/product.md#actions), in a real browser on the real app with
 * the offline demo model: the owner's page signs its customer (`Botsmith.identify({token})`, a JWT
 * made with the bot's identity secret), the customer asks "where is my order 1042?", sees
 * "Checking your order…" while the shop's API answers (a local server on 127.0.0.1 standing in
 * for it, slow on purpose so the line can be seen), then the status; the owner sees the call in
 * the conversation's transcript.
 */

function jwt(claims: Record<string, unknown>, secret: string): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const signed = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

describe('actions in the browser: a signed-in customer asks where their order is', () => {
  let server: AppServer;
  let shop: http.Server;
  let host: http.Server;
  let hostUrl: string;
  let browser: Browser;
  let owner: BrowserContext;
  let dashboard: Page;
  let ownerErrors: string[];
  let botId: number;
  let token: string;
  const shopAsked: string[] = [];

  beforeAll(async () => {
    server = await startAppServer({
      ACTIONS_ALLOW_PRIVATE: 'true',
      OFFLINE_MODEL_WORD_DELAY_MS: '0',
      RUN_SCHEDULER: 'false',
    });
    shop = http.createServer((req, res) => {
      shopAsked.push(req.url!);
      // Slow enough for the "Checking your order…" line to be seen.
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ status: 'shipped', carrier: 'Parcel Co' }));
      }, 1500);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    const shopBase = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    // The owner's site, on another origin than the product; it signs its signed-in customer.
    host = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><title>Acme Shop</title></head><body><h1>Acme Shop</h1>` +
          `<script src="${server.baseUrl}/widget.js" data-bot-id="${botId}" async></script>` +
          `<script>window.addEventListener('load', () => { const wait = setInterval(() => {` +
          ` if (window.Botsmith) { clearInterval(wait); window.Botsmith.identify({ token: ${JSON.stringify(token)} }); } }, 20); });</script>` +
          `</body></html>`,
      );
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;

    browser = await launchBrowser();
    owner = await browser.newContext(DESKTOP);
    dashboard = await owner.newPage();
    ownerErrors = collectPageErrors(dashboard);
    await signUpAndIn(owner, server.baseUrl, server.dataDir, 'actions');
    await payWithTestCard(dashboard, server.baseUrl);

    const headers = { Origin: server.baseUrl };
    const created = await owner.request.post(`${server.baseUrl}/api/bots`, {
      data: { botName: 'Shop helper' },
      headers,
    });
    expect(created.status()).toBe(201);
    botId = ((await created.json()) as { bot: { id: number } }).bot.id;
    const secret = await owner.request.post(`${server.baseUrl}/api/bots/${botId}/identity-secret`, { headers });
    expect(secret.status()).toBe(200);
    const identitySecret = ((await secret.json()) as { identitySecret: string }).identitySecret;
    token = jwt(
      { sub: 'cust_42', email: 'ada@example.org', exp: Math.floor(Date.now() / 1000) + 3600 },
      identitySecret,
    );
    const action = await owner.request.post(`${server.baseUrl}/api/bots/${botId}/actions`, {
      headers,
      data: {
        name: 'order_status',
        description: 'Look up the status of an order by its number',
        parameters: { type: 'object', properties: { order_id: { type: 'integer' } }, required: ['order_id'] },
        method: 'GET',
        url: `${shopBase}/orders/{order_id}`,
        headers: [{ name: 'X-Shop-Key', value: 'shop_secret_abcdef123456' }],
        visitorFields: ['sub', 'email'],
        answerFields: ['/status'],
      },
    });
    expect(action.status(), await action.text()).toBe(201);
  }, 240_000);

  afterAll(async () => {
    await owner?.close();
    await browser?.close();
    await new Promise((resolve) => host?.close(resolve));
    shop?.closeAllConnections();
    await new Promise((resolve) => shop?.close(resolve));
    await server?.stop();
  });

  it('the customer sees "Checking your order…", then the status; the shop got their verified e-mail', async () => {
    const visitor = await browser.newContext(DESKTOP);
    try {
      const page = await visitor.newPage();
      const errors = collectPageErrors(page);
      await page.goto(hostUrl);
      await expect.poll(() => page.evaluate(() => 'Botsmith' in window), { timeout: 20_000 }).toBe(true);
      await page.evaluate(() => (window as unknown as { Botsmith: { open(): void } }).Botsmith.open());
      const message = page.getByRole('textbox', { name: 'Message' });
      await message.waitFor({ timeout: 20_000 });
      await message.fill('where is my order 1042?');
      await message.press('Enter');

      await page.getByText('Checking your order…').waitFor({ timeout: 20_000 });
      await screenshot(page, 'actions-checking');
      const answer = page.locator('.m.assistant').filter({ hasText: 'status: shipped' });
      await answer.waitFor({ timeout: 20_000 });
      expect(await page.getByText('Checking your order…').count()).toBe(0);
      expect(await answer.textContent()).not.toContain('Parcel Co');
      await screenshot(page, 'actions-answered');
      expect(shopAsked).toEqual(['/orders/1042?visitor.sub=cust_42&visitor.email=ada%40example.org']);
      expect(errors).toEqual([]);
    } finally {
      await visitor.close();
    }
  });

  it('the owner sees the call in the transcript, with its parameters and the answer the model saw', async () => {
    await dashboard.goto(`${server.baseUrl}/dashboard/conversations?botId=${botId}`);
    const list = dashboard.getByRole('list', { name: 'Conversations' });
    const row = list.getByRole('listitem').filter({ hasText: 'where is my order 1042?' });
    await row.waitFor({ timeout: 20_000 });
    await row.getByRole('button').first().click();

    const transcript = dashboard.getByRole('region', { name: 'Transcript' });
    const call = transcript.getByRole('listitem', { name: /^Action call: Called order_status · 200 · / });
    await call.waitFor({ timeout: 20_000 });
    await call.getByRole('button').first().click();
    await expect.poll(() => call.textContent()).toContain('1042');
    expect(await call.textContent()).toContain('shipped');
    await screenshot(dashboard, 'actions-transcript');
    expect(ownerErrors).toEqual([]);
  });
});
