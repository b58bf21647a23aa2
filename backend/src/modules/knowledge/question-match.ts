import { SOURCE_TEXT_LIMITS } from '../../common/constants.js';
import { cleanText } from './chunking.js';

/**
 * When two visitor questions are "the same question" (docs/product.md#corrections): an owner's
 * correction answers every close variant of its question, and the unanswered-questions report
 * groups variants together. A question is compared by two things:
 * - its normalised text (lowercase, punctuation and spaces collapsed, so no trailing question
 *   mark): "What are your opening hours?" and "what are your opening hours" are one question;
 * - its lexemes, the words PostgreSQL's English full-text search keeps (`to_tsvector('english',
 *   ...)`: stop words dropped, words stemmed). A close variant adds or drops words but changes
 *   none: the lexemes of one question are all among the other's, and they share at least half
 *   of all their lexemes (Jaccard similarity >= 1/2). "What are the opening hours" ({open, hour})
 *   and "When do you open?" ({open}: 1/2) are variants of "What are your opening hours?" ({open,
 *   hour}); "What are your delivery hours?" ({deliveri, hour}) and "Opening times?" ({open,
 *   time}) are other questions, and so is "Do guests get free coffee?" ({guest, free, coffe}) of
 *   "Is parking free for guests?" ({park, free, guest}) though they share two thirds of their
 *   words. Questions without lexemes (only stop words: "Who are you?") match by normalised text.
 */

/** Jaccard similarity at or above which two questions are the same (see the examples above). */
export const SAME_QUESTION_SIMILARITY = 0.5;

/** A question as compared: its normalised text and its full-text lexemes (from PostgreSQL). */
export interface ComparableQuestion {
  normalised: string;
  lexemes: readonly string[];
}

/** Lowercase, letters and digits only (other characters become spaces), spaces collapsed, trimmed. */
export function normaliseQuestion(text: string): string {
  return String(text ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Shared lexemes over all lexemes of the two questions when one's lexemes are all among the
 * other's; 0 when a lexeme of each is missing from the other, or either has none.
 */
export function lexemeSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const left = new Set(a);
  const right = new Set(b);
  let shared = 0;
  for (const lexeme of left) if (right.has(lexeme)) shared += 1;
  if (shared < Math.min(left.size, right.size)) return 0;
  return shared / (left.size + right.size - shared);
}

/** How alike two questions are: 1 for the same normalised text, else their lexeme similarity. */
export function questionSimilarity(a: ComparableQuestion, b: ComparableQuestion): number {
  if (a.normalised !== '' && a.normalised === b.normalised) return 1;
  return lexemeSimilarity(a.lexemes, b.lexemes);
}

export function isSameQuestion(a: ComparableQuestion, b: ComparableQuestion): boolean {
  return questionSimilarity(a, b) >= SAME_QUESTION_SIMILARITY;
}

/** A correction's name (its source's name, and its citation's): its question, cut like a written answer's name. */
export function correctionName(question: string): string {
  const text = cleanText(question);
  const max = SOURCE_TEXT_LIMITS.nameMaxChars;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
