import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { TransactionRunner } from '../../database/transaction.js';
import { QuotasModule } from '../quotas/quotas.module.js';
import { UsageModule } from '../usage/usage.module.js';
import { UsersModule } from '../users/users.module.js';
import { BillingAccountRepository } from './billing-account.repository.js';
import { BillingCycleRunsRepository } from './billing-cycle-runs.repository.js';
import { BillingCycleService } from './billing-cycle.service.js';
import { BillingEventsService } from './billing-events.service.js';
import { BillingWebhookController } from './billing-webhook.controller.js';
import { BillingController } from './billing.controller.js';
import { BillingScheduler } from './billing.scheduler.js';
import { BillingService } from './billing.service.js';
import { MeterReporter } from './meter-reporter.service.js';
import { PAYMENTS, type PaymentsPort } from './payments.port.js';
import { TestModePaymentsAdapter } from './test-mode/test-mode-payments.adapter.js';
import { TestModeRepository } from './test-mode/test-mode.repository.js';
import { WebhookEventsRepository } from './webhook-events.repository.js';

/**
 * Stripe when STRIPE_SECRET_KEY is set, else the embedded test mode. Nothing else differs. The
 * Stripe adapter's module (and the SDK) is imported only then, to keep it out of the default start
 * (docs/decisions/0016-chat-path-cost.md, "Start-up").
 */
export async function paymentsFactory(
  config: AppConfig,
  transactions: TransactionRunner,
  store: TestModeRepository,
): Promise<PaymentsPort> {
  if (config.stripe) {
    const { StripePaymentsAdapter } = await import('./stripe-payments.adapter.js');
    return new StripePaymentsAdapter(config.stripe);
  }
  return new TestModePaymentsAdapter(transactions, store, config.publicUrl, 'botsmith_messages');
}

@Module({
  imports: [ScheduleModule.forRoot(), UsersModule, UsageModule, QuotasModule],
  controllers: [BillingController, BillingWebhookController],
  providers: [
    { provide: PAYMENTS, useFactory: paymentsFactory, inject: [APP_CONFIG, TransactionRunner, TestModeRepository] },
    TestModeRepository,
    BillingAccountRepository,
    BillingCycleRunsRepository,
    WebhookEventsRepository,
    BillingService,
    BillingEventsService,
    MeterReporter,
    BillingCycleService,
    BillingScheduler,
  ],
  exports: [BillingCycleService, MeterReporter, PAYMENTS],
})
export class BillingModule {}
