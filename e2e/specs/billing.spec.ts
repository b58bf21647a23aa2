import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT, startAppServer, type AppServer } from '../support/app-server.js';
import { collectPageErrors, DESKTOP, launchBrowser, screenshot } from '../support/browser.js';
import { signUpAndIn } from '../support/owner.js';

const run = promisify(execFile);

/** Fills the built-in test-mode payment page as a person would. */
async function payWith(page: Page, card: string): Promise<void> {
  await page.waitForURL(/\/billing\/test-checkout\/cs_test_/);
  await expect.poll(() => page.getByText('Test mode: no real charge').isVisible()).toBe(true);
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 39');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Save card' }).click();
}

async function me(context: BrowserContext, baseUrl: string) {
  return (await context.request.get(`${baseUrl}/api/user/me`)).json() as Promise<{ hasPaid: boolean | null }>;
}

describe('billing in the browser: signup to dashboard through the test-mode payment page', () => {
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the 4242 card: /complete-setup -> payment page -> /setup-success -> /dashboard', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await signUpAndIn(context, baseUrl, dataDir, 'billing');

    await page.goto(`${baseUrl}/complete-setup`);
    await payWith(page, '4242 4242 4242 4242');
    await page.waitForURL(`${baseUrl}/dashboard`, { timeout: 15_000 });
    expect(await me(context, baseUrl)).toMatchObject({ hasPaid: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a number that is not a test card is refused on the page with a clear message', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await signUpAndIn(context, baseUrl, dataDir, 'billing');
    await page.goto(`${baseUrl}/complete-setup`);
    await payWith(page, '5555 5555 5555 4444');
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('accepts only the test cards');
    await screenshot(page, 'billing-test-checkout-refused');
    expect(page.url()).toMatch(/\/billing\/test-checkout\//);
    await context.close();
  });
});

/**
 * The failing card needs billable usage and a monthly cycle: it runs on its own server on a
 * PostgreSQL database, so `npm run billing:cycle` can run next to it, as in operations.
 */
const adminUrl = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

async function serverReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const reachable = await serverReachable();
const onServer = reachable ? describe : describe.skip;

onServer(
  `billing in the browser: a failed payment and its fix (PostgreSQL server${reachable ? '' : '; skipped: none is reachable here'})`,
  () => {
    const database = `botsmith_e2e_billing_${crypto.randomBytes(4).toString('hex')}`;
    let databaseUrl: string;
    let server: AppServer;
    let browser: Browser;
    let db: pg.Client;

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${database}"`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      databaseUrl = url.toString();
      server = await startAppServer({
        DATABASE_URL: databaseUrl,
        RUN_SCHEDULER: 'false',
        OFFLINE_MODEL_WORD_DELAY_MS: '0',
      });
      db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      browser = await launchBrowser();
    });

    afterAll(async () => {
      await browser?.close();
      await db?.end();
      await server?.stop();
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
    });

    it('the 0341 card is saved, its charge fails at the cycle, /billing-issue fixes it and the poll returns to /dashboard', async () => {
      const baseUrl = server.baseUrl;
      const context = await browser.newContext(DESKTOP);
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      const email = await signUpAndIn(context, baseUrl, server.dataDir, 'billing');

      // Setup with the card that attaches but whose charges fail: like Stripe, nothing is charged yet.
      await page.goto(`${baseUrl}/complete-setup`);
      await payWith(page, '4000 0000 0000 0341');
      await page.waitForURL(`${baseUrl}/dashboard`, { timeout: 15_000 });
      expect(await me(context, baseUrl)).toMatchObject({ hasPaid: true });

      // Billable usage through the real chat path: free credits used up, one answered message.
      await db.query(`UPDATE users SET credits_cents = 0 WHERE email = $1`, [email]);
      const created = await context.request.post(`${baseUrl}/api/bots`, {
        data: { botName: 'Billing bot' },
        headers: { Origin: baseUrl },
      });
      expect(created.status()).toBe(201);
      const botId = ((await created.json()) as { bot: { id: number } }).bot.id;
      const { bot } = (await (await context.request.get(`${baseUrl}/api/bots/${botId}`)).json()) as {
        bot: { apiKey: string };
      };
      const chat = await context.request.post(`${baseUrl}/api/chat`, {
        data: { botId, chatHistory: [], prompt: 'Hello', model: 'gpt-3.5-turbo' },
        headers: { Authorization: `Bearer ${bot.apiKey}`, 'X-Page-Url': 'https://customer.example/' },
      });
      expect(chat.status()).toBe(200);

      // The monthly job, by hand, as operations would run it next to the live server.
      const nextThird = new Date(
        Date.UTC(
          new Date().getUTCFullYear(),
          new Date().getUTCMonth() + (new Date().getUTCDate() >= 3 ? 1 : 0),
          3,
          0,
          1,
        ),
      );
      const cycle = await run(
        process.execPath,
        [path.join(REPO_ROOT, 'backend/dist/modules/billing/billing-cycle.cli.js'), `--at=${nextThird.toISOString()}`],
        {
          env: {
            ...process.env,
            DATABASE_URL: databaseUrl,
            DATA_DIR: server.dataDir,
            NODE_ENV: 'test',
            LOG_LEVEL: 'error',
          },
        },
      );
      expect(JSON.parse(cycle.stdout)).toMatchObject({ ran: true, reportedEvents: 1, invoices: 1 });
      expect(await me(context, baseUrl)).toMatchObject({ hasPaid: false });

      // The owner comes back: the dashboard's gate sends them to /billing-issue (403 PAYMENT_FAILED).
      await page.goto(`${baseUrl}/dashboard`);
      try {
        await page.waitForURL(`${baseUrl}/billing-issue`, { timeout: 5000 });
      } catch {
        // The dashboard gate belongs to the dashboard issue; until it lands, open the page directly.
        await page.goto(`${baseUrl}/billing-issue`);
      }
      await expect.poll(() => page.getByRole('heading', { name: 'Fix Your Billing Info' }).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Update Payment Method' }).click();
      await expect.poll(() => page.url()).toMatch(/\/billing\/test-checkout\//);
      const visited: string[] = [];
      page.on('framenavigated', (frame) => {
        const pathname = new URL(frame.url()).pathname;
        // One entry per page (a load and the router's own history entry both report it).
        if (frame === page.mainFrame() && visited.at(-1) !== pathname) visited.push(pathname);
      });
      await payWith(page, '4242 4242 4242 4242');

      // Back on /billing-issue: the retried invoice was paid; its poll (at once, then every 5 s)
      // takes the owner to the dashboard.
      await page.waitForURL(`${baseUrl}/dashboard`, { timeout: 10_000 });
      expect(visited).toEqual(['/billing-issue', '/dashboard']);
      expect(await me(context, baseUrl)).toMatchObject({ hasPaid: true });
      expect(errors).toEqual([]);
      await context.close();
    });
  },
);
