import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type request from 'supertest';
import { DocumentsService } from '../../src/modules/knowledge/documents.service.js';
import {
  createBotViaApi,
  makeHandbookPdf,
  makeImageOnlyPdf,
  makePdf,
  makePng,
  SVG_WITH_SCRIPT,
  TINY_IMAGES,
} from '../support/bot-factories.js';
import { makeCompressionBombPdf } from '../support/pdf-bomb.mjs';
import { signedInAgent, TEST_PASSWORD } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const TOO_BIG = 'Image is too big. Keep under 500KB in size.';

describe('uploads', () => {
  let t: TestApp;
  let owner: request.Agent;
  let ownerId: number;
  let ownerEmail: string;
  let other: request.Agent;

  beforeAll(async () => {
    t = await startTestApp();
    ({
      agent: owner,
      user: { id: ownerId, email: ownerEmail },
    } = await signedInAgent(t));
    other = (await signedInAgent(t)).agent;
  });
  afterAll(async () => {
    await t.close();
  });

  /** Every file in the uploads folder, relative to it. */
  function storedFiles(): string[] {
    const root = path.join(t.dataDir, 'uploads');
    if (!fs.existsSync(root)) return [];
    return fs
      .readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => fs.statSync(path.join(root, f)).isFile());
  }

  function uploadIcon(
    agent: request.Agent,
    botId: number | string,
    file: Buffer,
    filename: string,
    contentType: string,
  ) {
    return agent
      .post(`/api/upload/icon/${botId}`)
      .set('Origin', t.origin)
      .attach('icon', file, { filename, contentType });
  }

  function uploadDocument(
    agent: request.Agent,
    botId: number | string,
    file: Buffer,
    filename = 'handbook.pdf',
    contentType = 'application/pdf',
  ) {
    return agent
      .post(`/api/upload/update-document/${botId}`)
      .set('Origin', t.origin)
      .attach('document', file, { filename, contentType });
  }

  async function bot(id: number) {
    return (await owner.get(`/api/bots/${id}`).expect(200)).body.bot as Record<string, unknown>;
  }

  async function chunkRows(botId: number): Promise<{ page: number; ordinal: number; content: string }[]> {
    return t.dataSource.query('SELECT page, ordinal, content FROM document_chunks WHERE bot_id = $1 ORDER BY ordinal', [
      botId,
    ]);
  }

  describe('POST /api/upload/icon/:botId', () => {
    it('stores a PNG under a generated name, sets it as the bot icon and serves it publicly with safe headers', async () => {
      const id = await createBotViaApi(t, owner, 'Icon bot');
      const png = makePng(16);
      const response = await uploadIcon(owner, id, png, 'my logo.png', 'image/png');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        fileUrl: expect.stringMatching(new RegExp(`^${t.origin}/uploads/icons/${UUID}\\.png$`)),
      });
      expect((await bot(id)).bubbleIcon).toBe(response.body.fileUrl);
      expect(storedFiles().some((f) => f.includes('my logo'))).toBe(false);

      const served = await t
        .http()
        .get(new URL(response.body.fileUrl as string).pathname)
        .buffer(true);
      expect(served.status).toBe(200);
      expect(Buffer.compare(served.body as Buffer, png)).toBe(0);
      expect(served.headers).toMatchObject({
        'content-type': 'image/png',
        'x-content-type-options': 'nosniff',
        'content-disposition': 'inline',
        'cross-origin-resource-policy': 'cross-origin',
        'cache-control': 'public, max-age=31536000, immutable',
      });
      expect(served.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    });

    it.each([
      ['a JPEG', TINY_IMAGES.jpeg, 'jpg'],
      ['a GIF', TINY_IMAGES.gif, 'gif'],
      ['a WebP', TINY_IMAGES.webp, 'webp'],
    ])('accepts %s and names it by its content', async (_label, bytes, extension) => {
      const id = await createBotViaApi(t, owner, 'Formats');
      // The declared name and type lie; the content decides.
      const response = await uploadIcon(owner, id, bytes, 'picture.bmp', 'application/octet-stream');
      expect(response.status).toBe(200);
      expect(response.body.fileUrl).toMatch(new RegExp(`/uploads/icons/${UUID}\\.${extension}$`));
    });

    it('replaces the previous icon and removes its file', async () => {
      const id = await createBotViaApi(t, owner, 'Replace icon');
      const first = (await uploadIcon(owner, id, makePng(8), 'a.png', 'image/png').expect(200)).body.fileUrl as string;
      const second = (await uploadIcon(owner, id, makePng(9), 'b.png', 'image/png').expect(200)).body.fileUrl as string;
      expect(second).not.toBe(first);
      expect((await bot(id)).bubbleIcon).toBe(second);
      await t.http().get(new URL(first).pathname).expect(404);
      await t.http().get(new URL(second).pathname).expect(200);
    });

    it('accepts 511999 bytes and refuses 512000 with 413 and the size message, storing nothing', async () => {
      const id = await createBotViaApi(t, owner, 'Size limit');
      const justUnder = makePng(8, 511_999);
      expect(justUnder.length).toBe(511_999);
      await uploadIcon(owner, id, justUnder, 'ok.png', 'image/png').expect(200);
      const before = storedFiles();

      const atLimit = makePng(8, 512_000);
      expect(atLimit.length).toBe(512_000);
      const response = await uploadIcon(owner, id, atLimit, 'big.png', 'image/png');
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ error: TOO_BIG, code: 'FILE_TOO_LARGE' });
      expect(storedFiles()).toEqual(before);
    });

    it('refuses a 3 MB image while it streams in, with 413', async () => {
      const id = await createBotViaApi(t, owner, 'Huge icon');
      const before = storedFiles();
      const response = await uploadIcon(owner, id, makePng(8, 3_000_000), 'huge.png', 'image/png');
      expect(response.status).toBe(413);
      expect(response.body.error).toBe(TOO_BIG);
      expect(storedFiles()).toEqual(before);
      expect((await bot(id)).bubbleIcon).toBe('');
    });

    it.each([
      ['an SVG with a script, declared as SVG', SVG_WITH_SCRIPT, 'evil.svg', 'image/svg+xml'],
      ['an SVG with a script, renamed .png', SVG_WITH_SCRIPT, 'evil.png', 'image/png'],
      ['an HTML page renamed .png', Buffer.from('<html><script>alert(1)</script></html>'), 'page.png', 'image/png'],
      ['a PDF renamed .png', Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), 'doc.png', 'image/png'],
      ['an empty file', Buffer.alloc(0), 'empty.png', 'image/png'],
    ])('refuses %s with 415 and stores nothing', async (_label, bytes, filename, contentType) => {
      const id = await createBotViaApi(t, owner, 'Not an image');
      const before = storedFiles();
      const response = await uploadIcon(owner, id, bytes, filename, contentType);
      expect(response.status).toBe(415);
      expect(response.body).toEqual({
        error: 'This file is not a supported image. Upload a PNG, JPEG, GIF or WebP image (SVG is not accepted).',
        code: 'UNSUPPORTED_FILE_TYPE',
      });
      expect(storedFiles()).toEqual(before);
      expect((await bot(id)).bubbleIcon).toBe('');
    });

    it('ignores a path-traversal file name: the file lands under a generated name inside the uploads folder', async () => {
      const id = await createBotViaApi(t, owner, 'Traversal');
      const response = await uploadIcon(owner, id, makePng(8), '../../../../tmp/pwned.png', 'image/png');
      expect(response.status).toBe(200);
      expect(response.body.fileUrl).toMatch(new RegExp(`/uploads/icons/${UUID}\\.png$`));
      expect(response.body.fileUrl).not.toContain('pwned');
      expect(fs.existsSync(path.join(t.dataDir, 'tmp', 'pwned.png'))).toBe(false);
      expect(fs.existsSync('/tmp/pwned.png')).toBe(false);
      expect(
        storedFiles().every((f) => new RegExp(`^(icons|documents)/${UUID}\\.(png|jpg|gif|webp|pdf)$`).test(f)),
      ).toBe(true);
    });

    it("answers 404 for another owner's bot and a missing bot, storing nothing", async () => {
      const theirs = await createBotViaApi(t, other, 'Their icon bot');
      const before = storedFiles();
      for (const id of [theirs, 2_000_000]) {
        const response = await uploadIcon(owner, id, makePng(8), 'x.png', 'image/png');
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: 'Bot not found.', code: 'BOT_NOT_FOUND' });
      }
      expect(storedFiles()).toEqual(before);
      expect((await other.get(`/api/bots/${theirs}`).expect(200)).body.bot.bubbleIcon).toBe('');
    });

    it('answers 400 for a missing file, another field name, extra fields or a bad id; 401 without a session', async () => {
      const id = await createBotViaApi(t, owner, 'Form rules');
      const none = await owner.post(`/api/upload/icon/${id}`).set('Origin', t.origin);
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ error: 'Attach the file in the multipart field "icon".', code: 'FILE_REQUIRED' });

      const wrongField = await owner
        .post(`/api/upload/icon/${id}`)
        .set('Origin', t.origin)
        .attach('file', makePng(8), 'x.png');
      expect(wrongField.status).toBe(400);
      expect(wrongField.body.code).toBe('INVALID_UPLOAD');

      const twoFiles = await owner
        .post(`/api/upload/icon/${id}`)
        .set('Origin', t.origin)
        .attach('icon', makePng(8), 'a.png')
        .attach('icon', makePng(8), 'b.png');
      expect(twoFiles.status).toBe(400);
      expect(twoFiles.body.code).toBe('INVALID_UPLOAD');

      const extraField = await owner
        .post(`/api/upload/icon/${id}`)
        .set('Origin', t.origin)
        .field('note', 'hello')
        .attach('icon', makePng(8), 'a.png');
      expect(extraField.status).toBe(400);

      const badId = await uploadIcon(owner, 'abc', makePng(8), 'x.png', 'image/png');
      expect(badId.status).toBe(400);
      expect(badId.body.code).toBe('INVALID_ID');

      const files = storedFiles();
      const anonymous = await t
        .http()
        .post(`/api/upload/icon/${id}`)
        .set('Origin', t.origin)
        .attach('icon', makePng(8), 'x.png');
      expect(anonymous.status).toBe(401);
      expect(storedFiles()).toEqual(files);
    });

    it('refuses an icon upload sent from another site with the owner’s cookie (CSRF), storing nothing', async () => {
      const id = await createBotViaApi(t, owner, 'Cross-site');
      const files = storedFiles();
      const response = await owner
        .post(`/api/upload/icon/${id}`)
        .set('Origin', 'https://evil.example')
        .attach('icon', makePng(8), { filename: 'x.png', contentType: 'image/png' });
      expect(response.status).toBe(403);
      expect(storedFiles()).toEqual(files);
      expect((await bot(id)).bubbleIcon).toBe('');
    });

    it('removes the icon file when the owner clears bubbleIcon', async () => {
      const id = await createBotViaApi(t, owner, 'Clear icon');
      const url = (await uploadIcon(owner, id, makePng(8), 'x.png', 'image/png').expect(200)).body.fileUrl as string;
      // Keeping the same value is allowed and keeps the file.
      await owner.put(`/api/bots/${id}`).set('Origin', t.origin).send({ bubbleIcon: url }).expect(200);
      await t.http().get(new URL(url).pathname).expect(200);
      await owner.put(`/api/bots/${id}`).set('Origin', t.origin).send({ bubbleIcon: '' }).expect(200);
      await t.http().get(new URL(url).pathname).expect(404);
    });
  });

  describe('POST /api/upload/update-document/:botId', () => {
    it('stores the PDF, indexes its text by page and returns {document:{originalName, filePath}}', async () => {
      const id = await createBotViaApi(t, owner, 'Docs bot');
      const response = await uploadDocument(owner, id, await makeHandbookPdf(4), 'Store handbook.pdf');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        document: {
          originalName: 'Store handbook.pdf',
          filePath: expect.stringMatching(new RegExp(`^/uploads/documents/${UUID}\\.pdf$`)),
        },
      });
      expect((await bot(id)).document).toEqual(response.body.document);

      const chunks = await chunkRows(id);
      expect(chunks.length).toBeGreaterThan(4);
      expect(chunks.every((c) => c.content.length <= 1200)).toBe(true);
      expect(chunks.map((c) => c.page)).toEqual([...chunks.map((c) => c.page)].sort((a, b) => a - b));
      expect(new Set(chunks.map((c) => c.page))).toEqual(new Set([1, 2, 3, 4]));
      const refund = chunks.find((c) => c.content.includes('Refunds are accepted'));
      expect(refund?.page).toBe(3);
    });

    it('serves the document only to its owner, as an attachment with safe headers', async () => {
      const id = await createBotViaApi(t, owner, 'Private doc');
      const pdf = await makePdf([['Private pricing sheet.']]);
      const { filePath } = (await uploadDocument(owner, id, pdf, 'prix "spécial".pdf').expect(200)).body.document as {
        filePath: string;
      };
      const mine = await owner.get(filePath).buffer(true);
      expect(mine.status).toBe(200);
      expect(Buffer.compare(mine.body as Buffer, pdf)).toBe(0);
      expect(mine.headers).toMatchObject({
        'content-type': 'application/pdf',
        'x-content-type-options': 'nosniff',
        'cross-origin-resource-policy': 'same-origin',
        'cache-control': 'private, no-store',
      });
      expect(mine.headers['content-disposition']).toBe(
        // Quotes are dropped from the name; non-ASCII gets an ASCII fallback plus the RFC 5987 form.
        `attachment; filename="prix sp_cial.pdf"; filename*=UTF-8''prix%20sp%C3%A9cial.pdf`,
      );
      expect(mine.headers['content-security-policy']).toMatch(/^default-src 'none'/);

      const theirs = await other.get(filePath);
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual({ error: 'File not found.', code: 'NOT_FOUND' });
      const anonymous = await t.http().get(filePath);
      expect(anonymous.status).toBe(404);
    });

    it('replaces the document, its passages and its file on re-upload', async () => {
      const id = await createBotViaApi(t, owner, 'Re-upload');
      const first = (await uploadDocument(owner, id, await makePdf([['Old policy: no returns at all.']])).expect(200))
        .body.document.filePath as string;
      await uploadDocument(owner, id, await makePdf([['New policy: returns within sixty days.']]), 'v2.pdf').expect(
        200,
      );

      const chunks = await chunkRows(id);
      expect(chunks.map((c) => c.content)).toEqual(['New policy: returns within sixty days.']);
      expect((await bot(id)).document).toMatchObject({ originalName: 'v2.pdf' });
      await owner.get(first).expect(404);
      const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM bot_documents WHERE bot_id = $1', [id]);
      expect(n).toBe(1);
    });

    it.each([
      ['a PNG renamed .pdf', () => Promise.resolve(makePng(8)), 'policy.pdf'],
      ['an SVG renamed .pdf', () => Promise.resolve(SVG_WITH_SCRIPT), 'policy.pdf'],
      ['a text file renamed .pdf', () => Promise.resolve(Buffer.from('Just text, PDF in name only')), 'notes.pdf'],
    ])('refuses %s with 415 and keeps the current document', async (_label, make, filename) => {
      const id = await createBotViaApi(t, owner, 'Fake PDF');
      await uploadDocument(owner, id, await makePdf([['The real document.']])).expect(200);
      const before = await chunkRows(id);
      const files = storedFiles();

      const response = await uploadDocument(owner, id, await make(), filename, 'application/pdf');
      expect(response.status).toBe(415);
      expect(response.body).toEqual({
        error: 'This file is not a PDF. Upload the reference document as a PDF.',
        code: 'UNSUPPORTED_FILE_TYPE',
      });
      expect(await chunkRows(id)).toEqual(before);
      expect(storedFiles()).toEqual(files);
    });

    it('refuses a truncated PDF with 422 and keeps the current document', async () => {
      const id = await createBotViaApi(t, owner, 'Truncated');
      await uploadDocument(owner, id, await makePdf([['Intact original.']])).expect(200);
      const before = await chunkRows(id);
      const files = storedFiles();
      const whole = await makeHandbookPdf(2);

      const response = await uploadDocument(owner, id, whole.subarray(0, Math.floor(whole.length / 2)));
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        error: 'This PDF could not be read. It may be damaged or incomplete.',
        code: 'PDF_UNREADABLE',
      });
      expect(await chunkRows(id)).toEqual(before);
      expect(storedFiles()).toEqual(files);
    });

    it('refuses a compression bomb with 422, stores nothing, and keeps answering other requests meanwhile', async () => {
      const id = await createBotViaApi(t, owner, 'Bombed');
      await uploadDocument(owner, id, await makePdf([['Intact original.']])).expect(200);
      const before = await chunkRows(id);
      const files = storedFiles();
      // Under 1 MB on the wire; its content stream inflates to 400 MB of numbers.
      const bomb = await makeCompressionBombPdf(400);
      expect(bomb.length).toBeLessThan(1024 * 1024);

      let settled = false;
      const upload = uploadDocument(owner, id, bomb, 'bomb.pdf').then((response) => {
        settled = true;
        return response;
      });
      // The text is read in a child process: the server answers while the bomb is being read (and
      // lives on when the reader dies at its heap limit).
      let whileReading = 0;
      while (!settled) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const health = await t.http().get('/api/health');
        if (settled) break;
        expect(health.status).toBe(200);
        whileReading += 1;
      }
      const response = await upload;

      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        error: 'This PDF needs too much memory or time to read. Please upload a smaller or simpler PDF.',
        code: 'PDF_TOO_COMPLEX',
      });
      expect(whileReading).toBeGreaterThanOrEqual(3);
      expect(await chunkRows(id)).toEqual(before);
      expect(storedFiles()).toEqual(files);
      expect((await bot(id)).document).toMatchObject({ originalName: 'handbook.pdf' });
    }, 60_000);

    it('refuses a PDF without extractable text with 422 and the exact message', async () => {
      const id = await createBotViaApi(t, owner, 'Scanned');
      const files = storedFiles();
      const response = await uploadDocument(owner, id, await makeImageOnlyPdf(), 'scan.pdf');
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        error: 'This PDF has no extractable text. Please upload a text-based PDF.',
        code: 'PDF_NO_TEXT',
      });
      expect((await bot(id)).document).toBeNull();
      expect(storedFiles()).toEqual(files);
    });

    it('refuses a file over 10 MB with 413 while it streams, storing nothing', async () => {
      const id = await createBotViaApi(t, owner, 'Too big doc');
      const files = storedFiles();
      const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10 * 1024 * 1024, 0x20)]);
      const response = await uploadDocument(owner, id, big, 'big.pdf');
      expect(response.status).toBe(413);
      expect(response.body).toEqual({
        error: 'This document is too big. Keep it under 10 MB.',
        code: 'FILE_TOO_LARGE',
      });
      expect(storedFiles()).toEqual(files);
    });

    it('keeps only the base name of a path-traversal file name, for display', async () => {
      const id = await createBotViaApi(t, owner, 'Doc traversal');
      const response = await uploadDocument(
        owner,
        id,
        await makePdf([['Hello.']]),
        '..\\..\\..\\windows\\evil<script>.pdf',
      );
      expect(response.status).toBe(200);
      expect(response.body.document.originalName).toBe('evilscript.pdf');
      expect(response.body.document.filePath).toMatch(new RegExp(`^/uploads/documents/${UUID}\\.pdf$`));
    });

    it("answers 404 for another owner's bot and stores nothing", async () => {
      const theirs = await createBotViaApi(t, other, 'Their docs');
      const files = storedFiles();
      const response = await uploadDocument(owner, theirs, await makePdf([['Injected knowledge.']]));
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'Bot not found.', code: 'BOT_NOT_FOUND' });
      expect(storedFiles()).toEqual(files);
      expect(await chunkRows(theirs)).toEqual([]);
    });
  });

  describe('limits while streaming', () => {
    interface RawUpload {
      field: string;
      /** File bytes to send (generated in 64 KB pieces, never held at once). */
      bytes: number;
      /** A Content-Length to declare; without one the body is sent chunked. */
      declaredLength?: number;
      /** Finish the body after `bytes` (else leave it open). */
      end: boolean;
    }

    async function listeningPort(): Promise<number> {
      const server = t.app.getHttpServer();
      if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    }

    async function ownerCookie(port: number): Promise<string> {
      const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: t.origin, Connection: 'close' },
        body: JSON.stringify({ email: ownerEmail, password: TEST_PASSWORD }),
      });
      return login.headers.get('set-cookie')!.split(';')[0];
    }

    /** Sends a multipart upload by hand and resolves with the answer's status and whether the body was still open. */
    async function rawUpload(pathname: string, upload: RawUpload): Promise<{ status: number; bodyStillOpen: boolean }> {
      const port = await listeningPort();
      const cookie = await ownerCookie(port);
      const boundary = 'streamlimit';
      return new Promise((resolve, reject) => {
        let ended = false;
        const headers: Record<string, string> = {
          Cookie: cookie,
          Origin: t.origin,
          Connection: 'close',
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
        };
        if (upload.declaredLength) headers['Content-Length'] = String(upload.declaredLength);
        const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: pathname, headers });
        const timer = setTimeout(() => reject(new Error('no answer')), 30_000);
        request.on('response', (response) => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, bodyStillOpen: !ended });
          response.resume();
          request.destroy();
        });
        request.on('error', () => undefined);
        request.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="${upload.field}"; filename="x.bin"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        );
        const piece = Buffer.alloc(64 * 1024, 0x41);
        let sent = 0;
        const pump = () => {
          while (sent < upload.bytes) {
            sent += piece.length;
            if (!request.write(piece)) return void request.once('drain', pump);
          }
          if (upload.end) {
            ended = true;
            request.end(`\r\n--${boundary}--\r\n`);
          }
        };
        pump();
      });
    }

    it('refuses an icon upload that declares a huge body with 413 before reading it', async () => {
      const id = await createBotViaApi(t, owner, 'Declared huge icon');
      const result = await rawUpload(`/api/upload/icon/${id}`, {
        field: 'icon',
        bytes: 256 * 1024,
        declaredLength: 50 * 1024 * 1024,
        end: false,
      });
      expect(result).toEqual({ status: 413, bodyStillOpen: true });
    });

    it('refuses a document upload that declares more than 10 MB with 413 before reading it', async () => {
      const id = await createBotViaApi(t, owner, 'Declared huge doc');
      const result = await rawUpload(`/api/upload/update-document/${id}`, {
        field: 'document',
        bytes: 256 * 1024,
        declaredLength: 11 * 1024 * 1024,
        end: false,
      });
      expect(result).toEqual({ status: 413, bodyStillOpen: true });
    });

    it('streams a 200 MB chunked icon upload through without holding it in memory, then answers 413', async () => {
      const id = await createBotViaApi(t, owner, 'Chunked huge icon');
      const files = storedFiles();
      const baseline = process.memoryUsage().arrayBuffers;
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      }, 2);
      const result = await rawUpload(`/api/upload/icon/${id}`, { field: 'icon', bytes: 200 * 1024 * 1024, end: true });
      clearInterval(sampler);
      expect(result.status).toBe(413);
      // Buffering would add the whole 200 MB; streamed, only the limit plus socket chunks awaiting
      // garbage collection: under 64 MB on Node 20, 80-90 MB on Node 24, whose V8 has a larger young
      // generation (with --max-semi-space-size=1 Node 24 stays under 64 MB too).
      expect(peak - baseline).toBeLessThan(128 * 1024 * 1024);
      expect(storedFiles()).toEqual(files);
    });
  });

  describe('GET /uploads/<key>', () => {
    it.each([
      '/uploads/icons/not-a-uuid.png',
      '/uploads/icons/00000000-0000-4000-8000-000000000000.png',
      '/uploads/icons/00000000-0000-4000-8000-000000000000.svg',
      '/uploads/secret/00000000-0000-4000-8000-000000000000.png',
      '/uploads/icons/..%2f..%2fpackage.json',
      '/uploads/icons/%2e%2e%2f%2e%2e%2fconfig.json',
    ])('answers 404 JSON for %s', async (address) => {
      const response = await t.http().get(address).set('Accept', 'text/html,*/*');
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'File not found.', code: 'NOT_FOUND' });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });
  });

  describe('deleting a bot', () => {
    it('removes its icon and document files, document row and passages', async () => {
      const id = await createBotViaApi(t, owner, 'Cleanup');
      const icon = (await uploadIcon(owner, id, makePng(8), 'x.png', 'image/png').expect(200)).body.fileUrl as string;
      const doc = (await uploadDocument(owner, id, await makeHandbookPdf(2)).expect(200)).body.document
        .filePath as string;
      const iconFile = path.join(t.dataDir, new URL(icon).pathname);
      const docFile = path.join(t.dataDir, doc);
      expect(fs.existsSync(iconFile)).toBe(true);
      expect(fs.existsSync(docFile)).toBe(true);

      await owner.delete(`/api/bots/${id}`).set('Origin', t.origin).expect(200);

      expect(fs.existsSync(iconFile)).toBe(false);
      expect(fs.existsSync(docFile)).toBe(false);
      expect(await chunkRows(id)).toEqual([]);
      const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM bot_documents WHERE bot_id = $1', [id]);
      expect(n).toBe(0);
    });
  });

  describe('DocumentsService.searchChunks', () => {
    let documents: DocumentsService;
    let botId: number;
    let otherBotId: number;

    beforeAll(async () => {
      documents = t.app.get(DocumentsService, { strict: false });
      botId = await createBotViaApi(t, owner, 'Search');
      otherBotId = await createBotViaApi(t, owner, 'Search other');
      await uploadDocument(owner, botId, await makeHandbookPdf(5)).expect(200);
      await uploadDocument(owner, otherBotId, await makePdf([['Refunds are never accepted by the other bot.']])).expect(
        200,
      );
    });

    it('finds the passage that answers a question, with its page, best first', async () => {
      const matches = await documents.searchChunks(botId, 'What is your refund policy for returned parcels?', 3);
      expect(matches.length).toBeGreaterThan(0);
      expect(matches[0].page).toBe(3);
      expect(matches[0].content).toContain('Refunds are accepted within thirty days');
      expect(Object.keys(matches[0]).sort()).toEqual(['content', 'page']);
    });

    it("never returns another bot's passages", async () => {
      const matches = await documents.searchChunks(botId, 'refunds never accepted other bot', 20);
      expect(matches.every((m) => !m.content.includes('other bot'))).toBe(true);
      const theirs = await documents.searchChunks(otherBotId, 'refunds', 20);
      expect(theirs).toEqual([{ page: 1, content: 'Refunds are never accepted by the other bot.' }]);
    });

    it('understands websearch syntax (quoted phrases) and stems words', async () => {
      const phrase = await documents.searchChunks(botId, '"returned unopened"', 5);
      expect(phrase[0]?.page).toBe(3);
      const stemmed = await documents.searchChunks(botId, 'refunding', 5);
      expect(stemmed[0]?.content).toContain('Refunds');
    });

    it('answers [] for an empty query, stop words only, or a bot without a document; clamps the limit', async () => {
      expect(await documents.searchChunks(botId, '   ', 5)).toEqual([]);
      expect(await documents.searchChunks(botId, 'the and of', 5)).toEqual([]);
      const empty = await createBotViaApi(t, owner, 'No doc');
      expect(await documents.searchChunks(empty, 'refund', 5)).toEqual([]);
      expect((await documents.searchChunks(botId, 'orders delivery staff', 500)).length).toBeLessThanOrEqual(20);
      expect((await documents.searchChunks(botId, 'orders delivery staff', 0)).length).toBe(1);
    });

    it('treats hostile query text as words, not syntax', async () => {
      for (const query of ["'; DROP TABLE bots; --", '!!!&&||(((', 'a:* | b', '\u0000refund']) {
        await expect(documents.searchChunks(botId, query, 5)).resolves.toEqual(expect.any(Array));
      }
      const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM bots WHERE owner_id = $1', [ownerId]);
      expect(n).toBeGreaterThan(0);
    });
  });
});
