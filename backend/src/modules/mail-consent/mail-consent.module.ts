import { Module, type OnModuleInit } from '@nestjs/common';
import { BotsModule } from '../bots/bots.module.js';
import { BotsService } from '../bots/bots.service.js';
import { MailModule } from '../mail/mail.module.js';
import { QuotasModule } from '../quotas/quotas.module.js';
import { UsersModule } from '../users/users.module.js';
import { LeadDigestWorker } from './lead-digest.worker.js';
import { LeadNoticesService } from './lead-notices.service.js';
import { MailConfirmationController, MailConsentController } from './mail-consent.controller.js';
import { MailConsentRepository } from './mail-consent.repository.js';
import { MailConsentService } from './mail-consent.service.js';
import { MailQuotaService } from './mail-quota.service.js';

/**
 * Mail only to people who asked for it (docs/product.md#mail-consent): confirmation of lead
 * addresses and visitors' addresses, the account's daily mail limit and lead digests. The chat
 * module asks it where a lead goes; the conversations module hands it each owner's reply.
 */
@Module({
  imports: [MailModule, UsersModule, BotsModule, QuotasModule],
  controllers: [MailConsentController, MailConfirmationController],
  providers: [MailConsentRepository, MailQuotaService, MailConsentService, LeadNoticesService, LeadDigestWorker],
  exports: [MailConsentService, LeadNoticesService, MailQuotaService],
})
export class MailConsentModule implements OnModuleInit {
  constructor(
    private readonly bots: BotsService,
    private readonly consent: MailConsentService,
  ) {}

  /** A bot's saved lead addresses are asked to confirm at once (BotsService knows nothing of mail). */
  onModuleInit(): void {
    this.bots.onLeadAddressesSaved((ownerId, emails) => this.consent.leadAddressesSaved(ownerId, emails));
  }
}
