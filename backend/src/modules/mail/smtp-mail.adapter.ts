import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, MailPort } from './mail.port.js';

/** Production adapter: sends through the SMTP server of SMTP_URL (smtp:// or smtps://, credentials in the URL). */
export class SmtpMailAdapter implements MailPort {
  readonly kind = 'smtp' as const;
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send({ to, subject, text, html }: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, to, subject, text, html });
  }

  close(): void {
    this.transport.close();
  }
}
