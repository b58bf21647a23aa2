import { PDFDocument, StandardFonts } from 'pdf-lib';
import { DOCUMENT_EXTRACTION } from '../../../common/constants.js';
import { extractPdfText } from '../pdf-text.js';
import { documentExtractions } from './extraction-worker.js';
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
