import { Module, type OnModuleInit } from '@nestjs/common';
import { AccountDataRegistry } from '../users/account-data.js';
import { UsersModule } from '../users/users.module.js';
import { ConversationLog } from './conversation-log.js';
import { ConversationLogRepository } from './conversation-log.repository.js';
import { FeedbackRepository } from './feedback.repository.js';

/**
 * The conversation log (conversations, messages), which only conversations/ writes: the chat
 * engine records turns through ConversationLog; the inbox (ConversationsModule) uses the
 * repository. Registers the owner's log for removal inside the account deletion's transaction.
 */
@Module({
  imports: [UsersModule],
  providers: [ConversationLogRepository, FeedbackRepository, ConversationLog],
  exports: [ConversationLog, ConversationLogRepository],
})
export class ConversationsDataModule implements OnModuleInit {
  constructor(
    private readonly accountData: AccountDataRegistry,
    private readonly log: ConversationLogRepository,
  ) {}

  onModuleInit(): void {
    this.accountData.register({
      deleteWithinAccount: (ownerId, tx) => this.log.deleteAllOf(ownerId, tx),
    });
  }
}
