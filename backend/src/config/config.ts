import path from 'node:path';
import { CHAT_RATE_LIMIT_DEFAULTS } from '../common/constants.js';
import { validateEnvironment, type EnvironmentVariables } from './environment.js';

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
  /** Chat protections: messages per minute per visitor (and bot), per client IP (and bot), per bot. */
  chat: { visitorPerMinute: number; ipPerMinute: number; botPerMinute: number; offlineWordDelayMs: number };
  s3?: { bucket: string; region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string };
  redisUrl?: string;
  mixpanelToken?: string;
  supportEmail: string;
  runScheduler: boolean;
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
    chat: {
      visitorPerMinute: e.CHAT_VISITOR_RATE_LIMIT ?? CHAT_RATE_LIMIT_DEFAULTS.visitorPerMinute,
      ipPerMinute: e.CHAT_IP_RATE_LIMIT ?? CHAT_RATE_LIMIT_DEFAULTS.ipPerMinute,
      botPerMinute: e.CHAT_BOT_RATE_LIMIT ?? CHAT_RATE_LIMIT_DEFAULTS.botPerMinute,
      offlineWordDelayMs: e.OFFLINE_MODEL_WORD_DELAY_MS ?? 20,
    },
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
    staticRoots: {
      frontend: path.join(repoRoot, 'frontend', 'dist'),
      widget: path.join(repoRoot, 'widget', 'dist'),
    },
  };
}

/** backend/dist/config or backend/src/config -> repository root. */
function defaultRepoRoot(): string {
  return path.resolve(import.meta.dirname, '..', '..', '..');
}
