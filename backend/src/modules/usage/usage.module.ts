import { Module } from '@nestjs/common';
import { UsageLedgerRepository } from './usage-ledger.repository.js';
import { UsageLedgerService } from './usage-ledger.service.js';

/**
 * The usage ledger. `UsageLedgerService` is the write path (chat calls `chargeAnsweredMessage`
 * inside its transaction and `getOwnerBillingState` before answering).
 */
@Module({
  providers: [UsageLedgerRepository, UsageLedgerService],
  exports: [UsageLedgerService],
})
export class UsageModule {}
