import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import ts from 'typescript';
import { makeCompressionBombPdf } from '../../../test/support/pdf-bomb.mjs';
import { extractPdfText, PDF_WORKER_URL, UnreadablePdfError } from './pdf-text.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const backend = path.resolve(here, '..', '..', '..');

async function textPdf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  lines.forEach((line, index) => page.drawText(line, { x: 40, y: 740 - index * 16, size: 11, font }));
  return doc.save();
}

async function reasonOf(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnreadablePdfError);
  return (error as UnreadablePdfError).reason;
}

const GENEROUS = { timeoutMs: 60_000, heapMb: 256, memoryMb: 4096 };

describe('extractPdfText (in a child process)', () => {
  it('finds its worker beside the sources under the tests', () => {
    expect(fileURLToPath(PDF_WORKER_URL)).toBe(path.join(here, 'pdf-text.worker.mjs'));
    expect(fs.existsSync(PDF_WORKER_URL)).toBe(true);
  });

  it('is copied by the build beside the compiled module, so it is found from dist too', () => {
    const configFile = path.join(backend, 'tsconfig.build.json');
    const { config } = ts.readConfigFile(configFile, (file) => ts.sys.readFile(file));
    const parsed = ts.parseJsonConfigFileContent(config, ts.sys, backend);
    const worker = path.join(here, 'pdf-text.worker.mjs');
    expect(parsed.fileNames.map((file) => path.resolve(file))).toContain(worker);
    expect(parsed.options.allowJs).toBe(true);
    // rootDir src → outDir dist: the worker lands at the same relative URL as from src.
    const emitted = path.join(parsed.options.outDir!, path.relative(parsed.options.rootDir!, worker));
    expect(emitted).toBe(path.join(backend, 'dist', 'modules', 'knowledge', 'pdf-text.worker.mjs'));
  });

  it('reads the text of each page', async () => {
    const result = await extractPdfText(await textPdf(['Returns within 30 days.', 'Keep the receipt.']));
    expect(result.pageCount).toBe(1);
    expect(result.pages[0]).toContain('Returns within 30 days.');
    expect(result.pages[0]).toContain('Keep the receipt.');
  });

  it('leaves the caller’s bytes alone (the worker gets a copy)', async () => {
    const bytes = await textPdf(['Hello']);
    const before = Buffer.from(bytes);
    await extractPdfText(bytes);
    expect(bytes.byteLength).toBe(before.length);
    expect(Buffer.from(bytes).equals(before)).toBe(true);
  });

  it('calls a damaged file invalid', async () => {
    const whole = await textPdf(['Hello']);
    expect(await reasonOf(extractPdfText(whole.subarray(0, 40), GENEROUS))).toBe('invalid');
    expect(await reasonOf(extractPdfText(new TextEncoder().encode('not a pdf at all'), GENEROUS))).toBe('invalid');
  });

  // How soon after the limit it ends is measured by bench/document-reading.mjs.
  it('ends a bomb at the time limit', async () => {
    const reason = await reasonOf(
      extractPdfText(await makeCompressionBombPdf(200), { timeoutMs: 300, heapMb: 4096, memoryMb: 4096 }),
    );
    expect(reason).toBe('too-complex');
  });

  it('ends a bomb at the heap limit', async () => {
    const reason = await reasonOf(
      extractPdfText(await makeCompressionBombPdf(200), { timeoutMs: 120_000, heapMb: 16, memoryMb: 4096 }),
    );
    expect(reason).toBe('too-complex');
  });

  it('ends a bomb when the process grows past the memory limit', async () => {
    const reason = await reasonOf(
      extractPdfText(await makeCompressionBombPdf(200), { timeoutMs: 120_000, heapMb: 4096, memoryMb: 32 }),
    );
    expect(reason).toBe('too-complex');
  });
});
