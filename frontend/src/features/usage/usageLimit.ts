/** Whole dollars only: the field keeps digits and drops everything else (docs/product.md#field-rules). */
export const USAGE_LIMIT_MAX_DIGITS = 7;

export function usageLimitInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, USAGE_LIMIT_MAX_DIGITS);
}

/** What is saved: the whole-dollar number, 0 when the field is empty (0 means no limit). */
export function usageLimitValue(input: string): number {
  const digits = usageLimitInput(input);
  return digits === '' ? 0 : Number(digits);
}
