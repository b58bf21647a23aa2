import zlib from 'node:zlib';
import { expect, it } from '@jest/globals';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { BotAppearance } from '@botsmith/contract';
import type request from 'supertest';
import type { TestApp } from './test-app.js';

/** The fields of a bot's look; a Record, so a field added to the contract's BotAppearance must be added here. */
const APPEARANCE_FIELDS: Record<keyof BotAppearance, true> = {
  bubbleIcon: true,
  bubbleColor: true,
  bubbleTextColor: true,
  bubbleBorderRadius: true,
  chatWindowBorderRadius: true,
  bannerColor: true,
  bannerTextColor: true,
  bannerDisclaimer: true,
  placeholderText: true,
  placeholderTextColor: true,
  sendButtonColor: true,
  sendButtonColor1: true,
  sendArrowColor: true,
  widgetBubbleColor: true,
  assistantBubbleColor: true,
  assistantBubbleTextColor: true,
  widgetBackgroundColor: true,
  animation: true,
  widgetPosition: true,
};

/** The keys of a bot as its owner reads it (GET /api/bots/:id), sorted. */
export const OWNER_BOT_KEYS = [
  'id',
  'name',
  'apiKey',
  'prompt',
  'customGreeting',
  'starterQuestions',
  'widgetLanguage',
  'model',
  'showModelLabel',
  'categoryId',
  'allowedDomain',
  'document',
  ...Object.keys(APPEARANCE_FIELDS),
  'maxTokens',
  'temperature',
  'usageLimitDollars',
  'leadCapture',
].sort();

/** The keys of a bot's public face (GET /api/widget/bots/:id), sorted. */
export const PUBLIC_BOT_KEYS = [
  'id',
  'name',
  'customGreeting',
  'starterQuestions',
  'widgetLanguage',
  'model',
  'modelLabel',
  'hidden',
  'theme',
  'leadCapture',
  'leadOnly',
  ...Object.keys(APPEARANCE_FIELDS),
].sort();

/** Creates a bot through the API as the agent's owner and returns its id. */
export async function createBotViaApi(t: TestApp, agent: request.Agent, botName = 'Support Bot'): Promise<number> {
  const response = await agent.post('/api/bots').set('Origin', t.origin).send({ botName });
  if (response.status !== 201)
    throw new Error(`Bot creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.bot.id as number;
}

export async function createCategoryViaApi(t: TestApp, agent: request.Agent, name = 'Sales'): Promise<number> {
  const response = await agent.post('/api/categories').set('Origin', t.origin).send({ name });
  if (response.status !== 201) {
    throw new Error(`Category creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.category.id as number;
}

/**
 * The tests of the name rule of a route that creates something by name (bots, categories;
 * docs/product.md#field-rules): a missing name (empty, only white space, absent, not text) is
 * refused with "<noun> name is required.", one over `max` characters with "<noun> name must be at
 * most <max> characters.", and exactly `max` characters is accepted (201). `app` answers the app
 * and the acting owner once the suite's beforeAll has run.
 */
export function itAppliesTheNameRule(
  app: () => { t: TestApp; owner: request.Agent },
  { path, field, noun, max }: { path: string; field: string; noun: string; max: number },
): void {
  const post = (body: object) => {
    const { t, owner } = app();
    return owner.post(path).set('Origin', t.origin).send(body);
  };

  it.each([
    ['an empty name', { [field]: '' }],
    ['a name of only white space', { [field]: '   \t ' }],
    ['no name at all', {}],
    ['a name that is a number', { [field]: 12 }],
    ['a name that is a list', { [field]: ['a'] }],
  ])(`refuses %s with "${noun} name is required."`, async (_label, body) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: `${noun} name is required.`, code: 'VALIDATION_FAILED' });
  });

  it(`refuses a name over ${max} characters and accepts exactly ${max}`, async () => {
    const over = await post({ [field]: 'n'.repeat(max + 1) });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      error: `${noun} name must be at most ${max} characters.`,
      code: 'VALIDATION_FAILED',
    });
    expect((await post({ [field]: 'n'.repeat(max) })).status).toBe(201);
  });
}

/** A real PDF (pdf-lib) with one page per entry of `pages`; each entry's lines are drawn as text. */
export async function makePdf(pages: string[][]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    lines.forEach((line, index) => page.drawText(line, { x: 40, y: 750 - index * 14, size: 10, font }));
  }
  return Buffer.from(await doc.save());
}

/** A PDF whose only page holds a drawing and no text (like a scan). */
export async function makeImageOnlyPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage().drawRectangle({ x: 50, y: 50, width: 200, height: 120, color: rgb(0.2, 0.6, 0.4) });
  return Buffer.from(await doc.save());
}

/** A long text-based document: `pageCount` pages of numbered sentences, one distinctive word on page 3. */
export async function makeHandbookPdf(pageCount = 4): Promise<Buffer> {
  const pages: string[][] = [];
  for (let p = 1; p <= pageCount; p += 1) {
    const lines: string[] = [];
    for (let l = 0; l < 40; l += 1)
      lines.push(`Page ${p} line ${l}: our staff answer questions about orders and delivery.`);
    if (p === 3) lines.push('Refunds are accepted within thirty days when the parcel is returned unopened.');
    pages.push(lines);
  }
  return makePdf(pages);
}

function crc32(buffer: Buffer): number {
  let crc = ~0;
  for (const byte of buffer) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A valid PNG of `size` x `size` pixels in one colour; `padTo` adds a private chunk to reach that many bytes. */
export function makePng(size = 8, padTo?: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, 0x7f)]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
  ];
  const base = Buffer.concat([...parts, pngChunk('IEND', Buffer.alloc(0))]).length;
  if (padTo && padTo > base) parts.push(pngChunk('zzZz', Buffer.alloc(padTo - base - 12, 0x41)));
  return Buffer.concat([...parts, pngChunk('IEND', Buffer.alloc(0))]);
}

/** The smallest JPEG, GIF and WebP headers `file-type` recognises, with a little body. */
export const TINY_IMAGES = {
  jpeg: Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
    Buffer.alloc(64),
    Buffer.from([0xff, 0xd9]),
  ]),
  gif: Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64'),
  webp: Buffer.from('UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA', 'base64'),
};

export const SVG_WITH_SCRIPT = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
    '<script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
);
