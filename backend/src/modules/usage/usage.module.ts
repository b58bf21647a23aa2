import { Module } from '@nestjs/common';
import { UsageLedgerRepository } from './usage-ledger.repository.js';
import { UsageLedgerService } from './usage-ledger.service.js';
import { UsersModule } from '../users/users.module.js';
import { LogsExportService } from './logs-export.service.js';
import { UsageClock } from './usage-clock.js';
import { UsageController } from './usage.controller.js';
import { UsageRepository } from './usage.repository.js';
import { UsageService } from './usage.service.js';

/**
 * The usage ledger. `UsageLedgerService` is the write path (chat calls `chargeAnsweredMessage`
 * inside its transaction and `getOwnerBillingState` before answering).
 * The read side (UsageController/UsageService/UsageRepository/LogsExportService) answers the
 * owner's usage figures, histories and logs download.
 */
@Module({
  imports: [UsersModule],
  controllers: [UsageController],
  providers: [UsageLedgerRepository, UsageLedgerService, UsageRepository, UsageService, LogsExportService, UsageClock],
  exports: [UsageLedgerService],
})
export class UsageModule {}
