import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { ConversationLog } from '../conversations/conversation-log.js';
import { ChatService, type ChatCaller } from './chat.service.js';
import type { DeleteConversationRequestDto } from './chat.dto.js';
import { ChatRateLimiter } from './rate-limit/chat-rate-limiter.js';

const CONVERSATION_NOT_FOUND = 'There is no conversation to delete.';

/**
 * A visitor deletes their own conversation with a bot (docs/product.md#retention-and-visitor-privacy).
 * The caller passes the same checks as a chat message (the bot exists, the site may use it or the
 * bot's API key is given) and is identified the same way, so only the visitor the token names can
 * delete, and only their own: a missing, forged or another network's token names a new visitor,
 * who has nothing to delete (404, as for a visitor who never chatted).
 */
@Injectable()
export class VisitorConversationsService {
  constructor(
    private readonly chat: ChatService,
    private readonly log: ConversationLog,
    private readonly rateLimiter: ChatRateLimiter,
  ) {}

  async deleteCurrent(input: DeleteConversationRequestDto, caller: ChatCaller): Promise<void> {
    const visitorId = await this.chat.identifyVisitor(input.botId, caller);
    await this.rateLimiter.hitDeletion(input.botId, visitorId, caller.ip);
    const deleted = await this.log.deleteVisitorConversations(input.botId, visitorId);
    if (deleted === 0) throw AppError.notFound(CONVERSATION_NOT_FOUND, 'CONVERSATION_NOT_FOUND');
  }
}
