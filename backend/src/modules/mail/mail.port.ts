/** One e-mail, with both parts: every mail has a plain-text and an HTML body. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link the mail carries; the outbox adapter logs it so a local user can follow it. */
  link?: string;
}

/** Where mail leaves the product: SMTP in production, the local outbox folder on a fresh machine. */
export interface MailPort {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  close?(): void;
}

export const MAIL_PORT = Symbol('MAIL_PORT');
