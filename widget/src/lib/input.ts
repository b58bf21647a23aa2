/** The chat input's rules (docs/product.md#embedded-widget), kept apart from the component so they are testable. */

export interface KeyLike {
  key: string;
  shiftKey: boolean;
  isComposing?: boolean;
}

/** Only non-blank text is sent, and never while a reply is pending. */
export function canSend(text: string, pending: boolean): boolean {
  return !pending && text.trim() != '';
}

/**
 * What a key press in the message box does. Enter sends; Shift+Enter (and Enter confirming an
 * IME composition) keeps the textarea's default, a new line; Enter while a reply is pending is
 * swallowed ('hold'), neither sending nor adding a line the visitor did not ask for.
 */
export function enterAction(e: KeyLike, pending: boolean): 'send' | 'hold' | 'default' {
  if (e.key != 'Enter' || e.shiftKey || e.isComposing) return 'default';
  return pending ? 'hold' : 'send';
}

/** The message actually sent: without surrounding whitespace. */
export function outgoing(text: string): string {
  return text.trim();
}
