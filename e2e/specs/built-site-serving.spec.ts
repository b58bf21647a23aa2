import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectPageErrors, DESKTOP, launchBrowser } from '../support/browser.js';

describe('foundation: the built product in a real browser', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let host: http.Server;
  let hostUrl: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    // A customer's site on another origin (127.0.0.2) that pastes the embed snippet.
    host = http.createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(`<!doctype html><html><head><title>Customer site</title></head><body><h1>Customer</h1>
        <script src="${baseUrl}/widget.js" data-bot-id="1" async></script></body></html>`);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.2', resolve));
    hostUrl = `http://127.0.0.2:${(host.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => host?.close(resolve));
  });

  it('renders the landing route', async () => {
    const page = await browser.newPage(DESKTOP);
    const errors = collectPageErrors(page);
    const response = await page.goto(baseUrl, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    const text = await page.locator('#root').innerText();
    expect(text).toContain('Build Smarter Bots with');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('serves deep links through the history fallback', async () => {
    const page = await browser.newPage(DESKTOP);
    const response = await page.goto(`${baseUrl}/terms-of-service`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toContain('text/html');
    await page.close();
  });

  it('compresses the static site but never the API (chat events must not wait in a buffer)', async () => {
    // The SPA shell (what every path but the prerendered / gets) names the app's entry chunk.
    const html = await (await fetch(`${baseUrl}/login`)).text();
    const script = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${baseUrl}${script}`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const api = await fetch(`${baseUrl}/api/health`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(api.headers.get('content-encoding')).toBeNull();
  });

  it('loads /widget.js as JavaScript on a page of another origin', async () => {
    const page = await browser.newPage(DESKTOP);
    const errors = collectPageErrors(page);
    const widgetResponse = page.waitForResponse((r) => r.url() === `${baseUrl}/widget.js`);
    await page.goto(hostUrl);
    const response = await widgetResponse;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^text\/javascript/);
    expect(response.headers()['cache-control']).toContain('max-age=');
    expect(errors).toEqual([]);
    await page.close();
  });
});
