// How text files become plain sentences to index: CSV rows, Markdown. Plain JavaScript (typed
// by text-formats.d.mts) because the file-text worker (file-text.worker.mjs) runs it in a
// child process, which has no TypeScript loader; the build copies it into dist (allowJs).

/**
 * Comma-separated rows (RFC 4180 quoting: quoted fields may hold commas, quotes as "" and line
 * breaks), at most `maxRows`.
 */
export function parseCsv(text, maxRows = 200_000) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      field = '';
      if (row.some((value) => value.trim() !== '')) rows.push(row);
      row = [];
      if (rows.length >= maxRows) return rows;
    } else {
      field += c;
    }
  }
  row.push(field);
  if (row.some((value) => value.trim() !== '')) rows.push(row);
  return rows;
}

/**
 * A table as sentences a search can match and a model can quote: one line per data row, each
 * value named by its column ("Dish: Soup; Price: 4.50."). A first row is taken as the header.
 */
export function csvAsText(text) {
  const rows = parseCsv(text);
  if (rows.length === 0) return '';
  const [header, ...data] = rows;
  if (data.length === 0) return `${header.join(', ')}.`;
  return data
    .map((row) =>
      row
        .map((value, index) => {
          const name = header[index]?.trim();
          return name ? `${name}: ${value.trim()}` : value.trim();
        })
        .filter((part) => part !== '' && !part.endsWith(': '))
        .join('; '),
    )
    .map((line) => `${line}.`)
    .join('\n');
}

/** Markdown as plain sentences: markup characters that only format are dropped, link texts kept. */
export function markdownAsText(markdown) {
  return markdown
    .replace(/```[^\n]*\n/g, '\n')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^[ \t]{0,3}(#{1,6}|>|[-*+]|\d+[.)])[ \t]+/gm, '')
    .replace(/(\*\*|__|\*|_|`)(?=\S)([^\n]*?\S)\1/g, '$2');
}
