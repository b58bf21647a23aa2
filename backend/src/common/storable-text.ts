/**
 * Text PostgreSQL cannot store as sent: U+0000 is refused in `text` and `jsonb` (the insert fails),
 * and a lone UTF-16 surrogate has no UTF-8 form (the driver would silently store U+FFFD instead).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

export type TextProblem = 'NUL' | 'SURROGATE';

export function textProblem(text: string): TextProblem | null {
  if (text.includes('\u0000')) return 'NUL';
  if (LONE_SURROGATE.test(text)) return 'SURROGATE';
  return null;
}

/**
 * The first string in `value` (walked iteratively, objects and arrays) that cannot be stored,
 * with its field path (`chatHistory.0.content`), or null.
 */
export function findUnstorableText(value: unknown): { field: string; problem: TextProblem } | null {
  const pending: Array<{ value: unknown; field: string }> = [{ value, field: '' }];
  while (pending.length > 0) {
    const { value: current, field } = pending.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) return { field, problem };
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        pending.push({ value: child, field: field ? `${field}.${key}` : key });
      }
    }
  }
  return null;
}

/** The sentence for a field holding unstorable text. */
export function unstorableTextMessage(field: string, problem: TextProblem): string {
  const name = field ? `The field ${field}` : 'The request';
  return problem === 'NUL'
    ? `${name} contains a NUL character (\\u0000), which cannot be stored. Remove it and try again.`
    : `${name} contains broken Unicode (an unpaired surrogate), which cannot be stored. Remove it and try again.`;
}

/**
 * For free text typed by a visitor, where an error helps nobody: NUL characters removed and lone
 * surrogates replaced by U+FFFD (what a UTF-8 encoder makes of them anyway).
 */
export function toStorableText(text: string): string {
  const withoutNul = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
  return LONE_SURROGATE.test(withoutNul) ? withoutNul.replace(LONE_SURROGATES, '\uFFFD') : withoutNul;
}
