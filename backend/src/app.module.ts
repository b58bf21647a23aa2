import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ClientNetworkModule } from './common/client-network.module.js';
import { SessionGuard } from './common/session.guard.js';
import { HttpExceptionFilter } from './common/http-exception.filter.js';
import { createValidationPipe } from './common/validation.js';
import type { AppConfig } from './config/config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import type { DatabaseTarget } from './database/database.options.js';
import { ActionsModule } from './modules/actions/actions.module.js';
import { AnalyticsModule } from './modules/analytics/analytics.module.js';
import { MonthlyReportModule } from './modules/monthly-report/monthly-report.module.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { BotsModule } from './modules/bots/bots.module.js';
import { CategoriesModule } from './modules/categories/categories.module.js';
import { BillingModule } from './modules/billing/billing.module.js';
import { ChatModule } from './modules/chat/chat.module.js';
import { ConversationsModule } from './modules/conversations/conversations.module.js';
import { LeadsModule } from './modules/leads/leads.module.js';
import { MailConsentModule } from './modules/mail-consent/mail-consent.module.js';
import { CorrectionsModule } from './modules/corrections/corrections.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { UploadsModule } from './modules/uploads/uploads.module.js';
import { KnowledgeModule } from './modules/knowledge/knowledge.module.js';
import { UsageModule } from './modules/usage/usage.module.js';
import { UsersModule } from './modules/users/users.module.js';
import { WebhooksModule } from './modules/webhooks/webhooks.module.js';

export interface AppModuleOptions {
  config: AppConfig;
  database: DatabaseTarget;
}

@Module({})
export class AppModule {
  static forRoot({ config, database }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        ClientNetworkModule,
        DatabaseModule.forRoot(database),
        HealthModule,
        UsersModule,
        AuthModule,
        CategoriesModule,
        BotsModule,
        UploadsModule,
        KnowledgeModule,
        UsageModule,
        BillingModule,
        ChatModule,
        ConversationsModule,
        LeadsModule,
        MailConsentModule,
        CorrectionsModule,
        WebhooksModule,
        AnalyticsModule,
        MonthlyReportModule,
        ActionsModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_GUARD, useClass: SessionGuard },
      ],
    };
  }
}
