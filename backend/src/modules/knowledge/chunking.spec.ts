import fc from 'fast-check';
import { chunkPages, cleanText } from './chunking.js';

const OPTIONS = { min: 800, max: 1200 };

/** Words of 1-12 letters, sentences of 3-30 words: prose as PDFs hold it. */
const word = fc.stringMatching(/^[a-z]{1,12}$/);
const sentence = fc
  .array(word, { minLength: 3, maxLength: 30 })
  .map((words) => `${words.join(' ')}${['.', '!', '?'][words.length % 3]}`);
const page = fc.array(sentence, { minLength: 0, maxLength: 40 }).map((s) => s.join(' \n'));
const document = fc.array(page, { minLength: 1, maxLength: 8 });

describe('chunkPages', () => {
  it('keeps every passage within the maximum and loses or reorders nothing', () => {
    fc.assert(
      fc.property(document, (pages) => {
        const chunks = chunkPages(pages, OPTIONS);
        for (const chunk of chunks) expect(chunk.content.length).toBeLessThanOrEqual(OPTIONS.max);
        const expected = pages.map(cleanText).filter(Boolean).join(' ');
        expect(chunks.map((c) => c.content).join(' ')).toBe(expected);
      }),
    );
  });

  it('makes every passage but the last at least the minimum for ordinary prose, or a quarter of it at a page end', () => {
    fc.assert(
      fc.property(document, (pages) => {
        const chunks = chunkPages(pages, OPTIONS);
        chunks.slice(0, -1).forEach((chunk, index) => {
          const endsAtPageBreak = chunks[index + 1].page > chunk.page;
          expect(chunk.content.length).toBeGreaterThanOrEqual(endsAtPageBreak ? OPTIONS.min / 4 : OPTIONS.min);
        });
      }),
    );
  });

  it('numbers passages in order and gives each a page that holds some of its text', () => {
    fc.assert(
      fc.property(document, (pages) => {
        const chunks = chunkPages(pages, OPTIONS);
        chunks.forEach((chunk, index) => {
          expect(chunk.ordinal).toBe(index);
          if (index > 0) expect(chunk.page).toBeGreaterThanOrEqual(chunks[index - 1].page);
          const sentencesOfChunk = chunk.content.split(/(?<=[.!?])\s/);
          const page = cleanText(pages[chunk.page - 1]);
          expect(sentencesOfChunk.some((s) => page.includes(s))).toBe(true);
        });
      }),
    );
  });

  it('cites the page holding most of a passage when a short page end is carried over', () => {
    const pageOne = 'Alpha beta gamma delta. '.repeat(40); // ~960 characters: closes at the break
    const pageTwoEnd = 'The warranty covers two years.';
    const pageThree = 'Knives are sharpened free of charge for life by our workshop. '.repeat(8).trim();
    const chunks = chunkPages([pageOne, pageTwoEnd, pageThree], OPTIONS);
    expect(chunks.map((c) => c.page)).toEqual([1, 3]);
    expect(chunks[1].content.startsWith(pageTwoEnd)).toBe(true);
  });

  it("cites a page's last paragraph by its own page, not the next one", () => {
    const pageOne = `${'Alpha beta gamma delta. '.repeat(60)}Refunds are accepted within thirty days.`;
    const pageTwo = 'Knives are sharpened free of charge for life by our workshop. '.repeat(12).trim();
    const chunks = chunkPages([pageOne, pageTwo], OPTIONS);
    const refund = chunks.find((c) => c.content.includes('Refunds'));
    expect(refund?.page).toBe(1);
    expect(refund?.content).not.toContain('Knives');
  });

  it('starts a new passage at a page break once the current one is long enough', () => {
    const pageOne = 'Alpha beta gamma delta. '.repeat(40); // ~960 characters
    const pageTwo = 'Refunds are accepted within thirty days.';
    const chunks = chunkPages([pageOne, pageTwo], OPTIONS);
    expect(chunks).toHaveLength(2);
    expect(chunks[1]).toEqual({ page: 2, ordinal: 1, content: pageTwo });
  });

  it('carries a short page over into the next passage, numbered by the page holding most of it', () => {
    const chunks = chunkPages(['Short.', 'The second page is the longest.', 'Third.'], OPTIONS);
    expect(chunks).toEqual([{ page: 2, ordinal: 0, content: 'Short. The second page is the longest. Third.' }]);
    // On a tie the earlier page is cited.
    expect(chunkPages(['First page.', 'Other page.'], OPTIONS)[0].page).toBe(1);
  });

  it('cuts text without sentence breaks or spaces into pieces of at most the maximum, losing no character', () => {
    const blob = 'x'.repeat(5000);
    const chunks = chunkPages([blob], OPTIONS);
    expect(chunks.every((c) => c.content.length <= OPTIONS.max)).toBe(true);
    expect(chunks.map((c) => c.content).join('')).toBe(blob);
  });

  it('gives no passages for pages without text', () => {
    expect(chunkPages(['', '   \n\t ', ''], OPTIONS)).toEqual([]);
  });

  it('refuses nonsensical bounds', () => {
    expect(() => chunkPages(['x'], { min: 10, max: 5 })).toThrow(RangeError);
  });
});

describe('cleanText', () => {
  it('removes NUL and control characters that PostgreSQL text cannot hold, and collapses whitespace', () => {
    expect(cleanText('a\u0000b\u0007c \n\n d\t\te')).toBe('a b c d e');
  });

  it('joins a word hyphenated across a line break', () => {
    expect(cleanText('infor-\nmation about re-\n  funds')).toBe('information about refunds');
  });

  // The time a megabyte of line breaks takes is measured by bench/document-reading.mjs.
  it('joins across several line breaks and spaces, and cleans a megabyte of line breaks', () => {
    expect(cleanText('re- \n\n  funds')).toBe('refunds');
    expect(cleanText(`a-${'\n'.repeat(1_000_000)}X`)).toBe('a- X');
  });

  it('keeps real hyphens', () => {
    expect(cleanText('state-of-the-art e-mail')).toBe('state-of-the-art e-mail');
  });
});
