/**
 * Text for PostgreSQL's `websearch_to_tsquery`. Each `-` in front of a word is a NOT, and the
 * parser stacks consecutive NOTs on a stack of 32: `-` 33 times in a row (or `- - -`, `-&-&-&`)
 * fails the whole query with "tsquery stack too small", a 500 for a search box. A run of eight or
 * more dashes with only separators between them (no letter, digit or quote) is replaced by what it
 * means: one `-` when their number is odd (NOT), none when even (NOT NOT is the word itself).
 * Shorter runs are left to PostgreSQL, so a query a person types keeps its exact meaning.
 */
const NEGATION_RUN = /-(?:[^\p{L}\p{M}\p{N}"-]*-){7,}/gu;

export function boundedWebSearch(text: string): string {
  return text.replace(NEGATION_RUN, (run) => {
    let dashes = 0;
    for (const char of run) if (char === '-') dashes += 1;
    return dashes % 2 === 1 ? ' -' : ' ';
  });
}
