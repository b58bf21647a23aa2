/**
 * The product's constants, named for what they mean. Money is integer cents; time is UTC.
 * Every price, limit and default of the product (docs/product.md#business-rules) lives here or,
 * when the dashboard or the widget needs it too, in the contract workspace (@botsmith/contract),
 * re-exported below so the server's code has one place to import from.
 */
import { BOT_DEFAULTS, CHAT_REQUEST_LIMITS, MODEL_CATALOGUE, type ModelTier } from '@botsmith/contract';

export {
  ANIMATIONS,
  BILLING_PERIOD_START_DAY,
  BOT_DEFAULTS,
  BOT_TEXT_LIMITS,
  CATEGORY_NAME_MAX,
  DEFAULT_MODEL_TIER,
  DEMO_BOT_ID,
  DOCUMENT_MAX_BYTES,
  FREE_CREDITS_CENTS,
  GRADIENT_DIRECTIONS,
  GRADIENT_MAX_CHARS,
  ICON_MAX_BYTES,
  MAX_TOKENS_RANGE,
  MODEL_CATALOGUE,
  MODEL_TIERS,
  PASSWORD_HINT,
  PASSWORD_PATTERN,
  RADIUS_PERCENT_MAX,
  RADIUS_PX_MAX,
  solidGradient,
  SOURCE_FILE_MAX_BYTES,
  SOURCE_TEXT_LIMITS,
  STARTER_QUESTIONS_LIMITS,
  TEMPERATURE_RANGE,
  USAGE_LIMIT_DOLLARS_MAX,
  WIDGET_LANGUAGE_CHOICES,
  WIDGET_POSITIONS,
} from '@botsmith/contract';
export type { Animation, ModelTier, ModelTierInfo, WidgetLanguageChoice, WidgetPosition } from '@botsmith/contract';

/**
 * The upstream model each tier calls by default. gpt-3.5-turbo and gpt-4-turbo were shut
 * down upstream on 2026-10-23, so their tiers call current models; OPENAI_MODEL_MAP overrides.
 */
export const UPSTREAM_MODELS: Record<ModelTier, string> = {
  'gpt-3.5-turbo': 'gpt-4.1-nano',
  'gpt-4-turbo': 'gpt-4.1',
  'gpt-4o': 'gpt-4o',
  'gpt-4o-mini': 'gpt-4o-mini',
};

/** The price of one answered message on `tier`, in cents (an unknown tier costs the default tier's). */
export function priceOf(tier: ModelTier): number {
  return (MODEL_CATALOGUE[tier] ?? MODEL_CATALOGUE['gpt-3.5-turbo']).priceCents;
}

/** The name of the dashboard's session cookie. */
export const SESSION_COOKIE = 'botsmith.sid';

