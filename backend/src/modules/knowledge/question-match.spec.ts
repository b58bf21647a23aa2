import {
  correctionName,
  isSameQuestion,
  lexemeSimilarity,
  normaliseQuestion,
  questionSimilarity,
  SAME_QUESTION_SIMILARITY,
} from './question-match.js';

// Lexemes as PostgreSQL's to_tsvector('english', ...) gives them for these questions.
const HOURS = { normalised: normaliseQuestion('What are your opening hours?'), lexemes: ['hour', 'open'] };

describe('the same question', () => {
  it('normalises case, punctuation, spaces and the trailing question mark', () => {
    expect(normaliseQuestion('  What are your   OPENING hours??  ')).toBe('what are your opening hours');
    expect(normaliseQuestion("What's the price—in €?")).toBe('what s the price in');
    expect(normaliseQuestion('Ｗｈｏ are you?')).toBe('who are you');
    expect(normaliseQuestion('?!')).toBe('');
  });

  it('is a close variant at a Jaccard similarity of lexemes of 1/2 or more', () => {
    expect(SAME_QUESTION_SIMILARITY).toBe(0.5);
    expect(isSameQuestion(HOURS, { normalised: 'what are the opening hours', lexemes: ['hour', 'open'] })).toBe(true);
    expect(isSameQuestion(HOURS, { normalised: 'when do you open', lexemes: ['open'] })).toBe(true);
    expect(isSameQuestion(HOURS, { normalised: 'what are your delivery hours', lexemes: ['deliveri', 'hour'] })).toBe(
      false,
    );
    expect(isSameQuestion(HOURS, { normalised: 'opening times', lexemes: ['open', 'time'] })).toBe(false);
    expect(isSameQuestion(HOURS, { normalised: 'do you ship to canada', lexemes: ['canada', 'ship'] })).toBe(false);
    expect(isSameQuestion(HOURS, { normalised: 'opening hours on sunday', lexemes: ['hour', 'open', 'sunday'] })).toBe(
      true,
    );
  });

  it('is another question when each has a word the other lacks, however many they share', () => {
    const parking = { normalised: 'is parking free for guests', lexemes: ['free', 'guest', 'park'] };
    expect(
      isSameQuestion(parking, { normalised: 'do guests get free coffee', lexemes: ['coffe', 'free', 'guest'] }),
    ).toBe(false);
    expect(isSameQuestion(parking, { normalised: 'where do guests park', lexemes: ['guest', 'park'] })).toBe(true);
    expect(lexemeSimilarity(['a', 'b', 'c', 'd', 'e'], ['a', 'b', 'c', 'd', 'f'])).toBe(0);
  });

  it('matches questions without lexemes by their normalised text only', () => {
    const who = { normalised: 'who are you', lexemes: [] };
    expect(questionSimilarity(who, { normalised: 'who are you', lexemes: [] })).toBe(1);
    expect(questionSimilarity(who, { normalised: 'what are you', lexemes: [] })).toBe(0);
    expect(questionSimilarity({ normalised: '', lexemes: [] }, { normalised: '', lexemes: [] })).toBe(0);
  });

  it('counts each lexeme once', () => {
    expect(lexemeSimilarity(['open', 'open', 'hour'], ['open'])).toBe(0.5);
    expect(lexemeSimilarity([], ['open'])).toBe(0);
  });

  it("names a correction after its question, cut to a written answer's 200 characters", () => {
    expect(correctionName('  Is there\nparking? ')).toBe('Is there parking?');
    const long = 'why '.repeat(100);
    expect(correctionName(long)).toHaveLength(200);
    expect(correctionName(long).endsWith('…')).toBe(true);
  });
});
