import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ChatThrottlerStorage } from '../../common/rate-limit/chat-throttler-storage.js';
import { LeadsModule } from '../leads/leads.module.js';
import { MailModule } from '../mail/mail.module.js';
import { MailConsentModule } from '../mail-consent/mail-consent.module.js';
import { UsersModule } from '../users/users.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { ConversationOutcomesRepository } from './conversation-outcomes.repository.js';
import { ConversationOutcomesService } from './conversation-outcomes.service.js';
import { ConversationRetentionRepository } from './conversation-retention.repository.js';
import { ConversationRetentionService } from './conversation-retention.service.js';
import { ConversationsDataModule } from './conversations-data.module.js';
import { ConversationsController } from './conversations.controller.js';
import { ConversationsExportService } from './conversations-export.service.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsScheduler } from './conversations.scheduler.js';
import { ConversationsService } from './conversations.service.js';
import { OnboardingController } from './onboarding.controller.js';
import { OnboardingRepository } from './onboarding.repository.js';
import { OWNER_REPLY_THROTTLER_STORAGE, OwnerRepliesService } from './owner-replies.service.js';

/**
 * The conversation log's owner (conversations and messages; ConversationsDataModule holds the
 * tables and the interface the chat engine records turns through) and the owner's inbox: reads,
 * search and export, the owner's replies (announced through WebhooksModule as conversation.handoff),
 * deletion, the daily retention job, the outcome job (LeadsModule: a lead outlives its conversation). UsersModule
 * for the billing gate and the owner's display name.
 */
@Module({
  imports: [UsersModule, ConversationsDataModule, LeadsModule, WebhooksModule, MailModule, MailConsentModule],
  controllers: [ConversationsController, OnboardingController],
  providers: [
    ConversationsRepository,
    ConversationsService,
    ConversationsExportService,
    OwnerRepliesService,
    OnboardingRepository,
    ConversationRetentionRepository,
    ConversationRetentionService,
    ConversationsScheduler,
    ConversationOutcomesRepository,
    ConversationOutcomesService,
    {
      provide: OWNER_REPLY_THROTTLER_STORAGE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ChatThrottlerStorage.fromUrl(config.redisUrl),
    },
  ],
})
export class ConversationsModule {}