/** What POST /api/chat accepts (larger is 400) and what of it reaches the model. */
export const CHAT_LIMITS = {
  ...CHAT_REQUEST_LIMITS,
  /** The model sees the last turns of the history only, within a character budget. */
  modelHistoryTurns: 12,
  modelHistoryMaxChars: 12_000,
  /** Passages of the bot's document put in front of the model. */
  retrievalPassages: 4,
  retrievalMaxChars: 6000,
  /**
   * A visitor id the owner's own server sends with the bot's API key (stored with an `api-` prefix
   * in a 64-character column). Widget visitors get theirs from the server (a visitor token).
   */
  visitorIdPattern: /^[A-Za-z0-9_-]{8,60}$/,
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
/** The daily conversation retention job: 03:30 UTC (six-field cron, seconds first). */
export const CONVERSATION_RETENTION_CRON = '0 30 3 * * *';
/** Conversations deleted per transaction by the retention job (their messages go with them). */
export const CONVERSATION_RETENTION_BATCH = 500;
/** The PostgreSQL advisory lock each retention batch holds, so one instance deletes at a time. */
export const CONVERSATION_RETENTION_LOCK_KEY = 4_242_004;
/** A conversation's outcome is decided once it has been quiet this long (docs/product.md#outcomes). */
export const CONVERSATION_OUTCOME_QUIET_MS = 30 * 60 * 1000;
/** The outcome job looks for quiet conversations every 5 minutes (six-field cron, seconds first). */
export const CONVERSATION_OUTCOME_CRON = '0 */5 * * * *';
/** Conversations decided per transaction by the outcome job. */
export const CONVERSATION_OUTCOME_BATCH = 500;
/** The PostgreSQL advisory lock each outcome batch holds, so one instance decides at a time. */
export const CONVERSATION_OUTCOME_LOCK_KEY = 4_242_005;
/** Stripe accepts meter events up to 35 days old; older usage is reported as of 34 days ago. */
export const METER_EVENT_MAX_AGE_MS = 34 * 24 * 60 * 60 * 1000;
/** The built-in test-mode payment page stays open this long, like a Checkout Session. */
export const TEST_CHECKOUT_SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** How many of an owner's latest invoices the Settings' Billing section lists (docs/product.md#billing-api). */
export const BILLING_INVOICES_SHOWN = 12;

/** The usage charts cover this many calendar days (UTC), oldest first. */
export const USAGE_HISTORY_DAYS = 10;
/** The logs export reads the chat log in batches of this many messages (keyset pages). */
export const LOGS_EXPORT_BATCH_ROWS = 1000;
/** Excel refuses a cell longer than this; longer message texts are cut in the export. */
export const XLSX_CELL_MAX_CHARS = 32_767;

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
/**
 * Signup, forgot-password and reset-password requests per client network, counted together in
 * one window and refused before any password is hashed: a flood from one address cannot spend
 * the server's CPU and memory on argon2 or its mail on strangers (SIGNUP_IP_RATE_LIMIT).
 */
export const ACCOUNT_IP_LIMIT_DEFAULT_PER_HOUR = 20;
export const ACCOUNT_IP_LIMIT_WINDOW_MS = 60 * 60 * 1000;

/**
 * The monthly budget a new bot starts with (DEFAULT_BOT_BUDGET_DOLLARS overrides), so that a bot
 * nobody looked after cannot spend without bound: anyone with a script can call a public bot,
 * whatever its allowed domain. The owner may still choose 0 (no limit).
 */
export const DEFAULT_BOT_BUDGET_DOLLARS = BOT_DEFAULTS.usageLimitDollars;

/** The owner is mailed when a bot's period spend reaches these shares of its monthly budget (percent). */
export const BOT_BUDGET_ALERT_STEPS = [50, 80, 100] as const;
/**
 * The account spend alert: a mail each time the period's spend passes another step of this many
 * percent of the owner's threshold (Settings; $20 unless changed, 0 = no mail).
 */
export const ACCOUNT_SPEND_ALERT_STEP_PERCENT = 50;
export const DEFAULT_SPEND_ALERT_DOLLARS = 20;
export const SPEND_ALERT_DOLLARS_MAX = 1_000_000;

/** The demo bot on the landing page (DEMO_BOT_ID) is owned by the system account. */
export const SYSTEM_ACCOUNT_EMAIL = 'system@botsmith.internal';

/**
 * The longest value of each header read before authentication. A longer value is treated as
 * absent or not allowed before any URL parser or regular expression sees it, so the work per
 * request stays bounded whatever a client sends (Node accepts up to 16 KB of headers).
 */
export const HEADER_MAX_CHARS = {
  /** `scheme://host:port`: a host name is at most 253 characters. */
  origin: 1024,
  /** Browsers trim a longer Referer to its origin, so a longer one never comes from a browser. */
  referer: 4096,
  /** The widget's X-Page-Url; also the length of the stored `page_url` column. */
  pageUrl: 2048,
  /** The widget's visitor id: a uuid, at most 64 characters once trimmed (the stored column's length). */
  visitorId: 128,
  /** `Bearer <bot API key>`. */
  authorization: 512,
} as const;

/**
 * How deeply a request body may nest objects and arrays. The deepest body the API takes is three
 * levels (`chatHistory[0].content`); a provider's webhook event is about ten. Deeper is refused
 * before anything walks it (class-transformer recurses once per level).
 */
export const REQUEST_BODY_MAX_DEPTH = 32;

/**
 * The largest JSON or form body the API reads, in bytes. The largest body a person sends is a
 * written answer at its limit (SOURCE_TEXT_LIMITS: 100,000 characters and a name of 200), and a
 * character of Japanese or Chinese is 3 bytes of UTF-8 (one outside the BMP is 4 bytes, but two
 * characters): about 300 KB, with room left for JSON's escapes. (256 KB refused such an answer.)
 */
export const REQUEST_BODY_MAX_BYTES = 320 * 1024;

/**
 * Card pages (the payment provider's customer portal, or the test-mode card page) an account may
 * open a day: each one is a call to the provider, whose rate limit every owner shares
 * (docs/product.md#quotas). Changing a card takes one.
 */
export const BILLING_PORTAL_SESSIONS_PER_DAY = 20;

/** Reference documents are split into passages of about this many characters for retrieval. */
export const DOCUMENT_CHUNK_CHARS = { min: 800, max: 1200 } as const;
/** Beyond this, a document's text is not indexed (a 10 MB PDF rarely has more; it bounds work and rows). */
export const DOCUMENT_MAX_PAGES = 2000;
export const DOCUMENT_MAX_TEXT_CHARS = 5_000_000;

/**
 * Bounds on reading one PDF's text, which runs in a worker thread: a small file can hold a
 * compression bomb (streams that inflate to gigabytes) or a structure that takes minutes to walk.
 * Past `timeoutMs`, past `heapMb` of JavaScript heap, or once the process has grown by `memoryMb`
 * since the extraction began (inflated streams live outside the heap), the worker is ended and
 * the upload refused. At most `concurrency` PDFs are read at once; `maxQueued` more wait.
 */
export const DOCUMENT_EXTRACTION = {
  timeoutMs: 20_000,
  heapMb: 128,
  memoryMb: 256,
  concurrency: 2,
  maxQueued: 16,
} as const;

/**
 * Bounds on reading one crawled page (its HTML parsed in the same worker as uploaded files, under
 * DOCUMENT_EXTRACTION's concurrency limit): the heap and memory limits of a file, but half its
 * time, because a crawl reads up to 500 pages within its own 10 minutes. A page is at most 2 MB;
 * an ordinary page of 2 MB (text and links) parses in about 2 s on a busy machine, while 100 KB
 * of unclosed nested elements takes 15 s and more. A page past these limits is skipped (reason
 * 'too_complex') and the crawl goes on with the others.
 */
export const PAGE_EXTRACTION = {
  timeoutMs: 10_000,
  heapMb: DOCUMENT_EXTRACTION.heapMb,
  memoryMb: DOCUMENT_EXTRACTION.memoryMb,
} as const;

/**
 * What the crawler reads of a site's robots.txt (parsed in the page reader's child process):
 * at most `maxBytes` (Google's limit too), at most `maxRules` Allow/Disallow lines in the group
 * that applies to us; a site past either is not crawled (its robots.txt cannot be honoured, so
 * nothing is read). URLs longer than `maxUrlChars` are not followed. Together they bound the
 * main thread's work per robots check to `maxRules` linear scans of a short URL
 * (docs/product.md#knowledge-sources).
 */
export const CRAWL_ROBOTS_LIMITS = { maxBytes: 500 * 1024, maxRules: 2_000, maxUrlChars: 2_048 } as const;

/**
 * A Word document's XML parts (the document itself, its notes and styles) may inflate to at most
 * this much each: an upload whose zip says more is refused before it is stored.
 */
export const DOCX_MAX_PART_BYTES = 50 * 1024 * 1024;
/** All sources of one bot together, unless SOURCES_MAX_BYTES_PER_BOT says otherwise. */
export const SOURCES_MAX_BYTES_PER_BOT_DEFAULT = 50 * 1024 * 1024;
/** A written answer: its title and text. */
/**
 * Extraction jobs: how often an idle instance looks for work, how long a claim holds before another
 * instance may take the job over (an instance that died mid-job), and how many claims a job gets
 * before it is marked failed (a file that kills its worker every time).
 */
// The lease outlasts the crawler's own 10-minute limit on one crawl.
export const SOURCE_JOB_DEFAULTS = { pollMs: 2000, leaseMs: 20 * 60_000, maxAttempts: 3 } as const;

/**
 * Fair source jobs (docs/product.md#knowledge-sources): one instance runs at most `crawls` website
 * crawls and `files` file jobs at once, in separate slots, so a small upload never waits behind
 * a crawl; each pool is taken round-robin per owner, at most SOURCE_JOBS_PER_OWNER
 * (`perOwner`) of one owner's jobs per pool on an instance. Every `watchMs` the instance checks
 * that its running jobs' sources still exist (deleted with their bot or account on any
 * instance): a crawl whose source is gone is aborted.
 */
export const SOURCE_JOB_SLOTS = { crawls: 4, files: 2, perOwner: 1, watchMs: 1000 } as const;
/**
 * Owner-requested work per UTC day: website sources added (WEBSITE_SOURCES_PER_OWNER_PER_DAY)
 * and refreshes asked for (SOURCE_REFRESHES_PER_OWNER_PER_DAY); scheduled refreshes do not count.
 */
export const SOURCE_DAILY_LIMIT_DEFAULTS = { websites: 20, refreshes: 50 } as const;

/**
 * Passage embeddings (hybrid retrieval): texts per request to the embeddings server (OpenAI takes
 * up to 2048; local servers are slower with large batches); how long a question's embedding may
 * take before the answer goes on with full-text search alone; how long a claimed embedding job
 * holds; how many attempts a source gets, waiting `retryBaseMs` doubled after each failure (at
 * most `retryMaxMs`), before it is marked and answered from full-text search only.
 */
export const EMBEDDING_DEFAULTS = {
  batchSize: 64,
  queryTimeoutMs: 5000,
  leaseMs: 10 * 60_000,
  maxAttempts: 6,
  retryBaseMs: 60_000,
  retryMaxMs: 6 * 60 * 60_000,
} as const;
/** Hybrid retrieval: candidates taken from each ranking before fusion, and the fusion's constant. */
export const HYBRID_RETRIEVAL = { candidates: 50, rrfK: 60 } as const;

/**
 * When retrieval found something relevant to a question (else the answer is flagged unanswered).
 * Full-text search matches passages sharing ANY one of the question's terms, so a single common
 * word ("price", "order") pulls in passages about something else; holding at least half of the
 * question's distinct terms means the passage is about the question's subject (both terms of
 * "opening hours", two of "refund policy for parcels"). With embeddings, a passage in other words
 * counts when its cosine similarity reaches 0.4: OpenAI's text-embedding-3 models put unrelated
 * texts around 0.0-0.25 and paraphrases of one subject above 0.4. A flag too many costs the owner
 * a glance at a good answer; a flag too few hides a gap in the bot's knowledge.
 */
export const RETRIEVAL_RELEVANCE = { minTermCoverage: 0.5, minVectorSimilarity: 0.4 } as const;

/**
 * English synonyms added to a question before full-text search (knowledge/synonyms.ts): each
 * word's `sensesPerWord` most frequent WordNet senses give at most `perWord` one-word synonyms;
 * a word with more than `maxSensesOfWord` senses ("get", "take", "set") is left as it is.
 * `cacheEntries` words' synonyms are kept in memory.
 */
export const SYNONYM_EXPANSION = {
  sensesPerWord: 3,
  perWord: 8,
  maxSensesOfWord: 20,
  cacheEntries: 20_000,
} as const;

/**
 * What one account, bot or conversation may use, so no tenant can flood or starve the others
 * (docs/product.md#quotas); each has its environment variable. Days are UTC calendar days.
 * - handoffMessagesPerConversationPerDay: a visitor's messages in a conversation a person handles
 *   (never charged, so only this and the chat rate limits bound them).
 * - leadsPerBotPerDay: each lead mails the owner.
 * - sourcesMaxBytesPerAccount: all sources of all the account's bots, beside the per-bot quota.
 * - embeddedPassagesPerAccountPerDay: passages sent to the embeddings model (Botsmith pays for
 *   them); past it a source answers by full-text search and its embedding waits for the next day.
 * - replyStreamsPerInstance: open replies streams on one API instance (each polls the database).
 */
export const QUOTA_DEFAULTS = {
  handoffMessagesPerConversationPerDay: 30,
  leadsPerBotPerDay: 100,
  maxBotsPerAccount: 50,
  sourcesMaxBytesPerAccount: 500 * 1024 * 1024,
  embeddedPassagesPerAccountPerDay: 20_000,
  replyStreamsPerInstance: 500,
} as const;
/**
 * The first key of the PostgreSQL transaction advisory locks that make a quota check and the write
 * it admits one step per account (or bot): two requests at once cannot both pass the last place.
 */
export const QUOTA_LOCKS = { bots: 4_242_101, sourceBytes: 4_242_102, leads: 4_242_103 } as const;

/**
 * Mail that owners (or their visitors) can trigger (docs/product.md#mail-consent): lead notices,
 * replies to visitors and confirmation requests.
 * - dailyPerAccount: the default of MAIL_DAILY_LIMIT_PER_ACCOUNT, per UTC day.
 * - confirmationLinkMs: how long a confirmation link works.
 * - resendAfterMs: the least time between two confirmation requests to one lead address.
 * - requestsPerLeadAddress: confirmation requests one lead address receives from one account, ever
 *   (the first and the owner's resends): a stranger's address cannot be mailed again and again.
 * - digestWindowMs / singleNoticesPerWindow: lead notices to one address within the window go out
 *   one by one up to this number; the rest of the window goes out as one digest at its end.
 */
export const MAIL_LIMITS = {
  dailyPerAccount: 500,
  confirmationLinkMs: 30 * 24 * 60 * 60 * 1000,
  resendAfterMs: 10 * 60 * 1000,
  requestsPerLeadAddress: 3,
  digestWindowMs: 10 * 60 * 1000,
  singleNoticesPerWindow: 5,
} as const;

/**
 * An upload refused while it is still being sent (413 on its declared length): the rest of its
 * body is read and dropped, up to these bounds, before the connection is closed. Closing at once
 * would reset a connection the client is still writing to, and most clients then report a broken
 * connection (EPIPE) instead of the answer (docs/product.md#files).
 */
export const REFUSED_UPLOAD_DRAIN = { maxBytes: 64 * 1024 * 1024, maxMs: 60_000 } as const;
