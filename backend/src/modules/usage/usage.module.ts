import { Module } from '@nestjs/common';
import { UsageLedgerRepository } from './usage-ledger.repository.js';
import { UsageLedgerService } from './usage-ledger.service.js';
import { UsersModule } from '../users/users.module.js';
import { MailModule } from '../mail/mail.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { BudgetAlertsRepository } from './budget-alerts.repository.js';
import { BudgetAlertsService } from './budget-alerts.service.js';
import { LogsExportService } from './logs-export.service.js';
import { UsageClock } from './usage-clock.js';
import { UsageController } from './usage.controller.js';
import { UsageRepository } from './usage.repository.js';
import { UsageService } from './usage.service.js';

/**
 * The usage ledger. `UsageLedgerService` is the write path (chat calls `chargeAnsweredMessage`
 * inside its transaction and `getOwnerBillingState` before answering; `BudgetAlertsService`
 * after the charge has committed).
 * The read side (UsageController/UsageService/UsageRepository/LogsExportService) answers the
 * owner's usage figures, histories and logs download.
 */
@Module({
  imports: [UsersModule, MailModule, WebhooksModule],
  controllers: [UsageController],
  providers: [
    UsageLedgerRepository,
    UsageLedgerService,
    UsageRepository,
    UsageService,
    LogsExportService,
    UsageClock,
    BudgetAlertsRepository,
    BudgetAlertsService,
  ],
  exports: [UsageLedgerService, BudgetAlertsService],
})
export class UsageModule {}
