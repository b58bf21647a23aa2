import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ChatDataModule } from '../chat/chat-data.module.js';
import { ChatThrottlerStorage } from '../chat/rate-limit/chat-throttler-storage.js';
import { MailModule } from '../mail/mail.module.js';
import { MailConsentModule } from '../mail-consent/mail-consent.module.js';
import { UsersModule } from '../users/users.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { ConversationsController } from './conversations.controller.js';
import { ConversationsExportService } from './conversations-export.service.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsService } from './conversations.service.js';
import { OWNER_REPLY_THROTTLER_STORAGE, OwnerRepliesService } from './owner-replies.service.js';

/**
 * The owner's conversations inbox: the read side of the chat log (chat/ writes it). Reads the
 * conversations and messages tables through its own repository; UsersModule for the billing gate
 * and the owner's display name. The owner's replies are written through ChatDataModule's repository
 * and announced through WebhooksModule (conversation.handoff).
 */
@Module({
  imports: [UsersModule, ChatDataModule, WebhooksModule, MailModule, MailConsentModule],
  controllers: [ConversationsController],
  providers: [
    ConversationsRepository,
    ConversationsService,
    ConversationsExportService,
    OwnerRepliesService,
    {
      provide: OWNER_REPLY_THROTTLER_STORAGE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ChatThrottlerStorage.fromUrl(config.redisUrl),
    },
  ],
})
export class ConversationsModule {}
