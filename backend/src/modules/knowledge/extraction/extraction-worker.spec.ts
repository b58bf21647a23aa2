import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { DOCUMENT_EXTRACTION } from '../../../common/constants.js';
import { extractPdfText } from '../pdf-text.js';
import { awaitWorkerReply, documentExtractions, startExtractionWorker } from './extraction-worker.js';
import { extractFileText } from './file-text.js';

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
