import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  isEmail,
  IsNotEmpty,
  IsObject,
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
  isLeadPhone,
  LEAD_LIMITS,
  type LeadRequest,
  FEEDBACK_COMMENT_MAX_CHARS,
  CHAT_VISITOR_LIMITS,
  MESSAGE_RATINGS,
  type ChatVisitor,
  type FeedbackRequest,
  type MessageRating,
  type ChatHistoryItem,
  type ChatRequest,
  type DeleteConversationRequest,
  type AgentMessagesQuery,
} from '@botsmith/contract';
import { CHAT_LIMITS } from '../../common/constants.js';
import { textProblem, toStorableText } from '../../common/storable-text.js';
import { IDENTITY_LIMITS } from './visitor-identity.js';

const MAX_ID = 2_147_483_647;

/** Ids arrive as numbers or, from the widget's data attribute, as digit strings; nothing else converts. */
function toId({ value }: { value: unknown }): unknown {
  if (typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value)) return Number(value);
  return value;
}

/** The bot a visitor's call is about: a whole number, or the widget's data attribute as digits. */
function IsBotId(): PropertyDecorator {
  const message = 'botId must be a whole number';
  return applyDecorators(Transform(toId), IsInt({ message }), Min(1, { message }), Max(MAX_ID, { message }));
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

export class ChatHistoryItemDto implements ChatHistoryItem {
  @IsIn(['user', 'assistant'], { message: 'each chatHistory role must be user or assistant' })
  role!: 'user' | 'assistant';

  @Transform(visitorText)
  @IsString()
  @MaxLength(CHAT_LIMITS.historyItemMaxChars, {
    message: `each chatHistory message must be at most ${CHAT_LIMITS.historyItemMaxChars} characters`,
  })
  content!: string;
}

/** Trimmed, with the domain lower-cased (the local part is the mail server's to interpret). */
function emailAddress({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  const address = value.trim();
  const at = address.lastIndexOf('@');
  return at < 0 ? address : address.slice(0, at + 1) + address.slice(at + 1).toLowerCase();
}

/**
 * A name the inbox can show, else nothing: a host page's mistake in `Botsmith.identify` (a
 * number, an empty or overlong name) must not stop its visitor's chat, so it is left out.
 */
function visitorName({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  return name && name.length <= CHAT_VISITOR_LIMITS.nameMaxChars ? name : undefined;
}

/**
 * An e-mail address the inbox can show (domain lower-cased), else nothing, as for the name. Text
 * that cannot be stored is kept as sent, for the validation pipe to refuse with its sentence (400):
 * `isEmail` runs `encodeURI`, which throws on a lone surrogate (it was a 500).
 */
function visitorEmail({ value }: { value: unknown }): unknown {
  if (typeof value === 'string' && textProblem(value)) return value;
  const address = emailAddress({ value });
  return typeof address === 'string' && address.length <= CHAT_VISITOR_LIMITS.emailMaxChars && isEmail(address)
    ? address
    : undefined;
}

/** Text of at most `max` characters, else left out (visitor-identity.ts checks the rest). */
function proofText(max: number) {
  return ({ value }: { value: unknown }): unknown =>
    typeof value === 'string' && value.length > 0 && value.length <= max && !textProblem(value) ? value : undefined;
}

/**
 * Who the host page says the visitor is (`Botsmith.identify`), for the owner's inbox only: it is
 * never used to send mail, since anyone on the page can set it. A value the inbox cannot show is
 * left out and the message answered (visitorName, visitorEmail); a `visitor` that is not an object,
 * a key other than these two, or text holding NUL or broken Unicode is still refused (400): the
 * widget never sends those. The validators below only guard the transforms' results.
 */
export class ChatVisitorDto implements ChatVisitor {
  @IsOptional()
  @Transform(visitorName)
  @MaxLength(CHAT_VISITOR_LIMITS.nameMaxChars, {
    message: `The field visitor.name must be at most ${CHAT_VISITOR_LIMITS.nameMaxChars} characters`,
  })
  @IsNotEmpty({ message: 'The field visitor.name must not be empty' })
  @IsString({ message: 'The field visitor.name must be text' })
  name?: string;

  @IsOptional()
  @Transform(visitorEmail)
  @IsEmail({}, { message: 'The field visitor.email must be a valid email address' })
  @MaxLength(CHAT_VISITOR_LIMITS.emailMaxChars, {
    message: `The field visitor.email must be at most ${CHAT_VISITOR_LIMITS.emailMaxChars} characters`,
  })
  @IsString({ message: 'The field visitor.email must be text' })
  email?: string;

  // The identity proof: a value that cannot be one is left out (the visitor is then anonymous),
  // never a 400, so an owner's mistake does not break the widget.
  @IsOptional()
  @Transform(proofText(IDENTITY_LIMITS.tokenMaxChars))
  @IsString()
  token?: string;

  @IsOptional()
  @Transform(proofText(IDENTITY_LIMITS.subMaxChars))
  @IsString()
  userId?: string;

  @IsOptional()
  @Transform(proofText(128))
  @IsString()
  userHash?: string;
}

/** POST /api/chat. `model` is accepted for the widget's sake and never used: the bot's model is. */
export class ChatRequestDto implements ChatRequest {
  @IsBotId()
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

  /** Absent or `{}`: nothing is stored or changed. */
  @ApiProperty({
    type: () => ChatVisitorDto,
    required: false,
    description:
      "Who the host page says the visitor is (Botsmith.identify): shown in the owner's inbox, never used to send mail.",
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => ChatVisitorDto)
  @IsObject({ message: 'The field visitor must be an object with a name and/or an email' })
  visitor?: ChatVisitorDto;
}

/**
 * POST /api/chat/feedback. Unlike a chat message, the comment is refused (400) when it holds
 * characters that cannot be stored: it is typed once, for this purpose, not pasted history.
 */
export class FeedbackRequestDto implements FeedbackRequest {
  @IsBotId()
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
export class DeleteConversationRequestDto implements DeleteConversationRequest {
  @IsBotId()
  botId!: number;
}

/**
 * GET /api/chat/conversations/current/events and …/messages: the bot, and the last agent message
 * the widget has (`after`, a message id; 0 or absent: none).
 */
export class AgentMessagesQueryDto implements AgentMessagesQuery {
  @IsBotId()
  botId!: number;

  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === '0' ? 0 : toId({ value })))
  @IsInt({ message: 'after must be a message id (a whole number)' })
  @Min(0, { message: 'after must be a message id (a whole number)' })
  @Max(MAX_ID, { message: 'after must be a message id (a whole number)' })
  after?: number;
}

/** A form field: trimmed, and an empty one is the same as one left out (forms send every field). */
function formText({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function IsLeadPhone(): PropertyDecorator {
  return ValidateBy({
    name: 'isLeadPhone',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isLeadPhone(value),
      defaultMessage: () =>
        `Please enter a valid phone number: digits, spaces and + ( ) - ., with ${LEAD_LIMITS.phoneDigitsMin} to ${LEAD_LIMITS.phoneDigitsMax} digits`,
    },
  });
}

/**
 * POST /api/chat/lead (docs/product.md#leads-and-handoff). Each field is checked here; which
 * fields the bot asks for, and that the e-mail or the phone is given, LeadCaptureService checks.
 * Characters that cannot be stored are refused (400), as for a rating's comment: typed once, here.
 */
export class LeadRequestDto implements LeadRequest {
  @IsBotId()
  botId!: number;

  @IsOptional()
  @Transform(formText)
  @MaxLength(LEAD_LIMITS.name, { message: `name must be at most ${LEAD_LIMITS.name} characters` })
  @IsString({ message: 'name must be text' })
  name?: string;

  @IsOptional()
  @Transform(formText)
  @IsEmail({}, { message: 'Please enter a valid email address.' })
  @MaxLength(LEAD_LIMITS.email, { message: `email must be at most ${LEAD_LIMITS.email} characters` })
  @IsString({ message: 'email must be text' })
  email?: string;

  @IsOptional()
  @Transform(formText)
  @IsLeadPhone()
  @IsString({ message: 'phone must be text' })
  phone?: string;

  @IsOptional()
  @Transform(formText)
  @MaxLength(LEAD_LIMITS.message, { message: `message must be at most ${LEAD_LIMITS.message} characters` })
  @IsString({ message: 'message must be text' })
  message?: string;
}
