/**
 * Whether `timeZone` is an IANA name this runtime (and so PostgreSQL's list, for real ones) knows:
 * the analytics' `timeZone` and the owner's Settings (users/) both check it, so it lives here.
 */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}
