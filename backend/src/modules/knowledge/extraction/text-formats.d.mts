/** Comma-separated rows (RFC 4180 quoting), at most `maxRows`. */
export function parseCsv(text: string, maxRows?: number): string[][];
/** A table as sentences, one line per data row, each value named by its column. */
export function csvAsText(text: string): string;
/** Markdown as plain sentences: markup characters that only format are dropped, link texts kept. */
export function markdownAsText(markdown: string): string;
