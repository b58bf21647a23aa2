import {
  LEAD_FIELDS,
  LEAD_LIMITS,
  LEAD_OFFER_WHEN,
  normaliseAllowedDomain,
  normaliseGradient,
  normaliseRadius,
  type LeadCaptureSettings,
  type CreateBotRequest,
  type UpdateBotRequest,
} from '@botsmith/contract';

export type { BotResponse } from '@botsmith/contract';
import { Transform } from 'class-transformer';
import {
  isEmail,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  type ValidationOptions,
} from 'class-validator';
import {
  ANIMATIONS,
  BOT_TEXT_LIMITS,
  MAX_TOKENS_RANGE,
  MODEL_TIERS,
  STARTER_QUESTIONS_LIMITS,
  TEMPERATURE_RANGE,
  USAGE_LIMIT_DOLLARS_MAX,
  WIDGET_LANGUAGE_CHOICES,
  WIDGET_POSITIONS,
  type Animation,
  type ModelTier,
  type WidgetLanguageChoice,
  type WidgetPosition,
} from '../../common/constants.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** A field that may be left out, but not sent as null (the column is NOT NULL). */
const present = ValidateIf((_object: object, value: unknown) => value !== undefined);

function IsGradient(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isGradient',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && normaliseGradient(value) !== null,
        defaultMessage: (args) =>
          `Invalid ${args?.property}: use linear-gradient(<direction>, <colour>, <colour>) with a direction of to right, to bottom, 135deg, to left or to top and two 3- or 6-digit hex colours, e.g. linear-gradient(to right, #2ecc71, #27ae60)`,
      },
    },
    options,
  );
}

/** What is wrong with a list of starter questions (already trimmed), or null. */
export function starterQuestionsProblem(value: unknown): string | null {
  const { count, length } = STARTER_QUESTIONS_LIMITS;
  if (!Array.isArray(value) || value.some((question) => typeof question !== 'string')) {
    return 'Invalid starterQuestions: must be a list of questions (texts)';
  }
  const questions = value as string[];
  if (questions.length > count) return `Invalid starterQuestions: at most ${count} questions`;
  if (questions.some((question) => question === '')) return 'Invalid starterQuestions: a question cannot be empty';
  if (questions.some((question) => question.length > length)) {
    return `Invalid starterQuestions: each question must be at most ${length} characters`;
  }
  const distinct = new Set(questions.map((question) => question.toLocaleLowerCase()));
  if (distinct.size < questions.length) return 'Invalid starterQuestions: each question must be different';
  return null;
}

function AreStarterQuestions(): PropertyDecorator {
  return ValidateBy({
    name: 'areStarterQuestions',
    validator: {
      validate: (value: unknown) => starterQuestionsProblem(value) === null,
      defaultMessage: (args) => starterQuestionsProblem(args?.value) ?? 'Invalid starterQuestions',
    },
  });
}

const LEAD_CAPTURE_KEYS = ['enabled', 'fields', 'offerWhen', 'notifyEmails', 'thankYouText'] as const;

/**
 * What is wrong with a `leadCapture` setting (docs/product.md#leads-and-handoff), or null. The
 * whole setting is sent each time; lists are checked as sets (LeadCaptureSettingsOf orders them).
 */
export function leadCaptureProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `Invalid leadCapture: must be an object with ${LEAD_CAPTURE_KEYS.join(', ')}`;
  }
  const setting = value as Record<string, unknown>;
  const unknown = Object.keys(setting).find((key) => !(LEAD_CAPTURE_KEYS as readonly string[]).includes(key));
  if (unknown !== undefined) return `Invalid leadCapture: unknown field ${unknown.slice(0, 40)}`;
  const missing = LEAD_CAPTURE_KEYS.find((key) => setting[key] === undefined);
  if (missing !== undefined) return `Invalid leadCapture.${missing}: required`;
  if (typeof setting.enabled !== 'boolean') return 'Invalid leadCapture.enabled: must be true or false';
  const listOf = (list: unknown, allowed: readonly string[]) =>
    Array.isArray(list) && list.length <= allowed.length * 2 && list.every((item) => allowed.includes(item as string));
  if (!listOf(setting.fields, LEAD_FIELDS)) {
    return `Invalid leadCapture.fields: must be a list of ${LEAD_FIELDS.join(', ')}`;
  }
  const fields = setting.fields as string[];
  if (!fields.includes('email') && !fields.includes('phone')) {
    return 'Invalid leadCapture.fields: must include email or phone, so the owner can reply';
  }
  if (!listOf(setting.offerWhen, LEAD_OFFER_WHEN)) {
    return `Invalid leadCapture.offerWhen: must be a list of ${LEAD_OFFER_WHEN.join(', ')}`;
  }
  const emails = setting.notifyEmails;
  if (!Array.isArray(emails) || emails.some((email) => typeof email !== 'string')) {
    return 'Invalid leadCapture.notifyEmails: must be a list of e-mail addresses';
  }
  if (emails.length > LEAD_LIMITS.notifyEmails) {
    return `Invalid leadCapture.notifyEmails: at most ${LEAD_LIMITS.notifyEmails} addresses`;
  }
  const bad = (emails as string[]).find((email) => email.trim().length > LEAD_LIMITS.email || !isEmail(email.trim()));
  if (bad !== undefined) return `Invalid leadCapture.notifyEmails: ${bad.slice(0, 60)} is not a valid e-mail address`;
  if (typeof setting.thankYouText !== 'string') return 'Invalid leadCapture.thankYouText: must be text';
  if (setting.thankYouText.trim().length > LEAD_LIMITS.thankYouText) {
    return `Invalid leadCapture.thankYouText: must be at most ${LEAD_LIMITS.thankYouText} characters`;
  }
  return null;
}

