/** Where a newest-first keyset page ended: its last row's exact time (microseconds) and id. */
export interface KeysetCursor {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
  at: string;
  id: number;
}

const MAX_ID = 2_147_483_647;
const CURSOR_TEXT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)~([1-9]\d{0,9})$/;

/**
 * A page cursor of a newest-first keyset list (the inbox's conversations, the leads): base64url
 * of `<time with microseconds, UTC>~<id>` of the last row of a page. Opaque to clients; the
 * server only accepts what it could have issued.
 */
export function encodeCursor(cursor: KeysetCursor): string {
  return Buffer.from(`${cursor.at}~${cursor.id}`, 'utf8').toString('base64url');
}

/** The cursor, or null when the text is not one this server issued (tampered, cut, another format). */
export function decodeCursor(text: string): KeysetCursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  const decoded = Buffer.from(text, 'base64url');
  // Base64 tolerates stray bits; only the exact encoding of the decoded bytes is accepted.
  if (decoded.toString('base64url') !== text) return null;
  const match = CURSOR_TEXT.exec(decoded.toString('utf8'));
  if (!match) return null;
  const [, at, idText] = match;
  const id = Number(idText);
  if (id > MAX_ID) return null;
  // A real instant (no 2026-02-30 or 25:00): the milliseconds part must read back unchanged.
  const instant = new Date(at.slice(0, 23) + 'Z');
  if (Number.isNaN(instant.getTime()) || instant.toISOString() !== at.slice(0, 23) + 'Z') return null;
  // JavaScript has a year 0, PostgreSQL has none ("date/time field value out of range": a 500).
  if (instant.getUTCFullYear() < 1) return null;
  return { at, id };
}
