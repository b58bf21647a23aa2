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

/**
 * POST /api/chat's optional `visitor`: who the host page says the visitor is (`Botsmith.identify`).
 * Shown in the owner's inbox only, never used to send mail: anyone on the page can set it.
 */
export interface ChatVisitor {
  name?: string;
  email?: string;
}
/** The longest visitor name and e-mail address the server accepts (after trimming). */
export const CHAT_VISITOR_LIMITS = { nameMaxChars: 100, emailMaxChars: 254 } as const;
