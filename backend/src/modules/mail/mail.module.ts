import path from 'node:path';
import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { MAIL_PORT, type MailPort } from './mail.port.js';
import { MailService } from './mail.service.js';
import { OutboxMailAdapter } from './outbox-mail.adapter.js';

/**
 * SMTP when SMTP_URL is set; otherwise .eml files in DATA_DIR/outbox (the embedded default), whose
 * links are logged except in production. nodemailer is imported at start only for SMTP (its
 * adapter's module imports it); the outbox imports it with its first mail (about 60 ms of a start,
 * docs/decisions/0016-chat-path-cost.md, "Start-up: the database on its own thread").
 */
export async function createMailPort(config: AppConfig): Promise<MailPort> {
  if (config.mail.smtpUrl) {
    const { SmtpMailAdapter } = await import('./smtp-mail.adapter.js');
    return new SmtpMailAdapter(config.mail.smtpUrl, config.mail.from);
  }
  return new OutboxMailAdapter(path.join(config.dataDir, 'outbox'), config.mail.from, config.env !== 'production');
}

@Module({
  providers: [{ provide: MAIL_PORT, useFactory: createMailPort, inject: [APP_CONFIG] }, MailService],
  exports: [MailService],
})
export class MailModule {}
