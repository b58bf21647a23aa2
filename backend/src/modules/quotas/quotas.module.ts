import { Module } from '@nestjs/common';
import { DailyQuotasRepository } from './daily-quotas.repository.js';
import { DailyQuotasService } from './daily-quotas.service.js';

/**
 * Daily quotas kept in the database (docs/product.md#quotas): the chat module counts a bot's
 * leads, the knowledge module an account's embedded passages. Depends on nothing but the database.
 */
@Module({
  providers: [DailyQuotasRepository, DailyQuotasService],
  exports: [DailyQuotasService],
})
export class QuotasModule {}
