import { englishSynonyms, relatedWords } from './synonyms.js';

describe('English synonyms (WordNet)', () => {
  it('gives a word the one-word synonyms of its most frequent senses, without the word itself', async () => {
    const synonyms = await englishSynonyms();
    expect(synonyms).not.toBeNull();
    expect(synonyms!.of('cost')).toContain('price');
    expect(synonyms!.of('guarantee')).toContain('warranty');
    expect(synonyms!.of('refund')).toContain('repayment');
    expect(synonyms!.of('cost')).not.toContain('cost');
    // No multi-word lemma ("monetary_value") is a search word.
    for (const word of ['cost', 'guarantee', 'parcel', 'cheap']) {
      for (const synonym of synonyms!.of(word)) expect(synonym).toMatch(/^[a-z]+$/);
    }
  });

  it('finds an inflected word by its dictionary form', async () => {
    const synonyms = await englishSynonyms();
    expect(synonyms!.of('costs')).toEqual(synonyms!.of('cost'));
    expect(synonyms!.of('parcels')).toContain('package');
  });

  it('leaves unknown, too vague and non-words alone', async () => {
    const synonyms = await englishSynonyms();
    expect(synonyms!.of('qwzxv')).toEqual([]);
    expect(synonyms!.of('get')).toEqual([]); // more senses than SYNONYM_EXPANSION.maxSensesOfWord
    expect(synonyms!.of('a b')).toEqual([]);
    expect(synonyms!.of('x'.repeat(500))).toEqual([]);
  });

  it('expands the content words of a question, not its stop words, nor into words it already has', async () => {
    const synonyms = await englishSynonyms();
    const related = relatedWords('How much does it cost? Is the price fair?', synonyms);
    expect(related.map((r) => r.word)).toEqual(expect.arrayContaining(['much', 'cost']));
    expect(related.map((r) => r.word)).not.toContain('does');
    expect(related.find((r) => r.word === 'cost')?.synonyms).not.toContain('price');
    expect(relatedWords('How much does it cost?', null)).toEqual([]);
  });

  it('is read once: later calls share the same dictionary, and a lookup takes microseconds', async () => {
    const first = await englishSynonyms();
    expect(await englishSynonyms()).toBe(first);
    const started = performance.now();
    for (let i = 0; i < 2000; i += 1) first!.of(`word${i % 50}s`);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
