/** The icon URL if it is an absolute http(s) URL or a path on the API origin; otherwise ''. */
export function iconUrl(value: unknown, apiOrigin: string): string {
  if (typeof value != 'string' || !value.trim()) return '';
  try {
    const u = new URL(value.trim(), apiOrigin);
    return /^https?:$/.test(u.protocol) ? u.href : '';
  } catch {
    return '';
  }
}
