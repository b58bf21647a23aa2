/** True when `error` is PostgreSQL's unique_violation (23505), optionally on one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } } | null)?.driverError ?? error;
  const pg = driverError as { code?: string; constraint?: string } | null;
  return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint);
}

/**
 * True when `error` is PostgreSQL refusing a time zone name (22023, "time zone … not recognized"):
 * a name the runtime's Intl knows may be missing from the database's own zone list.
 */
export function isUnknownTimeZone(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string; message?: string } } | null)?.driverError ?? error;
  const pg = driverError as { code?: string; message?: string } | null;
  return pg?.code === '22023' && /time zone .* not recognized/.test(pg.message ?? '');
}

/**
 * True when `error` is PostgreSQL ending a transaction to break a deadlock (40P01): the whole
 * transaction rolled back, so work with no effect outside the database may simply run again.
 */
export function isDeadlock(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string } } | null)?.driverError ?? error;
  return (driverError as { code?: string } | null)?.code === '40P01';
}

/** True when `error` is PostgreSQL's undefined_table (42P01): the statement names a table that does not exist. */
export function isUndefinedTable(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string } } | null)?.driverError ?? error;
  return (driverError as { code?: string } | null)?.code === '42P01';
}
