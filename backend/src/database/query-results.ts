/**
 * TypeORM answers a raw UPDATE or DELETE on PostgreSQL (and PGlite) as `[rows, affected count]`,
 * and every other statement as the rows alone. Repositories read either through these two.
 */
function isUpdateAnswer(result: unknown): result is [unknown[], number] {
  return Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number';
}

/** The rows of a raw query, `… RETURNING` of an UPDATE or DELETE included. */
export function returnedRows<T>(result: unknown): T[] {
  return (isUpdateAnswer(result) ? result[0] : result) as T[];
}

/** How many rows a raw UPDATE or DELETE changed (0 for any other answer). */
export function affectedCount(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}
