import JSZip from 'jszip';
import { DOCX_SENTENCES, docxRefusal, extractFileText, UnreadableFileError, zipEntries } from './file-text.js';

const GENEROUS = { timeoutMs: 60_000, heapMb: 256, memoryMb: 4096 };

async function zipOf(files: Record<string, string>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

async function refusal(promise: Promise<unknown>): Promise<UnreadableFileError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UnreadableFileError) return error;
    throw error;
  }
  throw new Error('the extraction did not fail');
}

describe('file text in a child process', () => {
  it('reads Markdown, CSV and text files', async () => {
    expect(await extractFileText('md', Buffer.from('# Title\n\n- **Bold** [link](https://x.test)'), GENEROUS)).toBe(
      'Title\n\nBold link',
    );
    expect(await extractFileText('csv', Buffer.from('Dish,Price\nSoup,4.50\n'), GENEROUS)).toBe(
      'Dish: Soup; Price: 4.50.',
    );
    expect(await extractFileText('txt', Buffer.from('\ufeffPlain words.'), GENEROUS)).toBe('Plain words.');
  });

  it("reads an HTML file's main text by the crawler's rules", async () => {
    const page = Buffer.from(
      '<!doctype html><html><head><title>Menu</title><script>var hidden = 1;</script></head><body>' +
        '<nav>Home</nav><header>Logo</header><main><h1>Soups</h1><p>Lentil&nbsp;<b>soup</b></p></main>' +
        '<footer>(c) Diner</footer></body></html>',
    );
    expect(await extractFileText('html', page, GENEROUS)).toBe('Soups\nLentil soup');
  });

  it('ends a hostile HTML file at its time limit while the process goes on answering', async () => {
    // Unclosed nested elements: the HTML parser's time grows with their square (100,000 take
    // minutes), and on the main thread it would hold every other request that long.
    const hostile = Buffer.from('<div>'.repeat(100_000));
    let settled = false;
    const hostileRead = refusal(extractFileText('html', hostile, { ...GENEROUS, timeoutMs: 4_000 })).finally(() => {
      settled = true;
    });

    // Meanwhile the process answers: timers fire and another file is read to the end.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = await extractFileText('html', Buffer.from('<main><p>Still here.</p></main>'), GENEROUS);
    expect(other).toBe('Still here.');
    expect(settled).toBe(false);

    expect(await hostileRead).toMatchObject({
      reason: 'too-complex',
      message: 'This file needs too much time or memory to read. Split it into smaller files.',
    });
  });

  it('fails a damaged Word document with a sentence', async () => {
    const error = await refusal(extractFileText('docx', Buffer.from('PK\x03\x04 not a zip'), GENEROUS));
    expect(error).toMatchObject({ reason: 'invalid', message: DOCX_SENTENCES.INVALID });
  });

  it('ends a conversion that takes longer than its time limit', async () => {
    // Emphasis openers that nothing can close (a closing marker must follow a non-space): each
    // one scans to the end of the line, so this line takes minutes, far past any machine's jitter.
    const slow = Buffer.from(' *a'.repeat(200_000));
    const error = await refusal(extractFileText('md', slow, { ...GENEROUS, timeoutMs: 200 }));
    expect(error).toMatchObject({
      reason: 'too-complex',
      message: 'This file needs too much time or memory to read. Split it into smaller files.',
    });
  });
});

describe('docxRefusal', () => {
  it("reads the parts' sizes from the zip's central directory", async () => {
    const zip = await zipOf({ 'word/document.xml': 'x'.repeat(5000), 'word/media/a.png': 'y'.repeat(9000) });
    expect(zipEntries(zip)?.filter((entry) => !entry.name.endsWith('/'))).toEqual([
      { name: 'word/document.xml', uncompressedSize: 5000 },
      { name: 'word/media/a.png', uncompressedSize: 9000 },
    ]);
    expect(zipEntries(Buffer.from('not a zip at all, just some bytes'))).toBeNull();
  });

  it('refuses a document whose XML would inflate past the limit, not one whose media is large', async () => {
    const zip = await zipOf({ 'word/document.xml': 'x'.repeat(5000), 'word/media/a.png': 'y'.repeat(9000) });
    expect(docxRefusal(zip, 4999)).toBe(DOCX_SENTENCES.TOO_LARGE);
    expect(docxRefusal(zip, 5000)).toBeNull();
    expect(DOCX_SENTENCES.TOO_LARGE).toBe(
      'This Word document is too large to read: its text would take more than 50 MB once unpacked. Split it into smaller documents.',
    );
  });
});
