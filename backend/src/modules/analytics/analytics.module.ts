import { Module } from '@nestjs/common';
import { BotsModule } from '../bots/bots.module.js';
import { UsersModule } from '../users/users.module.js';
import { AnalyticsAdmission } from './analytics-admission.js';
import { AnalyticsController } from './analytics.controller.js';
import { AnalyticsRepository } from './analytics.repository.js';
import { AnalyticsService } from './analytics.service.js';

/**
 * The owner's analytics (docs/product.md#analytics): a read model over the conversation log, the
 * leads and the usage ledger. UsersModule for the billing gate, BotsModule for the owner's bot.
 */
@Module({
  imports: [UsersModule, BotsModule],
  controllers: [AnalyticsController],
  providers: [AnalyticsRepository, AnalyticsService, AnalyticsAdmission],
  exports: [AnalyticsService],
})
export class AnalyticsModule {}
