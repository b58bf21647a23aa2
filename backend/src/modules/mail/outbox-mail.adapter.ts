import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import type { MailMessage, MailPort } from './mail.port.js';

/**
 * Embedded default (no SMTP_URL): each mail is built as a real RFC 822 message by nodemailer and
 * written to DATA_DIR/outbox/<time>-<order>-<random>.eml, and its link is logged, so someone trying the
 * product on a fresh machine can still verify an account or reset a password. A production
 * start (a demo with ALLOW_DEMO_ADAPTERS) never logs the link: it carries a sign-in or reset
 * token, and logs are read by more people and programs than the mailbox it was meant for.
 * Names sort in the order mails were handed over (time and a counter taken before the message is
 * built), even when several are built at once and finish in another order or in the same millisecond.
 */
export class OutboxMailAdapter implements MailPort {
  readonly kind = 'outbox' as const;
  private readonly logger = new Logger('Mail');
  /** nodemailer's message builder, made with the first mail (see createMailPort). */
  private builder: Promise<Transporter> | undefined;
  private handedOver = 0;

  constructor(
    readonly outboxDir: string,
    private readonly from: string,
    private readonly logLinks = true,
  ) {}

  async send({ to, subject, text, html, link }: MailMessage): Promise<void> {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const order = String((this.handedOver += 1)).padStart(9, '0');
    const file = path.join(this.outboxDir, `${stamp}-${order}-${crypto.randomBytes(4).toString('hex')}.eml`);
    this.builder ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    );
    const info = (await (await this.builder).sendMail({ from: this.from, to, subject, text, html })) as {
      message: Buffer;
    };
    await fs.mkdir(this.outboxDir, { recursive: true });
    await fs.writeFile(file, info.message, { mode: 0o600 });
    const shown = link && this.logLinks ? `; link: ${link}` : '';
    this.logger.log(`Mail "${subject}" to ${to} written to ${file}${shown}`);
  }
}
