import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { ConversationLog } from '../conversations/conversation-log.js';
import { ChatService, type ChatCaller } from './chat.service.js';
import type { FeedbackRequestDto } from './chat.dto.js';
import { ChatRateLimiter } from './rate-limit/chat-rate-limiter.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';

const MESSAGE_NOT_FOUND = 'This answer does not exist.';

/**
 * A visitor's thumbs up or down on an answer (docs/product.md#conversations). The caller passes
 * the same checks as a chat message (the bot exists, the site may use it or the bot's API key is
 * given) and is identified the same way, so only the visitor whose conversation holds the answer
 * can rate it; anyone else learns nothing (404, as for an unknown id). Rating is never charged.
 */
@Injectable()
export class FeedbackService {
  constructor(
    private readonly chat: ChatService,
    private readonly log: ConversationLog,
    private readonly rateLimiter: ChatRateLimiter,
    private readonly webhooks: WebhooksService,
  ) {}

  async rate(input: FeedbackRequestDto, caller: ChatCaller): Promise<void> {
    const visitorId = await this.chat.identifyVisitor(input.botId, caller);
    await this.rateLimiter.hitFeedback(input.botId, visitorId, caller.ip);
    const comment = input.comment?.trim() || null;
    const rated = await this.log.rate({
      botId: input.botId,
      visitorId,
      messageId: input.messageId,
      rating: input.rating,
      comment,
      at: new Date(),
    });
    if (!rated) throw AppError.notFound(MESSAGE_NOT_FOUND, 'MESSAGE_NOT_FOUND');
    if (rated.flagged) {
      // In the background, as for an answer the bot flagged itself (docs/product.md#webhooks).
      this.webhooks.notify(rated.ownerId, 'conversation.unanswered', {
        botId: input.botId,
        botName: rated.botName,
        conversationId: rated.conversationId,
        messageId: input.messageId,
        question: rated.question,
        answer: rated.answer,
      });
    }
  }
}
