/** True when `error` is PostgreSQL's unique_violation (23505), optionally on one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } } | null)?.driverError ?? error;
  const pg = driverError as { code?: string; constraint?: string } | null;
  return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint);
}
