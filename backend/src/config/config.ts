import path from 'node:path';
import {
  ACCOUNT_IP_LIMIT_DEFAULT_PER_HOUR,
  CHAT_RATE_LIMIT_DEFAULTS,
  DEFAULT_BOT_BUDGET_DOLLARS,
  SOURCE_DAILY_LIMIT_DEFAULTS,
  SOURCE_JOB_DEFAULTS,
  SOURCE_JOB_SLOTS,
  SOURCES_MAX_BYTES_PER_BOT_DEFAULT,
  QUOTA_DEFAULTS,
  MAIL_LIMITS,
} from '../common/constants.js';
import { parseTrustProxy, validateEnvironment, type EnvironmentVariables } from './environment.js';

/** The typed configuration tree. Built once at boot; adapters switch on what is present. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  logLevel: string;
  dataDir: string;
  database: { url?: string; poolSize: number };
  session: { secret?: string; idleMinutes: number; absoluteHours: number };
  mail: { smtpUrl?: string; from: string };
  stripe?: {
    secretKey: string;
    webhookSecret?: string;
    priceId?: string;
    meterEventName: string;
    apiUrl?: string;
  };
  openai?: {
    apiKey: string;
    baseUrl?: string;
    modelMap: Record<string, string>;
    /** Per attempt, until the response headers arrive (the SDK's timeout); also the longest silence mid-stream. */
    timeoutMs: number;
    /** The SDK's own retries of connection errors, 408/409/429 and 5xx, before any token arrived. */
    maxRetries: number;
  };
  /**
   * Passage embeddings for hybrid retrieval (OPENAI_EMBEDDING_MODEL), through the OpenAI key and
   * server; absent: retrieval is full-text only.
   */
  embeddings?: {
    apiKey: string;
    baseUrl?: string;
    model: string;
    /** Asked of models that can shorten their vectors (text-embedding-3-*); else the model's own. */
    dimensions?: number;
    /** Per request while indexing; a question is embedded with a shorter timeout and no retry. */
    timeoutMs: number;
    maxRetries: number;
  };
  /** Chat protections: messages per minute per visitor (and bot), per client IP (and bot), per bot. */
  chat: { visitorPerMinute: number; ipPerMinute: number; botPerMinute: number; offlineWordDelayMs: number };
  /**
   * Knowledge sources: bytes a bot may hold; how often this instance looks for extraction jobs
   * (0: never, an instance that only serves requests); how long a claimed job is held.
   */
  sources: {
    maxBytesPerBot: number;
    jobPollMs: number;
    jobLeaseMs: number;
    /** SOURCE_JOBS_PER_OWNER: an owner's crawls (and, apart, file jobs) running at once on an instance. */
    jobsPerOwner: number;
    /** Website sources an owner may add, and refreshes they may ask for, per UTC day. */
    websitesPerOwnerPerDay: number;
    refreshesPerOwnerPerDay: number;
  };
  /** The monthly budget (whole dollars) a new bot starts with; 0 = no limit. */
  defaultBotBudgetDollars: number;
  /**
   * What one account, bot or conversation may use (docs/product.md#quotas): handoff messages per
   * conversation and leads per bot per UTC day, bots and source bytes per account, passages
   * embedded per account per UTC day (0: none), open replies streams on this instance.
   */
  quotas: {
    handoffMessagesPerConversationPerDay: number;
    leadsPerBotPerDay: number;
    maxBotsPerAccount: number;
    sourcesMaxBytesPerAccount: number;
    embeddedPassagesPerAccountPerDay: number;
    replyStreamsPerInstance: number;
  };
  /** Signup, forgot-password and reset-password requests per client network (IPv4, IPv6 /64) per hour, together. */
  accountRequestsPerIpPerHour: number;
  s3?: { bucket: string; region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string };
  redisUrl?: string;
  mixpanelToken?: string;
  supportEmail: string;
  runScheduler: boolean;
  /**
   * ALLOW_DEMO_ADAPTERS=true: the built-in test-mode payments and the mail outbox are allowed in
   * production (a demo). With test-mode payments the dashboard then says "no real charges".
   */
  allowDemoAdapters: boolean;
  /** Express `trust proxy`: a hop count, or the proxies' addresses/CIDRs (default: loopback). */
  trustProxy: number | string[];
  /**
   * Website crawling for knowledge sources. `allowPrivate` (CRAWL_ALLOW_PRIVATE=true) lets the
   * crawler reach private, loopback and link-local addresses and any port (tests, intranets);
   * cloud metadata addresses stay refused.
   */
  crawl: { allowPrivate: boolean; userAgent: string };
  /**
   * Webhook deliveries (docs/product.md#webhooks). `allowPrivate` (WEBHOOK_ALLOW_PRIVATE=true)
   * accepts http:// endpoints and private or loopback addresses on any port (tests, local
   * development); cloud metadata addresses stay refused. `pollMs` (WEBHOOK_POLL_MS): how often this
   * instance looks for due deliveries, 0 = never (an instance that only serves requests).
   * `sendsPerInstance` (WEBHOOK_SENDS_PER_INSTANCE): requests this instance has in flight at most;
   * `sendsPerOwner` (WEBHOOK_SENDS_PER_OWNER): an owner's endpoints served at once, so one owner's
   * slow endpoints cannot take every place (each endpoint has at most one request in flight anyway).
   */
  webhooks: {
    allowPrivate: boolean;
    pollMs: number;
    timeoutMs: number;
    sendsPerInstance: number;
    sendsPerOwner: number;
  };
  /**
   * Actions (docs/product.md#actions). `allowPrivate` (ACTIONS_ALLOW_PRIVATE=true) accepts http://
   * URLs and private or loopback addresses on any port (tests, local development); cloud metadata
   * addresses stay refused. `encryptionKey` (ACTIONS_ENCRYPTION_KEY) seals header values; without
   * it they are sealed under a key derived from the session secret.
   */
  actions: { allowPrivate: boolean; encryptionKey?: string };
  /**
   * Mail owners can trigger (docs/product.md#mail-consent): `dailyPerAccount`
   * (MAIL_DAILY_LIMIT_PER_ACCOUNT) per UTC day; `digestPollMs` (LEAD_DIGEST_POLL_MS): how often this
   * instance looks for lead digests that are due, 0 = never.
   */
  mailLimits: { dailyPerAccount: number; digestPollMs: number };
  /** Where the built frontend and widget live; served by the API process. */
  staticRoots: { frontend: string; widget: string };
}

