import path from 'node:path';
import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { MAIL_PORT, type MailPort } from './mail.port.js';
import { MailService } from './mail.service.js';
import { OutboxMailAdapter } from './outbox-mail.adapter.js';
import { SmtpMailAdapter } from './smtp-mail.adapter.js';

/**
 * SMTP when SMTP_URL is set; otherwise .eml files in DATA_DIR/outbox (the embedded default), whose
 * links are logged except in production.
 */
export function createMailPort(config: AppConfig): MailPort {
  if (config.mail.smtpUrl) return new SmtpMailAdapter(config.mail.smtpUrl, config.mail.from);
  return new OutboxMailAdapter(path.join(config.dataDir, 'outbox'), config.mail.from, config.env !== 'production');
}

@Module({
  providers: [{ provide: MAIL_PORT, useFactory: createMailPort, inject: [APP_CONFIG] }, MailService],
  exports: [MailService],
})
export class MailModule {}
