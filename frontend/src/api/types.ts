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

/**
 * Shapes of the HTTP contract (docs/product.md#http-api), as the frontend reads them: the
 * contract's own names, re-exported rather than renamed, so a type reads the same in every
 * workspace; a type of its own only where the frontend's shape differs (CurrentUser).
 */

export type {
  Animation,
  BotResponse,
  BotUsageResponse,
  CategoryResponse,
  DocumentResponse,
  MessageResponse,
  ModelTier,
  SettingsResponse,
  SourceResponse,
  SubscriptionResponse,
  UrlResponse,
  UsageHistoryResponse,
  UserUsageResponse,
};
/** GET /api/user/me (demoMode is absent from older servers' answers). */
export type CurrentUser = Omit<MeResponse, 'demoMode'> & { demoMode?: boolean };

export interface Credentials {
  email: string;
  password: string;
}

export type { WidgetPosition };

export interface BotSummary {
  id: number;
  name: string;
  categoryId?: number | null;
}

/** The field groups the edit-bot modal saves, one per tab (docs/product.md#edit-bot-modal, PUT /api/bots/{id}). */
export type BotDetailsUpdate = Pick<
  BotResponse,
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
  BotResponse,
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
export type BotPromptingUpdate = Pick<BotResponse, 'prompt' | 'maxTokens' | 'temperature'>;
export type BotLeadsUpdate = Pick<BotResponse, 'leadCapture'>;
export type BotUsageUpdate = Pick<BotResponse, 'usageLimitDollars'>;
export type BotUpdate = Partial<
  BotDetailsUpdate & BotStylingUpdate & BotPromptingUpdate & BotUsageUpdate & BotLeadsUpdate
>;

export type { RefreshSchedule, SourceKind, SourceStatus };
