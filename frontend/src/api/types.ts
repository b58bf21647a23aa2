/** Shapes of the HTTP contract (shared/design/API.md), as the frontend reads them. */

export interface MessageResponse {
  message: string;
}

export interface UrlResponse {
  url: string;
}

export interface Credentials {
  email: string;
  password: string;
}

export interface CurrentUser {
  id: number;
  email: string;
  /** null until the first subscription exists; false after a failed payment. */
  hasPaid: boolean | null;
  stripeCustomerId: string | null;
  subscriptionItemId: string | null;
}

export interface Subscription {
  status: string;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  creditsCents: number;
  [extra: string]: unknown;
}

export type BotModel = 'gpt-3.5-turbo' | 'gpt-4-turbo' | 'gpt-4o' | 'gpt-4o-mini';
export type BotAnimation = 'none' | 'blowup' | 'glow' | 'slide' | 'rotate' | 'shake' | 'drop' | 'roll';
export type WidgetPosition = 'left' | 'right';

export interface BotDocument {
  originalName: string;
  filePath: string;
}

export interface BotSummary {
  id: number;
  name: string;
  categoryId?: number | null;
}

export interface Bot {
  id: number;
  name: string;
  apiKey: string;
  prompt: string;
  customGreeting: string;
  model: BotModel;
  categoryId: number | null;
  allowedDomain: string;
  /** The reference PDF, if one was uploaded. */
  document: BotDocument | null;
  /** Address of the uploaded icon, or '' for the default launcher icon. */
  bubbleIcon: string;
  bubbleColor: string;
  bubbleTextColor: string;
  bubbleBorderRadius: string;
  chatWindowBorderRadius: string;
  bannerColor: string;
  bannerTextColor: string;
  bannerDisclaimer: string;
  placeholderText: string;
  placeholderTextColor: string;
  sendButtonColor: string;
  /** Same value as sendButtonColor (the widget reads this name). */
  sendButtonColor1: string;
  sendArrowColor: string;
  widgetBubbleColor: string;
  assistantBubbleColor: string;
  assistantBubbleTextColor: string;
  widgetBackgroundColor: string;
  animation: BotAnimation;
  widgetPosition: WidgetPosition;
  maxTokens: number;
  temperature: number;
  usageLimitDollars: number;
}

/** The field groups the edit-bot modal saves, one per tab (brief section 7, PUT /api/bots/{id}). */
export type BotDetailsUpdate = Pick<Bot, 'name' | 'customGreeting' | 'model' | 'categoryId' | 'allowedDomain'>;
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
export type BotUsageUpdate = Pick<Bot, 'usageLimitDollars'>;
export type BotUpdate = Partial<BotDetailsUpdate & BotStylingUpdate & BotPromptingUpdate & BotUsageUpdate>;

export interface Category {
  id: number;
  name: string;
}

export interface UserUsage {
  usageCents: number;
  monthlyUsageCents: number;
  creditsCents: number;
  logsAvailable: boolean;
}

export interface BotUsage {
  usageCents: number;
  usageLimitDollars: number;
  logsAvailable: boolean;
}

/** Parallel arrays over the last 10 days, oldest first. */
export interface UsageHistory {
  labels: string[];
  messageCounts: number[];
  tokensUsed: number[];
  costs: number[];
}
