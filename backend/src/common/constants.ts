/**
 * The product's constants, named for what they mean. Money is integer cents; time is UTC.
 * Every price, limit and default of the brief lives here and nowhere else.
 */

/** The brief's four model tiers. The tier is what the owner picks and what the visitor pays. */
export const MODEL_TIERS = ['gpt-3.5-turbo', 'gpt-4-turbo', 'gpt-4o', 'gpt-4o-mini'] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];

export interface ModelTierInfo {
  tier: ModelTier;
  label: string;
  priceCents: number;
  /**
   * The upstream model called for this tier by default. gpt-3.5-turbo and gpt-4-turbo were shut
   * down upstream on 2026-10-23, so their tiers call current models; OPENAI_MODEL_MAP overrides.
   */
  defaultUpstreamModel: string;
}

export const MODEL_CATALOGUE: Record<ModelTier, ModelTierInfo> = {
  'gpt-3.5-turbo': {
    tier: 'gpt-3.5-turbo',
    label: 'GPT-3.5 Turbo',
    priceCents: 3,
    defaultUpstreamModel: 'gpt-4.1-nano',
  },
  'gpt-4-turbo': { tier: 'gpt-4-turbo', label: 'GPT-4 Turbo', priceCents: 4, defaultUpstreamModel: 'gpt-4.1' },
  'gpt-4o': { tier: 'gpt-4o', label: 'GPT-4 Omni', priceCents: 5, defaultUpstreamModel: 'gpt-4o' },
  'gpt-4o-mini': { tier: 'gpt-4o-mini', label: 'GPT-4o Mini', priceCents: 4, defaultUpstreamModel: 'gpt-4o-mini' },
};

export const DEFAULT_MODEL_TIER: ModelTier = 'gpt-3.5-turbo';

/** What POST /api/chat accepts (larger is 400) and what of it reaches the model. */
export const CHAT_LIMITS = {
  promptMaxChars: 2000,
  historyMaxItems: 50,
  historyItemMaxChars: 4000,
  historyTotalMaxChars: 50_000,
  /** The model sees the last turns of the history only, within a character budget. */
  modelHistoryTurns: 12,
  modelHistoryMaxChars: 12_000,
  /** Passages of the bot's document put in front of the model. */
  retrievalPassages: 4,
  retrievalMaxChars: 6000,
  /** A visitor id the widget sends (a uuid); anything else falls back to a hash of IP + user agent. */
  visitorIdPattern: /^[A-Za-z0-9_-]{8,64}$/,
} as const;

/** Messages per minute (per visitor and bot, per client IP and bot, per bot); env variables override. */
export const CHAT_RATE_LIMIT_DEFAULTS = { visitorPerMinute: 20, ipPerMinute: 60, botPerMinute: 300 } as const;

/**
 * A message in flight holds its visitor's lock and its budget reservation at most this long, so
 * a crashed instance cannot block a visitor or a budget for ever.
 */
export const CHAT_IN_FLIGHT_TTL_MS = 5 * 60_000;

/** Answers of the embedded model (no OPENAI_API_KEY) start with this, so nobody mistakes them. */
export const OFFLINE_MODEL_PREFIX = '(Offline demo model) ';
export const OFFLINE_MODEL_NAME = 'offline-demo';

/** $5 of free credits for every new account, spent before anything is billed. */
export const FREE_CREDITS_CENTS = 500;

/** Monthly usage runs from the 3rd of a month, 00:00 UTC, to the next 3rd. */
export const BILLING_PERIOD_START_DAY = 3;

/** The monthly billing job: 00:00 UTC on the 3rd (six-field cron, seconds first). */
export const BILLING_CYCLE_CRON = '0 0 0 3 * *';
/** Billable usage is sent to the payment provider soon after each charge: every minute. */
export const METER_REPORT_CRON = '30 * * * * *';
/** Ledger rows reported per batch (each batch is one short pass). */
export const METER_REPORT_BATCH = 100;
/** Meter events sent at once by the frequent pass (each is independent and idempotent). */
export const METER_REPORT_CONCURRENCY = 8;
/** The PostgreSQL advisory lock the billing job holds, so exactly one instance runs it. */
export const BILLING_CYCLE_LOCK_KEY = 4_242_003;
/** Stripe accepts meter events up to 35 days old; older usage is reported as of 34 days ago. */
export const METER_EVENT_MAX_AGE_MS = 34 * 24 * 60 * 60 * 1000;
/** The built-in test-mode payment page stays open this long, like a Checkout Session. */
export const TEST_CHECKOUT_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** The usage charts cover this many calendar days (UTC), oldest first. */
export const USAGE_HISTORY_DAYS = 10;
/** The logs export reads the chat log in batches of this many messages (keyset pages). */
export const LOGS_EXPORT_BATCH_ROWS = 1000;
/** Excel refuses a cell longer than this; longer message texts are cut in the export. */
export const XLSX_CELL_MAX_CHARS = 32_767;