/** A checked setting in its stored form: lists in the contract's order without repeats, addresses lower-cased. */
export function normaliseLeadCapture(value: LeadCaptureSettings): LeadCaptureSettings {
  return {
    enabled: value.enabled,
    fields: LEAD_FIELDS.filter((field) => value.fields.includes(field)),
    offerWhen: LEAD_OFFER_WHEN.filter((when) => value.offerWhen.includes(when)),
    notifyEmails: [...new Set(value.notifyEmails.map((email) => email.trim().toLowerCase()))],
    thankYouText: value.thankYouText.trim(),
  };
}

function IsLeadCapture(): PropertyDecorator {
  return ValidateBy({
    name: 'isLeadCapture',
    validator: {
      validate: (value: unknown) => leadCaptureProblem(value) === null,
      defaultMessage: (args) => leadCaptureProblem(args?.value) ?? 'Invalid leadCapture',
    },
  });
}

/** Each question trimmed; anything else is left for the validator to name. */
const trimEach = ({ value }: { value: unknown }) =>
  Array.isArray(value) ? value.map((item: unknown) => (typeof item === 'string' ? item.trim() : item)) : value;

function IsRadius(): PropertyDecorator {
  return ValidateBy({
    name: 'isRadius',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && normaliseRadius(value) !== null,
      defaultMessage: (args) =>
        `Invalid ${args?.property}: use 0 or a size such as 12px (up to 999px) or 50% (up to 100%)`,
    },
  });
}

function IsAllowedDomain(): PropertyDecorator {
  return ValidateBy({
    name: 'isAllowedDomain',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && normaliseAllowedDomain(value) !== null,
      defaultMessage: () =>
        'Invalid allowedDomain: use a bare host name such as example.com, without http://, a path or a port (or leave it empty for any site)',
    },
  });
}

export class CreateBotDto implements CreateBotRequest {
  @Transform(trim)
  @MaxLength(BOT_TEXT_LIMITS.name, { message: `Bot name must be at most ${BOT_TEXT_LIMITS.name} characters.` })
  @IsNotEmpty({ message: 'Bot name is required.' })
  @IsString({ message: 'Bot name is required.' })
  botName!: string;
}

/**
 * PUT /api/bots/:id: any subset of the edit-bot tabs' field groups (docs/product.md#edit-bot-modal). Every field
 * is checked here so a bad one is 400 naming it; the service saves all of them in one UPDATE.
 * class-validator runs the decorator nearest the property first, so the type check sits last.
 */
export class UpdateBotDto implements UpdateBotRequest {
  // Details
  @present
  @Transform(trim)
  @MaxLength(BOT_TEXT_LIMITS.name, { message: `Bot name must be at most ${BOT_TEXT_LIMITS.name} characters.` })
  @IsNotEmpty({ message: 'Bot name is required.' })
  @IsString({ message: 'Bot name is required.' })
  name?: string;

  @present
  @MaxLength(BOT_TEXT_LIMITS.customGreeting, {
    message: `Invalid customGreeting: must be at most ${BOT_TEXT_LIMITS.customGreeting} characters`,
  })
  @IsString({ message: 'Invalid customGreeting: must be text' })
  customGreeting?: string;

  @present
  @Transform(trimEach)
  @AreStarterQuestions()
  starterQuestions?: string[];

  @present
  @IsIn(WIDGET_LANGUAGE_CHOICES, {
    message: `Invalid widgetLanguage: must be one of ${WIDGET_LANGUAGE_CHOICES.join(', ')}`,
  })
  widgetLanguage?: WidgetLanguageChoice;

  @present
  @IsIn(MODEL_TIERS, { message: `Invalid model: must be one of ${MODEL_TIERS.join(', ')}` })
  model?: ModelTier;

  @present
  @IsBoolean({ message: 'Invalid showModelLabel: must be true or false' })
  showModelLabel?: boolean;

