/**
 * What POST /api/chat accepts: a longer prompt or history is refused with 400. The widget sends
 * the most recent messages that fit, so a long conversation never gets stuck.
 */
export const CHAT_REQUEST_LIMITS = {
  promptMaxChars: 2000,
  historyMaxItems: 50,
  historyItemMaxChars: 4000,
  historyTotalMaxChars: 50_000,
} as const;