export const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*[!@#$%^&*])[A-Za-z\d!@#$%^&*]{8,}$/;
export const PASSWORD_HINT =
  'Minimum 8 characters, including one uppercase letter, one lowercase letter, and one special character';

export const VERIFY_EMAIL_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_PASSWORD_TOKEN_TTL_MS = 60 * 60 * 1000;

/**
 * Login throttling counts FAILED attempts (wrong password or unknown e-mail) per e-mail and per
 * client IP; once `limit` failures fall inside the window, that key is refused (429) for the window.
 */
export const LOGIN_FAILURE_LIMITS = {
  perEmail: { limit: 5, windowMs: 15 * 60 * 1000 },
  perIp: { limit: 20, windowMs: 15 * 60 * 1000 },
} as const;
/** Signup and forgot-password requests per e-mail address: nobody can mail-bomb one inbox. */
export const ACCOUNT_MAIL_LIMIT = { limit: 5, windowMs: 15 * 60 * 1000 } as const;

export const ICON_MAX_BYTES = 512_000;
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

export const MAX_TOKENS_RANGE = { min: 1, max: 2000 } as const;
export const TEMPERATURE_RANGE = { min: 0, max: 2 } as const;

export const GRADIENT_DIRECTIONS = ['to right', 'to bottom', '135deg', 'to left', 'to top'] as const;
export const ANIMATIONS = ['none', 'blowup', 'glow', 'slide', 'rotate', 'shake', 'drop', 'roll'] as const;
export const WIDGET_POSITIONS = ['left', 'right'] as const;

export type Animation = (typeof ANIMATIONS)[number];
export type WidgetPosition = (typeof WIDGET_POSITIONS)[number];

/** A colour as the brief stores it: a gradient, solid when both stops are equal. */
export function solidGradient(hex: string): string {
  return `linear-gradient(to right, ${hex}, ${hex})`;
}

/** Every default of the brief's section 9 for a new bot. */
export const BOT_DEFAULTS = {
  prompt: '',
  customGreeting: 'Hi! How can I help you today?',
  model: DEFAULT_MODEL_TIER,
  allowedDomain: '',
  bubbleIcon: '',
  bubbleColor: solidGradient('#2ecc71'),
  bubbleTextColor: solidGradient('#ffffff'),
  bubbleBorderRadius: '50%',
  chatWindowBorderRadius: '10px',
  bannerColor: solidGradient('#2ecc71'),
  bannerTextColor: solidGradient('#ffffff'),
  bannerDisclaimer: '',
  placeholderText: 'Type your message here...',
  placeholderTextColor: solidGradient('#000000'),
  sendButtonColor: solidGradient('#2ecc71'),
  sendArrowColor: solidGradient('#ffffff'),
  widgetBubbleColor: solidGradient('#ff9800'),
  assistantBubbleColor: solidGradient('#f1f0f0'),
  assistantBubbleTextColor: solidGradient('#000000'),
  widgetBackgroundColor: solidGradient('#ffffff'),
  animation: 'none' as Animation,
  widgetPosition: 'right' as WidgetPosition,
  maxTokens: 300,
  temperature: 0.3,
  usageLimitDollars: 0,
} as const;

/** The demo bot on the landing page is bot 1, owned by the system account. */
export const DEMO_BOT_ID = 1;
export const SYSTEM_ACCOUNT_EMAIL = 'system@botsmith.internal';

/** Bounds of the bot fields the dashboard edits (brief section 5), sized to their columns. */
export const BOT_TEXT_LIMITS = {
  name: 100,
  customGreeting: 1000,
  prompt: 20_000,
  bannerDisclaimer: 300,
  placeholderText: 120,
  allowedDomain: 253,
  bubbleIcon: 500,
} as const;
export const CATEGORY_NAME_MAX = 100;
/** Whole dollars; 0 means no limit. The cap only keeps the value inside a 32-bit column. */
export const USAGE_LIMIT_DOLLARS_MAX = 1_000_000;
/** Corner radii: `0`, or a number with px (0-999) or % (0-100). */
export const RADIUS_PX_MAX = 999;
export const RADIUS_PERCENT_MAX = 100;

/** Reference documents are split into passages of about this many characters for retrieval. */
export const DOCUMENT_CHUNK_CHARS = { min: 800, max: 1200 } as const;
/** Beyond this, a document's text is not indexed (a 10 MB PDF rarely has more; it bounds work and rows). */
export const DOCUMENT_MAX_PAGES = 2000;
export const DOCUMENT_MAX_TEXT_CHARS = 5_000_000;
