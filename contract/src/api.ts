/**
 * Request and response bodies of the HTTP API (docs/product.md#http-api): what the server
 * returns and what the dashboard and the widget read.
 */
import type { BotAppearance, WidgetLanguageChoice } from './bots.js';
import type { WidgetTheme } from './widget-theme.js';
import type { ConversationRetentionDays } from './account.js';
import type { ModelTier } from './pricing.js';
import type { LeadCaptureSettings, PublicLeadCapture } from './leads.js';

/** GET /api/widget/bots/{id}: the bot's public face. Never the prompt, document, API key or owner. */
export interface PublicBot extends BotAppearance {
  id: number;
  name: string;
  customGreeting: string;
  /** Questions shown as tappable chips under the greeting until the first message. */
  starterQuestions: string[];
  /** The language of the widget's own texts: 'auto' follows the visitor's browser. */
  widgetLanguage: WidgetLanguageChoice;
  /** The tier id; the widget sends it back, and the server never trusts it. */
  model: ModelTier;
  /** The model's name to show under the input; '' unless the owner turned showModelLabel on. */
  modelLabel: string;
  /**
   * True when the bot cannot answer now (its monthly budget is used up, or its owner cannot be
   * served); a widget without a lead form shows nothing then (see leadOnly).
   */
  hidden: boolean;
  /** The widget's CSS custom properties, computed from the styling fields by widgetTheme. */
  theme: WidgetTheme;
  /** The lead form's setting; null when the bot takes no leads. Never the addresses leads go to. */
  leadCapture: PublicLeadCapture | null;
  /**
   * True when the bot cannot answer now (`hidden`) but offers the lead form instead (lead
   * capture on, with 'cap'): a widget with the form shows "Leave a message" and the form.
   */
  leadOnly: boolean;
}

/** A reference document of a bot. */
export interface DocumentResponse {
  originalName: string;
  filePath: string;
}

/** GET /api/bots/{id} and the other bot routes: every field of a bot, as its owner sees it. */
export interface BotResponse extends BotAppearance {
  id: number;
  name: string;
  apiKey: string;
  prompt: string;
  customGreeting: string;
  starterQuestions: string[];
  widgetLanguage: WidgetLanguageChoice;
  model: ModelTier;
  /** Visitors see the model's name under the widget's input (default false). */
  showModelLabel: boolean;
  categoryId: number | null;
  allowedDomain: string;
  /** The reference PDF, if one was uploaded. */
  document: DocumentResponse | null;
  maxTokens: number;
  temperature: number;
  usageLimitDollars: number;
  /** docs/product.md#leads-and-handoff */
  leadCapture: LeadCaptureSettings;
}

export interface CategoryResponse {
  id: number;
  name: string;
}

/** A confirmation, e.g. of signup, verification or a password reset. */
export interface MessageResponse {
  message: string;
}

/** Where the browser goes next (a checkout or billing portal page). */
export interface UrlResponse {
  url: string;
}

/** GET /api/user/me: the signed-in owner. */
export interface MeResponse {
  id: number;
  email: string;
  /** null until the first subscription exists; false after a failed payment. */
  hasPaid: boolean | null;
  stripeCustomerId: string | null;
  subscriptionItemId: string | null;
  /** True when the product runs as a demo on test-mode payments: nothing owners do is charged. */
  demoMode: boolean;
}

/** GET /api/billing/subscription. */
export interface SubscriptionResponse {
  /** The provider's status (active, past_due, canceled, …), or `none` before the subscription exists. */
  status: string;
  /** The provider's current billing period (ISO 8601), null without a subscription. */
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  /** Free credits left. */
  creditsCents: number;
  hasPaid: boolean | null;
  subscriptionItemId: string | null;
  /** The period "monthly usage" counts (from the 3rd, 00:00 UTC). */
  usagePeriodStart: string;
  usagePeriodEnd: string;
}

/** The card on file, as the provider describes it (never the full number). */
export interface BillingCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** One of the owner's invoices, newest first. */
export interface BillingInvoice {
  id: string;
  /** When the invoice was created (ISO 8601). */
  created: string;
  amountCents: number;
  /** The provider's status: draft, open, paid, uncollectible or void. */
  status: string;
  /** The provider's page of the invoice, or null (test mode has none). */
  url: string | null;
}

/** GET /api/billing: the Settings' Billing section. */
export interface BillingOverviewResponse {
  card: BillingCard | null;
  invoices: BillingInvoice[];
  /** True when the payment pages are the built-in test mode (no real charge). */
  testMode: boolean;
}

/** GET and PUT /api/user/settings. */
export interface SettingsResponse {
  /** Whole dollars: the owner is e-mailed at each 50% step of this spend per billing period; 0 = no e-mails. */
  spendAlertDollars: number;
  /** Visitors' conversations are deleted this many days after their last message; null = kept forever. */
  conversationRetentionDays: ConversationRetentionDays;
  /** The name visitors see on the owner's replies (1 to 60 characters; 'Support' until chosen). */
  agentName: string;
  /** The IANA time zone of analytics' days and hours and of the monthly report; null = the browser's. */
  timeZone: string | null;
  /** Whether the monthly report mail is sent (on the 3rd, about the period that ended). */
  monthlyReport: boolean;
}

/** GET /api/user/usage. `usageCents` and `monthlyUsageCents` are the same figure (the frontend reads either name). */
export interface UserUsageResponse {
  usageCents: number;
  monthlyUsageCents: number;
  creditsCents: number;
  logsAvailable: boolean;
  /** Answers of the current period the bot could not give: not charged. */
  notChargedAnswers: number;
}

/**
 * A billing period's spend at its end at the period-to-date pace, weekdays weighted like the
 * last four weeks (docs/product.md#spend-forecast). Cents; days are `YYYY-MM-DD` (UTC).
 */
export interface SpendForecastFigures {
  /** The period's last day, included. */
  periodEnd: string;
  spentCents: number;
  forecastCents: number;
  /** The account's spend alert, or the bot's monthly budget; null when it has none. */
  budgetCents: number | null;
  /** The day the budget is (or was) reached at this pace; null when it is not. */
  budgetReachedOn: string | null;
}

/** GET /api/user/usage-forecast: the account's and each of its bots' forecasts. */
export interface UsageForecastResponse {
  account: SpendForecastFigures;
  bots: Array<SpendForecastFigures & { botId: number; botName: string }>;
}

/** GET /api/bots/{id}/usage. */
export interface BotUsageResponse {
  usageCents: number;
  usageLimitDollars: number;
  logsAvailable: boolean;
  /** The bot's answers of the current period it could not give: not charged. */
  notChargedAnswers: number;
}

/**
 * GET /api/user/usage-history and /api/bots/{id}/usage-history: parallel arrays over the last
 * ten calendar days (UTC), oldest first, today last. `labels` are `YYYY-MM-DD`; days without
 * messages are zeros; `costs` are cents.
 */
export interface UsageHistoryResponse {
  labels: string[];
  /** Answers (ledger rows): what the owner pays for. */
  messageCounts: number[];
  /** Messages visitors sent (those still logged; the retention job deletes old conversations). */
  visitorMessages: number[];
  tokensUsed: number[];
  costs: number[];
}
