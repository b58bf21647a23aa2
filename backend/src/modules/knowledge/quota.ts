/** A byte count as the owner reads it in sentences: "50 MB", "0.5 MB". */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/** Why an upload or a written answer was refused: the bot's sources are full. */
export function quotaExceededSentence(limit: number): string {
  return `This bot's sources can hold ${formatMegabytes(limit)} in all. Delete a source or add a smaller one.`;
}

/** A crawl that stopped adding pages because the bot's sources were full. */
export function crawlQuotaSentence(limit: number, pages: number): string {
  const read = pages === 1 ? '1 page was' : `${pages} pages were`;
  return `This bot's sources can hold ${formatMegabytes(limit)} in all: ${read} read before that limit was reached. Delete a source to make room for more.`;
}

/** Why an upload or a written answer was refused: all the account's bots' sources together are full. */
export function accountQuotaExceededSentence(limit: number): string {
  return `Your account's sources can hold ${formatMegabytes(limit)} in all, across every bot. Delete a source or add a smaller one.`;
}

/** A crawl that stopped adding pages because the account's sources were full. */
export function crawlAccountQuotaSentence(limit: number, pages: number): string {
  const read = pages === 1 ? '1 page was' : `${pages} pages were`;
  return `Your account's sources can hold ${formatMegabytes(limit)} in all, across every bot: ${read} read before that limit was reached. Delete a source to make room for more.`;
}
