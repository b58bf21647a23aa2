import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { LeadCaptureSettings } from '@botsmith/contract';
import { BOT_DEFAULTS, type ModelTier } from '../../src/common/constants.js';
import { BotEntity } from '../../src/modules/bots/bot.entity.js';
import type { TestApp } from './test-app.js';

export interface BotOptions {
  name?: string;
  prompt?: string;
  model?: ModelTier;
  allowedDomain?: string;
  usageLimitDollars?: number;
  maxTokens?: number;
  /** Default: a new bot's (on, e-mail, offered at the cap and on request). */
  leadCapture?: Partial<LeadCaptureSettings>;
}

/** A bot that takes no leads: at its budget it hides, as before lead capture. */
export const NO_LEADS = { leadCapture: { enabled: false } } as const;

/** Inserts a bot for `ownerId` with the defaults of a new bot; returns the entity (with its api key). */
export async function createChatBot(t: TestApp, ownerId: number, options: BotOptions = {}): Promise<BotEntity> {
  const repo = t.dataSource.getRepository(BotEntity);
  return repo.save(
    repo.create({
      ...BOT_DEFAULTS,
      ownerId,
      categoryId: null,
      name: options.name ?? 'Acme Helper',
      apiKey: crypto.randomBytes(32).toString('base64url'),
      prompt: options.prompt ?? 'You are the Acme helper. Our shop opens at 9 am on weekdays.',
      model: options.model ?? 'gpt-3.5-turbo',
      allowedDomain: options.allowedDomain ?? '',
      usageLimitDollars: options.usageLimitDollars ?? 0,
      maxTokens: options.maxTokens ?? BOT_DEFAULTS.maxTokens,
      leadCapture: { ...BOT_DEFAULTS.leadCapture, ...options.leadCapture },
    }),
  );
}

/** A real PDF made with pdf-lib: one page per entry, each line drawn as text. */
export async function samplePdf(pages: string[][]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    lines.forEach((line, i) => page.drawText(line, { x: 40, y: 740 - i * 16, size: 11, font }));
  }
  return Buffer.from(await doc.save());
}

export function visitor(): string {
  return crypto.randomUUID();
}

export interface UsageSummary {
  rows: number;
  priceCents: number;
  creditsCents: number;
  billableCents: number;
}

/** The bot's rows in chat_reservations: the visitors' locks and budget reservations still held. */
export async function reservationsOf(t: TestApp, botId: number): Promise<number> {
  const rows: Array<{ n: string }> = await t.dataSource.query(
    `SELECT COUNT(*) AS n FROM chat_reservations WHERE bot_id = $1`,
    [botId],
  );
  return Number(rows[0].n);
}

export async function usageOfOwner(t: TestApp, ownerId: number): Promise<UsageSummary> {
  const rows: Array<Record<string, string>> = await t.dataSource.query(
    `SELECT COUNT(*) AS rows, COALESCE(SUM(price_cents), 0) AS price, COALESCE(SUM(credits_cents), 0) AS credits,
            COALESCE(SUM(billable_cents), 0) AS billable
       FROM usage_events WHERE owner_id = $1`,
    [ownerId],
  );
  const r = rows[0];
  return {
    rows: Number(r.rows),
    priceCents: Number(r.price),
    creditsCents: Number(r.credits),
    billableCents: Number(r.billable),
  };
}

export async function creditsOf(t: TestApp, ownerId: number): Promise<number> {
  const rows: Array<{ credits_cents: number }> = await t.dataSource.query(
    `SELECT credits_cents FROM users WHERE id = $1`,
    [ownerId],
  );
  return Number(rows[0].credits_cents);
}

export async function messagesOfBot(t: TestApp, botId: number): Promise<Array<{ role: string; content: string }>> {
  return t.dataSource.query(
    `SELECT m.role, m.content FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE c.bot_id = $1 ORDER BY m.id`,
    [botId],
  );
}

export interface SseEvent {
  event: string;
  data: unknown;
}

/** Parses a complete text/event-stream body, checking the framing on the way. */
export function parseSse(body: string): SseEvent[] {
  const blocks = body.split('\n\n');
  if (blocks.pop() !== '')
    throw new Error(`The stream does not end with a blank line: ${JSON.stringify(body.slice(-40))}`);
  const events: SseEvent[] = [];
  for (const block of blocks) {
    const lines = block.split('\n');
    if (lines.every((line) => line.startsWith(':'))) continue; // comments (keep-alive)
    if (lines.length !== 2 || !lines[0].startsWith('event: ') || !lines[1].startsWith('data: ')) {
      throw new Error(`Malformed event block: ${JSON.stringify(block)}`);
    }
    events.push({ event: lines[0].slice(7), data: JSON.parse(lines[1].slice(6)) });
  }
  return events;
}

/** Makes the app listen on a loopback port (for raw HTTP clients that need to drop connections). */
export async function listen(t: TestApp): Promise<string> {
  const server = t.app.getHttpServer();
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Opens a streaming chat request, waits for the first `token` event, then drops the connection
 * as a visitor closing the tab would. Resolves with what was received before the drop.
 */
export function chatAndDisconnectAfterFirstToken(base: string, body: object, visitorId: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-visitor-id': visitorId },
    });
    req.on('response', (res) => {
      let received = '';
      res.on('data', (chunk: Buffer) => {
        received += chunk.toString();
        if (received.includes('event: token')) {
          req.destroy();
          resolve(received);
        }
      });
      res.on('end', () => reject(new Error(`The stream ended before a token: ${received}`)));
    });
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end(JSON.stringify(body));
  });
}

/** Polls until `check` holds or the time is up (for effects that happen after a disconnect). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('The condition did not hold in time.');
}
