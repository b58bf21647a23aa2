import { ACTION_LIMITS } from '@botsmith/contract';

/**
 * JSON pointers (RFC 6901) into an action's answer, and the filter that keeps only the fields an
 * owner named (docs/product.md#actions): the rest of the answer never reaches the model.
 */

/** The pointer's reference tokens, unescaped; null when it is not a pointer. "" is the whole document. */
export function parsePointer(pointer: string): string[] | null {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  const tokens = pointer.slice(1).split('/');
  // "~" must be followed by 0 or 1 (RFC 6901 section 3).
  if (tokens.some((token) => /~(?![01])/.test(token))) return null;
  return tokens.map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value `pointer` names in `document`, or undefined when there is none. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);
  if (tokens === null) return undefined;
  let current: unknown = document;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      // Array indices are decimal without leading zeros; "-" (past the end) names nothing.
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (current !== null && typeof current === 'object') {
      if (!Object.prototype.hasOwnProperty.call(current, token)) return undefined;
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return current;
}

export interface FilteredAnswer {
  /** Pointer → value, for the pointers that named something. */
  answer: Record<string, unknown>;
  truncated: boolean;
}

const ELLIPSIS = '…';

/**
 * The fields `pointers` name, keyed by pointer, in at most `maxBytes` of JSON. When the fields are
 * larger, they are cut safely: the result is always valid JSON, fields keep their order, a long
 * string keeps its start (never half a character), and a value that cannot be cut (an object,
 * a list) becomes the start of its JSON text; fields that no longer fit are left out.
 */
export function filterAnswer(
  document: unknown,
  pointers: string[],
  maxBytes: number = ACTION_LIMITS.answerMaxBytes,
): FilteredAnswer {
  const answer: Record<string, unknown> = {};
  let truncated = false;
  for (const pointer of pointers) {
    const value = resolvePointer(document, pointer);
    if (value === undefined) continue;
    answer[pointer] = value;
    if (bytes(answer) <= maxBytes) continue;
    truncated = true;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    // The room left for this value's text: what the object weighs with an empty string in its place.
    answer[pointer] = '';
    const room = maxBytes - bytes(answer) - Buffer.byteLength(ELLIPSIS);
    if (room <= 0) {
      delete answer[pointer];
      break;
    }
    answer[pointer] = cutToJsonBytes(text, room) + ELLIPSIS;
    break;
  }
  return { answer, truncated };
}

function bytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** The longest start of `text` whose JSON string form (without quotes) fits in `room` bytes. */
function cutToJsonBytes(text: string, room: number): string {
  const characters = Array.from(text); // code points: never half a surrogate pair
  let low = 0;
  let high = characters.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const size = Buffer.byteLength(JSON.stringify(characters.slice(0, middle).join(''))) - 2;
    if (size <= room) low = middle;
    else high = middle - 1;
  }
  return characters.slice(0, low).join('');
}
