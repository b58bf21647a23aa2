import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { DOCUMENT_EXTRACTION } from '../../../common/constants.js';
import { extractPdfText } from '../pdf-text.js';
import {
  awaitWorkerReply,
  documentExtractions,
  READER_ENVIRONMENT,
  readerEnvironment,
  startExtractionWorker,
} from './extraction-worker.js';
import { extractFileText, PageReader } from './file-text.js';

async function onePagePdf(line: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText(line, { x: 40, y: 740, size: 11, font });
  return doc.save();
}

describe('one queue for every document extraction', () => {
  it('makes a PDF and a file wait behind the same held slots', async () => {
    const pdf = await onePagePdf('Opening hours: 9 to 5.');
    // Hold every slot of the queue, so whatever shares it has to wait.
    const releases: (() => void)[] = [];
    const held = Array.from({ length: DOCUMENT_EXTRACTION.concurrency }, () =>
      documentExtractions.run(() => new Promise<void>((resolve) => releases.push(resolve))),
    );
    await new Promise(setImmediate);
    expect(releases).toHaveLength(DOCUMENT_EXTRACTION.concurrency);
    expect(documentExtractions.running).toBe(DOCUMENT_EXTRACTION.concurrency);

    const startedBefore = documentExtractions.started;
    const pdfText = extractPdfText(pdf);
    const fileText = extractFileText('txt', Buffer.from('Closed on Sundays.'));
    expect(documentExtractions.waiting).toBe(2);
    expect(documentExtractions.started).toBe(startedBefore);

    for (const release of releases) release();
    await Promise.all(held);
    expect((await pdfText).pages[0]).toContain('Opening hours: 9 to 5.');
    expect(await fileText).toBe('Closed on Sundays.');
    expect(documentExtractions.started).toBe(startedBefore + 2);
    expect(documentExtractions.waiting).toBe(0);
  });
});

describe('a reader in its own process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-reader-'));
  /** A reader script: it gets its input, then runs `body` (plain JavaScript). */
  function reader(name: string, body: string): URL {
    const file = path.join(dir, `${name}.mjs`);
    fs.writeFileSync(file, `process.once('message', async (input) => { ${body} });\n`);
    return pathToFileURL(file);
  }
  const outcomes = {
    read: (reply: { echo: string }) => reply.echo,
    tooComplex: () => new Error('too complex'),
    stopped: (code: number) => new Error(`stopped ${code}`),
  };
  const limits = { timeoutMs: 20_000, heapMb: 32, memoryMb: 4096 };

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('answers with what it was sent (typed arrays included)', async () => {
    const url = reader('echo', 'process.send({ echo: input.text + new Uint8Array(input.bytes).length });');
    const worker = startExtractionWorker(url, { text: 'bytes: ', bytes: new Uint8Array(5) }, limits);
    await expect(awaitWorkerReply(worker, limits, outcomes)).resolves.toBe('bytes: 5');
  });

  it('is "too complex" when V8 ends it at its heap limit, and the API process goes on', async () => {
    // Allocates as fast as it can: a worker thread doing this can take the whole process down
    // with it on Node 24 ("Reached heap limit"); a child process only ends itself.
    const url = reader('hog', 'const keep = []; for (;;) keep.push(new Array(1e5).fill(Math.random()));');
    const worker = startExtractionWorker(url, {}, limits);
    await expect(awaitWorkerReply(worker, limits, outcomes)).rejects.toThrow('too complex');
    expect(worker.signalCode ?? worker.exitCode).toBeTruthy();
    expect(process.memoryUsage().heapUsed).toBeLessThan(1024 * 1024 * 1024);
  });

  it('is "too complex" past its time limit, and is ended', async () => {
    const url = reader('spin', 'for (;;) {}');
    const worker = startExtractionWorker(url, {}, { ...limits, timeoutMs: 300 });
    await expect(awaitWorkerReply(worker, { ...limits, timeoutMs: 300 }, outcomes)).rejects.toThrow('too complex');
    await new Promise((resolve) =>
      (worker.exitCode ?? worker.signalCode) !== null ? resolve(null) : worker.once('exit', resolve),
    );
    expect(worker.signalCode).toBe('SIGKILL');
  });

  it('is "too complex" when it grows past the memory limit outside its heap', async () => {
    const url = reader(
      'buffers',
      'const keep = []; setInterval(() => keep.push(Buffer.alloc(16 * 1024 * 1024, 1)), 10);',
    );
    const tight = { ...limits, heapMb: 256, memoryMb: 64 };
    const worker = startExtractionWorker(url, {}, tight);
    await expect(awaitWorkerReply(worker, tight, outcomes)).rejects.toThrow('too complex');
  });

  it('reports a reader that exits without answering as stopped, with its code', async () => {
    const url = reader('quits', 'process.exit(3);');
    const worker = startExtractionWorker(url, {}, limits);
    await expect(awaitWorkerReply(worker, limits, outcomes)).rejects.toThrow('stopped 3');
  });
});

