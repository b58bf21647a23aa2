import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { ConversationsController } from './conversations.controller.js';
import { ConversationsExportService } from './conversations-export.service.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsService } from './conversations.service.js';

/**
 * The owner's conversations inbox: the read side of the chat log (chat/ writes it). Reads the
 * conversations and messages tables through its own repository; UsersModule for the billing gate.
 */
@Module({
  imports: [UsersModule],
  controllers: [ConversationsController],
  providers: [ConversationsRepository, ConversationsService, ConversationsExportService],
})
export class ConversationsModule {}
