import type {
  Animation,
  BotResponse,
  BotUsageResponse,
  CategoryResponse,
  DocumentResponse,
  MeResponse,
  MessageResponse,
  RefreshSchedule,
  ModelTier,
  SettingsResponse,
  SourceKind,
  SourceResponse,
  SourceStatus,
  SubscriptionResponse,
  UrlResponse,
  UsageHistoryResponse,
  UserUsageResponse,
  WidgetPosition,
} from '@botsmith/contract';

/** Shapes of the HTTP contract (docs/product.md#http-api), as the frontend reads them. */

export type { MessageResponse, UrlResponse };
/** GET /api/user/me (demoMode is absent from older servers' answers). */
export type CurrentUser = Omit<MeResponse, 'demoMode'> & { demoMode?: boolean };
export type Subscription = SubscriptionResponse;

export interface Credentials {
  email: string;
  password: string;
}

/** GET/PUT /api/user/settings. */
export type AccountSettings = SettingsResponse;
export type Bot = BotResponse;
export type BotDocument = DocumentResponse;
export type Category = CategoryResponse;
export type UserUsage = UserUsageResponse;
export type BotUsage = BotUsageResponse;
export type UsageHistory = UsageHistoryResponse;

export type BotModel = ModelTier;
export type BotAnimation = Animation;
export type { WidgetPosition };

export interface BotSummary {
  id: number;
  name: string;
  categoryId?: number | null;
}

/** The field groups the edit-bot modal saves, one per tab (docs/product.md#edit-bot-modal, PUT /api/bots/{id}). */
export type BotDetailsUpdate = Pick<
  Bot,
  | 'name'
  | 'customGreeting'
  | 'starterQuestions'
  | 'widgetLanguage'
  | 'model'
  | 'showModelLabel'
  | 'categoryId'
  | 'allowedDomain'
>;
export type BotStylingUpdate = Pick<
  Bot,
  | 'bubbleColor'
  | 'bubbleTextColor'
  | 'bubbleIcon'
  | 'bubbleBorderRadius'
  | 'chatWindowBorderRadius'
  | 'bannerColor'
  | 'sendButtonColor'
  | 'sendArrowColor'
  | 'bannerTextColor'
  | 'bannerDisclaimer'
  | 'placeholderText'
  | 'placeholderTextColor'
  | 'widgetBubbleColor'
  | 'assistantBubbleColor'
  | 'assistantBubbleTextColor'
  | 'widgetBackgroundColor'
  | 'animation'
  | 'widgetPosition'
>;
export type BotPromptingUpdate = Pick<Bot, 'prompt' | 'maxTokens' | 'temperature'>;
export type BotLeadsUpdate = Pick<Bot, 'leadCapture'>;
export type BotUsageUpdate = Pick<Bot, 'usageLimitDollars'>;
export type BotUpdate = Partial<
  BotDetailsUpdate & BotStylingUpdate & BotPromptingUpdate & BotUsageUpdate & BotLeadsUpdate
>;

export type { RefreshSchedule, SourceKind, SourceStatus };
/** One thing a bot answers from, as GET /api/bots/{id}/sources lists it. */
export type KnowledgeSource = SourceResponse;
