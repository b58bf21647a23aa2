import { AuthTokenEntity } from '../modules/auth/auth-token.entity.js';
import { PendingSignupEntity } from '../modules/auth/pending-signup.entity.js';
import { WebhookEventEntity } from '../modules/billing/webhook-event.entity.js';
import { BotEntity } from '../modules/bots/bot.entity.js';
import { CategoryEntity } from '../modules/categories/category.entity.js';
import { ChatReservationEntity } from '../modules/chat/chat-reservation.entity.js';
import { ConversationEntity } from '../modules/conversations/conversation.entity.js';
import { MessageEntity } from '../modules/conversations/message.entity.js';
import { BotSourceEntity } from '../modules/knowledge/bot-source.entity.js';
import { BotDocumentEntity } from '../modules/knowledge/bot-document.entity.js';
import { DocumentChunkEntity } from '../modules/knowledge/document-chunk.entity.js';
import { UsageEventEntity } from '../modules/usage/usage-event.entity.js';
import { UserEntity } from '../modules/users/user.entity.js';

/** Every entity, listed by hand so the ESM build needs no glob loading. */
export const ENTITIES = [
  UserEntity,
  AuthTokenEntity,
  PendingSignupEntity,
  CategoryEntity,
  BotEntity,
  BotDocumentEntity,
  BotSourceEntity,
  DocumentChunkEntity,
  ConversationEntity,
  MessageEntity,
  ChatReservationEntity,
  UsageEventEntity,
  WebhookEventEntity,
];
