import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module.js';
import { CorrectionsModule } from '../corrections/corrections.module.js';
import { MailModule } from '../mail/mail.module.js';
import { MonthlyReportRepository } from './monthly-report.repository.js';
import { MonthlyReportScheduler } from './monthly-report.scheduler.js';
import { MonthlyReportService } from './monthly-report.service.js';

/** The monthly report mail (docs/product.md#monthly-report): Insights' figures and the unanswered questions, once a period. */
@Module({
  imports: [AnalyticsModule, CorrectionsModule, MailModule],
  providers: [MonthlyReportRepository, MonthlyReportService, MonthlyReportScheduler],
  exports: [MonthlyReportService],
})
export class MonthlyReportModule {}
