import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import {
  FEEDBACK_COMMENT_MAX_CHARS,
  MESSAGE_RATINGS,
  type FeedbackRequest,
  type MessageRating,
} from '@botsmith/contract';
import { CHAT_LIMITS } from '../../common/constants.js';
import { toStorableText } from '../../common/storable-text.js';

const MAX_ID = 2_147_483_647;

/** Ids arrive as numbers or, from the widget's data attribute, as digit strings; nothing else converts. */
function toId({ value }: { value: unknown }): unknown {
  if (typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value)) return Number(value);
  return value;
}

/**
 * A visitor's text, trimmed. NUL characters are removed and lone surrogates replaced rather than
 * refused: visitors paste text from anywhere, the widget sends earlier answers back as history,
 * and a visitor cannot act on an error about characters they cannot see.
 */
function visitorText({ value }: { value: unknown }): unknown {
  return typeof value === 'string' ? toStorableText(value).trim() : value;
}

/** The whole history is bounded too, not only each message. */
function TotalContentAtMost(maxChars: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'totalContentAtMost',
      constraints: [maxChars],
      validator: {
        validate: (value: unknown) =>
          !Array.isArray(value) ||
          value.reduce<number>(
            (sum, item) =>
              sum +
              (item && typeof (item as { content?: unknown }).content === 'string'
                ? (item as { content: string }).content.length
                : 0),
            0,
          ) <= maxChars,
        defaultMessage: () => `chatHistory must not hold more than ${maxChars} characters in all`,
      },
    },
    options,
  );
}

export class ChatHistoryItemDto {
  @IsIn(['user', 'assistant'], { message: 'each chatHistory role must be user or assistant' })
  role!: 'user' | 'assistant';

  @Transform(visitorText)
  @IsString()
  @MaxLength(CHAT_LIMITS.historyItemMaxChars, {
    message: `each chatHistory message must be at most ${CHAT_LIMITS.historyItemMaxChars} characters`,
  })
  content!: string;
}

/** POST /api/chat. `model` is accepted for the widget's sake and never used: the bot's model is. */
export class ChatRequestDto {
  @Transform(toId)
  @IsInt({ message: 'botId must be a whole number' })
  @Min(1, { message: 'botId must be a whole number' })
  @Max(MAX_ID, { message: 'botId must be a whole number' })
  botId!: number;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CHAT_LIMITS.historyMaxItems, {
    message: `chatHistory must hold at most ${CHAT_LIMITS.historyMaxItems} messages`,
  })
  @TotalContentAtMost(CHAT_LIMITS.historyTotalMaxChars)
  @ValidateNested({ each: true })
  @Type(() => ChatHistoryItemDto)
  chatHistory?: ChatHistoryItemDto[];

  @Transform(visitorText)
  @IsString({ message: 'prompt must be text' })
  @IsNotEmpty({ message: 'Please type a message' })
  @MaxLength(CHAT_LIMITS.promptMaxChars, {
    message: `prompt must be at most ${CHAT_LIMITS.promptMaxChars} characters`,
  })
  prompt!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  model?: string;
}

/**
 * POST /api/chat/feedback. Unlike a chat message, the comment is refused (400) when it holds
 * characters that cannot be stored: it is typed once, for this purpose, not pasted history.
 */
export class FeedbackRequestDto implements FeedbackRequest {
  @Transform(toId)
  @IsInt({ message: 'botId must be a whole number' })
  @Min(1, { message: 'botId must be a whole number' })
  @Max(MAX_ID, { message: 'botId must be a whole number' })
  botId!: number;

  @Transform(toId)
  @IsInt({ message: 'messageId must be a whole number' })
  @Min(1, { message: 'messageId must be a whole number' })
  @Max(MAX_ID, { message: 'messageId must be a whole number' })
  messageId!: number;

  @IsIn(MESSAGE_RATINGS, { message: 'rating must be up or down' })
  rating!: MessageRating;

  @IsOptional()
  @IsString({ message: 'comment must be text' })
  @MaxLength(FEEDBACK_COMMENT_MAX_CHARS, {
    message: `comment must be at most ${FEEDBACK_COMMENT_MAX_CHARS} characters`,
  })
  comment?: string;
}

/** DELETE /api/chat/conversations/current: which bot the visitor's conversation is with. */
export class DeleteConversationRequestDto {
  @Transform(toId)
  @IsInt({ message: 'botId must be a whole number' })
  @Min(1, { message: 'botId must be a whole number' })
  @Max(MAX_ID, { message: 'botId must be a whole number' })
  botId!: number;
}

/**
 * GET /api/chat/conversations/current/events and …/messages: the bot, and the last agent message
 * the widget has (`after`, a message id; 0 or absent: none).
 */
export class AgentMessagesQueryDto {
  @Transform(toId)
  @IsInt({ message: 'botId must be a whole number' })
  @Min(1, { message: 'botId must be a whole number' })
  @Max(MAX_ID, { message: 'botId must be a whole number' })
  botId!: number;

  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === '0' ? 0 : toId({ value })))
  @IsInt({ message: 'after must be a message id (a whole number)' })
  @Min(0, { message: 'after must be a message id (a whole number)' })
  @Max(MAX_ID, { message: 'after must be a message id (a whole number)' })
  after?: number;
}
