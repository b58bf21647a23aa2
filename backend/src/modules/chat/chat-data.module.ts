import { Module, type OnModuleInit } from '@nestjs/common';
import { AccountDataRegistry } from '../users/account-data.js';
import { UsersModule } from '../users/users.module.js';
import { ChatRepository } from './chat.repository.js';

/**
 * The chat module's tables (conversations, messages, chat_reservations) without the chat engine.
 * Registers the owner's chat log for removal inside the account deletion's transaction.
 */
@Module({
  imports: [UsersModule],
  providers: [ChatRepository],
  exports: [ChatRepository],
})
export class ChatDataModule implements OnModuleInit {
  constructor(
    private readonly accountData: AccountDataRegistry,
    private readonly chatLog: ChatRepository,
  ) {}

  onModuleInit(): void {
    this.accountData.register({
      deleteWithinAccount: (ownerId, tx) => this.chatLog.deleteAllOf(ownerId, tx),
    });
  }
}