  @ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null)
  @Max(2_147_483_647, { message: 'Invalid categoryId: must be the id of one of your categories, or null' })
  @Min(1, { message: 'Invalid categoryId: must be the id of one of your categories, or null' })
  @IsInt({ message: 'Invalid categoryId: must be the id of one of your categories, or null' })
  categoryId?: number | null;

  @present
  @IsAllowedDomain()
  @MaxLength(BOT_TEXT_LIMITS.allowedDomain, {
    message: `Invalid allowedDomain: must be at most ${BOT_TEXT_LIMITS.allowedDomain} characters`,
  })
  @IsString({ message: 'Invalid allowedDomain: must be text' })
  allowedDomain?: string;

  // Styling
  @present @IsGradient() bubbleColor?: string;
  @present @IsGradient() bubbleTextColor?: string;

  @present
  @Matches(/^$|^(https?:\/\/[^/\s]+)?\/uploads\/icons\/[\w.-]+$/, {
    message: 'Invalid bubbleIcon: must be empty or the address of an icon uploaded for this bot',
  })
  @MaxLength(BOT_TEXT_LIMITS.bubbleIcon, {
    message: `Invalid bubbleIcon: must be at most ${BOT_TEXT_LIMITS.bubbleIcon} characters`,
  })
  @IsString({ message: 'Invalid bubbleIcon: must be text' })
  bubbleIcon?: string;

  @present @IsRadius() bubbleBorderRadius?: string;
  @present @IsRadius() chatWindowBorderRadius?: string;
  @present @IsGradient() bannerColor?: string;
  @present @IsGradient() sendButtonColor?: string;
  @present @IsGradient() sendArrowColor?: string;
  @present @IsGradient() bannerTextColor?: string;

  @present
  @MaxLength(BOT_TEXT_LIMITS.bannerDisclaimer, {
    message: `Invalid bannerDisclaimer: must be at most ${BOT_TEXT_LIMITS.bannerDisclaimer} characters`,
  })
  @IsString({ message: 'Invalid bannerDisclaimer: must be text' })
  bannerDisclaimer?: string;

  @present
  @MaxLength(BOT_TEXT_LIMITS.placeholderText, {
    message: `Invalid placeholderText: must be at most ${BOT_TEXT_LIMITS.placeholderText} characters`,
  })
  @IsString({ message: 'Invalid placeholderText: must be text' })
  placeholderText?: string;

  @present @IsGradient() placeholderTextColor?: string;
  @present @IsGradient() widgetBubbleColor?: string;
  @present @IsGradient() assistantBubbleColor?: string;
  @present @IsGradient() assistantBubbleTextColor?: string;
  @present @IsGradient() widgetBackgroundColor?: string;

  @present
  @IsIn(ANIMATIONS, { message: `Invalid animation: must be one of ${ANIMATIONS.join(', ')}` })
  animation?: Animation;

  @present
  @IsIn(WIDGET_POSITIONS, { message: 'Invalid widgetPosition: must be left or right' })
  widgetPosition?: WidgetPosition;

  // Prompting
  @present
  @MaxLength(BOT_TEXT_LIMITS.prompt, {
    message: `Invalid prompt: must be at most ${BOT_TEXT_LIMITS.prompt} characters`,
  })
  @IsString({ message: 'Invalid prompt: must be text' })
  prompt?: string;

  @present
  @Max(MAX_TOKENS_RANGE.max, {
    message: `Invalid maxTokens: must be a whole number from ${MAX_TOKENS_RANGE.min} to ${MAX_TOKENS_RANGE.max}`,
  })
  @Min(MAX_TOKENS_RANGE.min, {
    message: `Invalid maxTokens: must be a whole number from ${MAX_TOKENS_RANGE.min} to ${MAX_TOKENS_RANGE.max}`,
  })
  @IsInt({
    message: `Invalid maxTokens: must be a whole number from ${MAX_TOKENS_RANGE.min} to ${MAX_TOKENS_RANGE.max}`,
  })
  maxTokens?: number;

  @present
  @Max(TEMPERATURE_RANGE.max, {
    message: `Invalid temperature: must be a number from ${TEMPERATURE_RANGE.min} to ${TEMPERATURE_RANGE.max}`,
  })
  @Min(TEMPERATURE_RANGE.min, {
    message: `Invalid temperature: must be a number from ${TEMPERATURE_RANGE.min} to ${TEMPERATURE_RANGE.max}`,
  })
  @IsNumber(
    { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 },
    { message: `Invalid temperature: must be a number from ${TEMPERATURE_RANGE.min} to ${TEMPERATURE_RANGE.max}` },
  )
  temperature?: number;

  // Usage: whole dollars; empty or null is saved as 0 (docs/product.md#per-bot-budgets).
  @Transform(({ value }: { value: unknown }) => {
    if (value === null || value === '') return 0;
    if (typeof value === 'string' && /^\d{1,9}$/.test(value.trim())) return Number(value.trim());
    return value;
  })
  @present
  @Max(USAGE_LIMIT_DOLLARS_MAX, { message: `Invalid usageLimitDollars: must be at most ${USAGE_LIMIT_DOLLARS_MAX}` })
  @Min(0, { message: 'Invalid usageLimitDollars: must be a whole number of dollars, 0 or more' })
  @IsInt({ message: 'Invalid usageLimitDollars: must be a whole number of dollars, 0 or more' })
  usageLimitDollars?: number;

  // Leads
  @present
  @IsLeadCapture()
  leadCapture?: LeadCaptureSettings;
}
