import { ActionsModule } from '../actions/actions.module.js';
import { Module } from '@nestjs/common';
import { ClientNetworks } from '../../common/client-network.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { sessionSecret } from '../../config/session-secret.js';
import { KnowledgeDataModule } from '../knowledge/knowledge-data.module.js';
import { KnowledgeSearchService } from '../knowledge/knowledge-search.service.js';
import { LeadsModule } from '../leads/leads.module.js';
import { MailModule } from '../mail/mail.module.js';
import { MailConsentModule } from '../mail-consent/mail-consent.module.js';
import { UsageModule } from '../usage/usage.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { AgentMessagesController } from './agent-messages.controller.js';
import { AgentMessagesService } from './agent-messages.service.js';
import { UsersModule } from '../users/users.module.js';
import { ChatController } from './chat.controller.js';
import { ConversationsDataModule } from '../conversations/conversations-data.module.js';
import { CHUNK_SEARCH, ChatService } from './chat.service.js';
import { ChatRepository } from './chat.repository.js';
import { ServableBots } from './servable-bots.js';
import { FeedbackService } from './feedback.service.js';
import { LeadCaptureService } from './lead-capture.service.js';
import { LLM, type LlmPort } from './llm/llm.port.js';
import { OfflineDemoLlmAdapter } from './llm/offline-demo-llm.adapter.js';
import { OpenAiLlmAdapter } from './llm/openai-llm.adapter.js';
import { CHAT_THROTTLER_STORAGE, ChatRateLimiter } from './rate-limit/chat-rate-limiter.js';
import { ChatThrottlerStorage } from '../../common/rate-limit/chat-throttler-storage.js';
import { WidgetController } from './widget.controller.js';
import { VisitorTokens } from './visitor-token.js';
import { IdentitySecretBox } from '../bots/identity-secret.js';
import { VisitorConversationsService } from './visitor-conversations.service.js';
import { WidgetService } from './widget.service.js';
import { QuotasModule } from '../quotas/quotas.module.js';

/** The model adapter: the OpenAI SDK when OPENAI_API_KEY is set, else the offline demo model. */
export function createLlm(config: AppConfig): LlmPort {
  if (config.openai) {
    return new OpenAiLlmAdapter({
      apiKey: config.openai.apiKey,
      baseUrl: config.openai.baseUrl,
      modelMap: config.openai.modelMap,
      timeoutMs: config.openai.timeoutMs,
      maxRetries: config.openai.maxRetries,
    });
  }
  return new OfflineDemoLlmAdapter(config.chat.offlineWordDelayMs);
}

/** The widget's public API: the bot's public face and POST /api/chat. */
@Module({
  imports: [
    ActionsModule,
    UsageModule,
    KnowledgeDataModule,
    ConversationsDataModule,
    WebhooksModule,
    LeadsModule,
    MailModule,
    MailConsentModule,
    UsersModule,
    QuotasModule,
  ],
  controllers: [ChatController, AgentMessagesController, WidgetController],
  providers: [
    ChatService,
    AgentMessagesService,
    ChatRepository,
    ServableBots,
    FeedbackService,
    LeadCaptureService,
    VisitorConversationsService,
    WidgetService,
    { provide: LLM, inject: [APP_CONFIG], useFactory: createLlm },
    {
      provide: CHAT_THROTTLER_STORAGE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ChatThrottlerStorage.fromUrl(config.redisUrl),
    },
    {
      provide: ChatRateLimiter,
      inject: [CHAT_THROTTLER_STORAGE, APP_CONFIG, ClientNetworks],
      useFactory: (storage: ChatThrottlerStorage, config: AppConfig, networks: ClientNetworks) =>
        new ChatRateLimiter(storage, config.chat, networks),
    },
    { provide: CHUNK_SEARCH, useExisting: KnowledgeSearchService },
    {
      provide: IdentitySecretBox,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new IdentitySecretBox(sessionSecret(config)),
    },
    {
      provide: VisitorTokens,
      inject: [APP_CONFIG, ClientNetworks],
      useFactory: (config: AppConfig, networks: ClientNetworks) => new VisitorTokens(sessionSecret(config), networks),
    },
  ],
})
export class ChatModule {}
