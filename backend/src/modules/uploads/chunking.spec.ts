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

  it('makes every passage but the last at least the minimum for ordinary prose', () => {
    fc.assert(
      fc.property(document, (pages) => {
        const chunks = chunkPages(pages, OPTIONS);
        for (const chunk of chunks.slice(0, -1)) expect(chunk.content.length).toBeGreaterThanOrEqual(OPTIONS.min);
      }),
    );
  });

  it('numbers passages in order and gives each the page its first sentence is on', () => {
    fc.assert(
      fc.property(document, (pages) => {
        const chunks = chunkPages(pages, OPTIONS);
        chunks.forEach((chunk, index) => {
          expect(chunk.ordinal).toBe(index);
          if (index > 0) expect(chunk.page).toBeGreaterThanOrEqual(chunks[index - 1].page);
          const firstSentence = chunk.content.split(/(?<=[.!?])\s/)[0];
          expect(cleanText(pages[chunk.page - 1])).toContain(firstSentence);
        });
      }),
    );
  });

  it('starts a new passage at a page break once the current one is long enough', () => {
    const pageOne = 'Alpha beta gamma delta. '.repeat(40); // ~960 characters
    const pageTwo = 'Refunds are accepted within thirty days.';
    const chunks = chunkPages([pageOne, pageTwo], OPTIONS);
    expect(chunks).toHaveLength(2);
    expect(chunks[1]).toEqual({ page: 2, ordinal: 1, content: pageTwo });
  });

  it('carries a short page over into the next passage, numbered from where it starts', () => {
    const chunks = chunkPages(['Short first page.', 'Second page text.', 'Third.'], OPTIONS);
    expect(chunks).toEqual([{ page: 1, ordinal: 0, content: 'Short first page. Second page text. Third.' }]);
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

  it('keeps real hyphens', () => {
    expect(cleanText('state-of-the-art e-mail')).toBe('state-of-the-art e-mail');
  });
});