export const APP_CONFIG = Symbol('APP_CONFIG');

function parseModelMap(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  return Object.fromEntries(raw.split(',').map((pair) => pair.split('=', 2) as [string, string]));
}

export function buildConfig(raw: NodeJS.ProcessEnv = process.env, repoRoot = defaultRepoRoot()): AppConfig {
  const e: EnvironmentVariables = validateEnvironment(raw);
  const port = e.PORT ?? 3000;
  return {
    env: (e.NODE_ENV as AppConfig['env'] | undefined) ?? 'development',
    port,
    host: e.HOST ?? '0.0.0.0',
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL ?? 'info',
    dataDir: path.resolve(e.DATA_DIR ?? path.join(repoRoot, 'data')),
    database: { url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE ?? 10 },
    session: {
      secret: e.SESSION_SECRET,
      idleMinutes: e.SESSION_IDLE_MINUTES ?? 60 * 24,
      absoluteHours: e.SESSION_ABSOLUTE_HOURS ?? 24 * 14,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? 'Botsmith <no-reply@botsmith.local>' },
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          priceId: e.STRIPE_PRICE_ID,
          meterEventName: e.STRIPE_METER_EVENT_NAME ?? 'botsmith_messages',
          apiUrl: e.STRIPE_API_URL,
        }
      : undefined,
    openai: e.OPENAI_API_KEY
      ? {
          apiKey: e.OPENAI_API_KEY,
          baseUrl: e.OPENAI_BASE_URL,
          modelMap: parseModelMap(e.OPENAI_MODEL_MAP),
          timeoutMs: e.OPENAI_TIMEOUT_MS ?? 60_000,
          maxRetries: e.OPENAI_MAX_RETRIES ?? 2,
        }
      : undefined,
    embeddings:
      e.OPENAI_EMBEDDING_MODEL && e.OPENAI_API_KEY
        ? {
            apiKey: e.OPENAI_API_KEY,
            baseUrl: e.OPENAI_BASE_URL,
            model: e.OPENAI_EMBEDDING_MODEL,
            dimensions: e.OPENAI_EMBEDDING_DIMENSIONS,
            timeoutMs: e.OPENAI_TIMEOUT_MS ?? 60_000,
            maxRetries: e.OPENAI_MAX_RETRIES ?? 2,
          }
        : undefined,
    chat: {
      visitorPerMinute: e.CHAT_VISITOR_RATE_LIMIT ?? CHAT_RATE_LIMIT_DEFAULTS.visitorPerMinute,
      ipPerMinute: e.CHAT_IP_RATE_LIMIT ?? CHAT_RATE_LIMIT_DEFAULTS.ipPerMinute,
      botPerMinute: e.CHAT_BOT_RATE_LIMIT ?? CHAT_RATE_LIMIT_DEFAULTS.botPerMinute,
      offlineWordDelayMs: e.OFFLINE_MODEL_WORD_DELAY_MS ?? 20,
    },
    sources: {
      maxBytesPerBot: e.SOURCES_MAX_BYTES_PER_BOT ?? SOURCES_MAX_BYTES_PER_BOT_DEFAULT,
      jobPollMs: e.SOURCE_JOBS_POLL_MS ?? SOURCE_JOB_DEFAULTS.pollMs,
      jobLeaseMs: e.SOURCE_JOBS_LEASE_MS ?? SOURCE_JOB_DEFAULTS.leaseMs,
      jobsPerOwner: e.SOURCE_JOBS_PER_OWNER ?? SOURCE_JOB_SLOTS.perOwner,
      websitesPerOwnerPerDay: e.WEBSITE_SOURCES_PER_OWNER_PER_DAY ?? SOURCE_DAILY_LIMIT_DEFAULTS.websites,
      refreshesPerOwnerPerDay: e.SOURCE_REFRESHES_PER_OWNER_PER_DAY ?? SOURCE_DAILY_LIMIT_DEFAULTS.refreshes,
    },
    defaultBotBudgetDollars: e.DEFAULT_BOT_BUDGET_DOLLARS ?? DEFAULT_BOT_BUDGET_DOLLARS,
    quotas: {
      handoffMessagesPerConversationPerDay:
        e.HANDOFF_MESSAGES_PER_CONVERSATION_PER_DAY ?? QUOTA_DEFAULTS.handoffMessagesPerConversationPerDay,
      leadsPerBotPerDay: e.LEADS_PER_BOT_PER_DAY ?? QUOTA_DEFAULTS.leadsPerBotPerDay,
      maxBotsPerAccount: e.MAX_BOTS_PER_ACCOUNT ?? QUOTA_DEFAULTS.maxBotsPerAccount,
      sourcesMaxBytesPerAccount: e.SOURCES_MAX_BYTES_PER_ACCOUNT ?? QUOTA_DEFAULTS.sourcesMaxBytesPerAccount,
      embeddedPassagesPerAccountPerDay:
        e.EMBEDDED_PASSAGES_PER_ACCOUNT_PER_DAY ?? QUOTA_DEFAULTS.embeddedPassagesPerAccountPerDay,
      replyStreamsPerInstance: e.REPLY_STREAMS_PER_INSTANCE ?? QUOTA_DEFAULTS.replyStreamsPerInstance,
    },
    accountRequestsPerIpPerHour: e.SIGNUP_IP_RATE_LIMIT ?? ACCOUNT_IP_LIMIT_DEFAULT_PER_HOUR,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          region: e.S3_REGION ?? 'us-east-1',
          endpoint: e.S3_ENDPOINT,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        }
      : undefined,
    redisUrl: e.REDIS_URL,
    mixpanelToken: e.MIXPANEL_TOKEN,
    supportEmail: e.SUPPORT_EMAIL ?? 'support@botsmith.dev',
    runScheduler: (e.RUN_SCHEDULER ?? 'true') === 'true',
    allowDemoAdapters: e.ALLOW_DEMO_ADAPTERS === 'true',
    trustProxy: (e.TRUST_PROXY === undefined ? null : parseTrustProxy(e.TRUST_PROXY)) ?? ['loopback'],
    crawl: {
      allowPrivate: e.CRAWL_ALLOW_PRIVATE === 'true',
      userAgent: `BotsmithBot/1.0 (+${(e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '')})`,
    },
    webhooks: {
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
      pollMs: e.WEBHOOK_POLL_MS ?? 10_000,
      timeoutMs: 10_000,
      sendsPerInstance: e.WEBHOOK_SENDS_PER_INSTANCE ?? 50,
      sendsPerOwner: e.WEBHOOK_SENDS_PER_OWNER ?? 3,
    },
    actions: { allowPrivate: e.ACTIONS_ALLOW_PRIVATE === 'true', encryptionKey: e.ACTIONS_ENCRYPTION_KEY },
    mailLimits: {
      dailyPerAccount: e.MAIL_DAILY_LIMIT_PER_ACCOUNT ?? MAIL_LIMITS.dailyPerAccount,
      digestPollMs: e.LEAD_DIGEST_POLL_MS ?? 30_000,
    },
    staticRoots: {
      frontend: path.join(repoRoot, 'frontend', 'dist'),
      widget: path.join(repoRoot, 'widget', 'dist'),
    },
  };
}

/**
 * Whether owners should be told that nothing they do is charged: the demo adapters were asked
 * for and payments are the built-in test mode.
 */
export function isDemoMode(config: AppConfig): boolean {
  return config.allowDemoAdapters && config.stripe === undefined;
}

/** Sentences worth one warning at start: a valid configuration that is probably a mistake. */
export function configWarnings(config: AppConfig): string[] {
  const warnings: string[] = [];
  if (config.env === 'production' && config.stripe?.secretKey.startsWith('sk_test_')) {
    warnings.push(
      'STRIPE_SECRET_KEY is a test key (sk_test_) in production: Stripe takes no real payments. Use an sk_live_ key.',
    );
  }
  return warnings;
}

/** backend/dist/config or backend/src/config -> repository root. */
function defaultRepoRoot(): string {
  return path.resolve(import.meta.dirname, '..', '..', '..');
}