describe("a reader's environment", () => {
  /** What a reader could leak if it inherited the API's environment. */
  const SECRETS = {
    STRIPE_SECRET_KEY: 'sk_test_reader_must_not_see',
    SESSION_SECRET: 'session-secret-reader-must-not-see',
    DATABASE_URL: 'postgresql://app:db-password@db.internal/botsmith',
    OPENAI_API_KEY: 'sk-openai-reader-must-not-see',
    SMTP_URL: 'smtp://mailer:smtp-password@mail.internal',
    REDIS_URL: 'redis://:redis-password@redis.internal',
    SOME_FUTURE_TOKEN: 'a-secret-under-a-name-nobody-listed',
  };
  const saved: Record<string, string | undefined> = {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-reader-env-'));
  const limits = { timeoutMs: 20_000, heapMb: 32, memoryMb: 4096 };

  beforeAll(() => {
    for (const [name, value] of Object.entries(SECRETS)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterAll(() => {
    for (const name of Object.keys(SECRETS)) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Fails naming any secret's name or value found in `env`, or any variable not allowed. */
  function expectNoSecret(env: Record<string, string | undefined>, alsoAllowed: string[] = []): void {
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(Object.keys(env)).not.toContain(name);
      expect(Object.values(env)).not.toContain(value);
    }
    const allowed: readonly string[] = [...READER_ENVIRONMENT, ...alsoAllowed];
    expect(Object.keys(env).filter((name) => !allowed.includes(name))).toEqual([]);
  }

  it('holds no secret: only the allow-listed variables reach a reader', async () => {
    const file = path.join(dir, 'env.mjs');
    fs.writeFileSync(file, "process.once('message', () => process.send({ env: { ...process.env } }));\n");
    const worker = startExtractionWorker(pathToFileURL(file), {}, limits);
    const env = await awaitWorkerReply(worker, limits, {
      read: (reply: { env: Record<string, string> }) => reply.env,
      tooComplex: () => new Error('too complex'),
      stopped: (code) => new Error(`stopped ${code}`),
    });
    expectNoSecret(env);
    // A process still needs to find programs.
    if (process.env.PATH) expect(env.PATH).toBe(process.env.PATH);
  });

  it('holds no secret in a running page reader, as the system sees it (/proc/<pid>/environ)', async () => {
    if (!fs.existsSync(`/proc/${process.pid}/task`)) return; // Linux only, the API's platform.
    const reader = new PageReader();
    try {
      const page = await reader.read(
        '<html><body><main><p>We open at nine.</p></main></body></html>',
        'https://a.example/',
      );
      expect(page.text).toContain('We open at nine.');
      // The reader that answered is kept for the next page: find it among this process's children.
      const children = fs
        .readdirSync(`/proc/${process.pid}/task`)
        .flatMap((task) => fs.readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim().split(/\s+/))
        .filter(Boolean);
      const readers = children.filter((pid) =>
        fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('file-text.worker.mjs'),
      );
      expect(readers.length).toBeGreaterThan(0);
      for (const pid of readers) {
        const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
        const env = Object.fromEntries(
          environ
            .split('\0')
            .filter(Boolean)
            .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
        );
        // Node's own IPC channel to the reader (fork) is named in its environment, and only that.
        expectNoSecret(env, ['NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE']);
      }
    } finally {
      reader.close();
    }
  });

  it('passes on only the allow-listed variables that are set', () => {
    expect(readerEnvironment({ PATH: '/usr/bin', TZ: 'UTC', SESSION_SECRET: 'x', NODE_OPTIONS: '--inspect' })).toEqual({
      PATH: '/usr/bin',
      TZ: 'UTC',
    });
  });
});
