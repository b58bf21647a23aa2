import { isIP } from 'node:net';
import { plainToInstance } from 'class-transformer';
import {
  IsBooleanString,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  Validate,
  ValidateIf,
  ValidatorConstraint,
  validateSync,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { USAGE_LIMIT_DOLLARS_MAX } from '../common/constants.js';

/** Names express (proxy-addr) accepts for address ranges in `trust proxy`. */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY is how many proxies stand in front of the app (a hop count: 1 behind one nginx),
 * or which addresses are proxies (comma-separated addresses, CIDRs, or express's names
 * loopback, linklocal, uniquelocal). `true` (trust every hop) is refused: a client could then
 * name any address it likes in X-Forwarded-For and escape every per-IP limit.
 */
export function parseTrustProxy(raw: string): number | string[] | null {
  const value = raw.trim();
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const valid = entries.every((entry) => {
    if (TRUST_PROXY_NAMES.has(entry)) return true;
    const [address, prefix, extra] = entry.split('/');
    // A zone id (fe80::1%eth0) passes isIP but not proxy-addr's parser.
    const family = address.includes('%') ? 0 : isIP(address);
    if (family === 0 || extra !== undefined) return false;
    if (prefix === undefined) return true;
    return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
  });
  return valid && entries.length > 0 ? entries : null;
}

@ValidatorConstraint({ name: 'trustProxy' })
class TrustProxyRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && parseTrustProxy(value) !== null;
  }

  defaultMessage(): string {
    return (
      'TRUST_PROXY must be a hop count (1 behind one reverse proxy) or a comma-separated list of proxy ' +
      'addresses or CIDRs (e.g. 10.0.0.0/8,loopback)'
    );
  }
}

/**
 * Every environment variable the backend reads, with its rule. Only this file reads
 * `process.env`; the rest of the code gets the typed tree of `config.ts`.
 */
export class EnvironmentVariables {
  @IsOptional() @IsIn(['development', 'production', 'test']) NODE_ENV?: string;
  @IsOptional() @IsInt() @Min(0) @Max(65535) PORT?: number;
  @IsOptional() @IsString() HOST?: string;
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true }) PUBLIC_URL?: string;
  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL?: string;
  @IsOptional() @IsString() DATA_DIR?: string;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must start with postgres:// or postgresql://' })
  DATABASE_URL?: string;
  @IsOptional() @IsInt() @Min(1) @Max(200) DATABASE_POOL_SIZE?: number;

  @IsOptional()
  @IsString()
  @Matches(/^.{32,}$/, { message: 'SESSION_SECRET must be at least 32 characters long' })
  SESSION_SECRET?: string;
  @IsOptional() @IsInt() @Min(1) SESSION_IDLE_MINUTES?: number;
  @IsOptional() @IsInt() @Min(1) SESSION_ABSOLUTE_HOURS?: number;

  @IsOptional() @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must start with smtp:// or smtps://' }) SMTP_URL?: string;
  @IsOptional() @IsString() MAIL_FROM?: string;

  @IsOptional()
  @Matches(/^sk_(test|live)_/, { message: 'STRIPE_SECRET_KEY must start with sk_test_ or sk_live_' })
  STRIPE_SECRET_KEY?: string;
  // With a Stripe key, billing cannot work without these two (checkout needs the price, webhooks
  // the secret): refuse to start rather than fail at the first owner's checkout.
  @ValidateIf(
    (env: EnvironmentVariables) => env.STRIPE_SECRET_KEY !== undefined || env.STRIPE_WEBHOOK_SECRET !== undefined,
  )
  @IsDefined({
    message: 'STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY (the signing secret of the webhook endpoint)',
  })
  @Matches(/^whsec_/, { message: 'STRIPE_WEBHOOK_SECRET must start with whsec_' })
  STRIPE_WEBHOOK_SECRET?: string;
  @ValidateIf((env: EnvironmentVariables) => env.STRIPE_SECRET_KEY !== undefined || env.STRIPE_PRICE_ID !== undefined)
  @IsDefined({ message: 'STRIPE_PRICE_ID is required with STRIPE_SECRET_KEY (the metered price owners subscribe to)' })
  @IsString()
  STRIPE_PRICE_ID?: string;
  @IsOptional() @IsString() STRIPE_METER_EVENT_NAME?: string;
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true }) STRIPE_API_URL?: string;

  @IsOptional() @IsString() OPENAI_API_KEY?: string;
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true }) OPENAI_BASE_URL?: string;
  @IsOptional()
  @Matches(/^([\w.-]+=[\w.:/-]+)(,[\w.-]+=[\w.:/-]+)*$/, {
    message: 'OPENAI_MODEL_MAP must look like gpt-3.5-turbo=gpt-4.1-mini,gpt-4o=gpt-4.1',
  })
  OPENAI_MODEL_MAP?: string;
  @IsOptional() @IsInt() @Min(1000) @Max(600_000) OPENAI_TIMEOUT_MS?: number;
  @IsOptional() @IsInt() @Min(0) @Max(10) OPENAI_MAX_RETRIES?: number;
  /** An embeddings model switches retrieval to hybrid; it is called through the same key and server. */
  @IsOptional()
  @Matches(/^[\w.:/@-]{1,200}$/, {
    message: 'OPENAI_EMBEDDING_MODEL must be a model id such as text-embedding-3-small',
  })
  OPENAI_EMBEDDING_MODEL?: string;
  @IsOptional() @IsInt() @Min(1) @Max(8192) OPENAI_EMBEDDING_DIMENSIONS?: number;

  @IsOptional() @IsInt() @Min(1) CHAT_VISITOR_RATE_LIMIT?: number;
  @IsOptional() @IsInt() @Min(1) CHAT_IP_RATE_LIMIT?: number;
  @IsOptional() @IsInt() @Min(1) CHAT_BOT_RATE_LIMIT?: number;
  @IsOptional() @IsInt() @Min(0) @Max(5000) OFFLINE_MODEL_WORD_DELAY_MS?: number;
  @IsOptional()
  @IsInt({ message: 'DEFAULT_BOT_BUDGET_DOLLARS must be a whole number of dollars (0 means no limit)' })
  @Min(0, { message: 'DEFAULT_BOT_BUDGET_DOLLARS must be a whole number of dollars (0 means no limit)' })
  @Max(USAGE_LIMIT_DOLLARS_MAX, { message: `DEFAULT_BOT_BUDGET_DOLLARS must be at most ${USAGE_LIMIT_DOLLARS_MAX}` })
  DEFAULT_BOT_BUDGET_DOLLARS?: number;
  @IsOptional() @IsInt() @Min(1) SIGNUP_IP_RATE_LIMIT?: number;
  @IsOptional() @IsInt() @Min(1) SOURCES_MAX_BYTES_PER_BOT?: number;
  @IsOptional() @IsInt() @Min(0) @Max(3_600_000) SOURCE_JOBS_POLL_MS?: number;
  @IsOptional() @IsInt() @Min(1000) @Max(86_400_000) SOURCE_JOBS_LEASE_MS?: number;
  @IsOptional() @IsInt() @Min(1) @Max(100) SOURCE_JOBS_PER_OWNER?: number;
  @IsOptional() @IsInt() @Min(1) WEBSITE_SOURCES_PER_OWNER_PER_DAY?: number;
  @IsOptional() @IsInt() @Min(1) SOURCE_REFRESHES_PER_OWNER_PER_DAY?: number;

  @IsOptional() @IsString() S3_BUCKET?: string;
  @IsOptional() @IsString() S3_REGION?: string;
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true }) S3_ENDPOINT?: string;
  @IsOptional() @IsString() S3_ACCESS_KEY_ID?: string;
  @IsOptional() @IsString() S3_SECRET_ACCESS_KEY?: string;

  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must start with redis:// or rediss://' })
  REDIS_URL?: string;

  @IsOptional() @IsString() MIXPANEL_TOKEN?: string;
  @IsOptional() @IsString() SUPPORT_EMAIL?: string;
  @IsOptional() @IsBooleanString() RUN_SCHEDULER?: string;

  @IsOptional()
  @IsIn(['true', 'false'], { message: 'ALLOW_DEMO_ADAPTERS must be true or false' })
  ALLOW_DEMO_ADAPTERS?: string;
  @IsOptional()
  @Validate(TrustProxyRule)
  TRUST_PROXY?: string;

  @IsOptional()
  @IsIn(['true', 'false'], { message: 'CRAWL_ALLOW_PRIVATE must be true or false' })
  CRAWL_ALLOW_PRIVATE?: string;

  @IsOptional()
  @IsIn(['true', 'false'], { message: 'WEBHOOK_ALLOW_PRIVATE must be true or false' })
  WEBHOOK_ALLOW_PRIVATE?: string;
  @IsOptional() @IsInt() @Min(0) @Max(3_600_000) WEBHOOK_POLL_MS?: number;
  @IsOptional() @IsInt() @Min(1) @Max(1000) WEBHOOK_SENDS_PER_INSTANCE?: number;
  @IsOptional() @IsInt() @Min(1) @Max(100) WEBHOOK_SENDS_PER_OWNER?: number;

  // Actions (docs/product.md#actions).
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'ACTIONS_ALLOW_PRIVATE must be true or false' })
  ACTIONS_ALLOW_PRIVATE?: string;
  @IsOptional()
  @Matches(/^.{32,}$/, { message: 'ACTIONS_ENCRYPTION_KEY must be at least 32 characters long' })
  ACTIONS_ENCRYPTION_KEY?: string;

  // Quotas (docs/product.md#quotas).
  @IsOptional() @IsInt() @Min(1) HANDOFF_MESSAGES_PER_CONVERSATION_PER_DAY?: number;
  @IsOptional() @IsInt() @Min(1) LEADS_PER_BOT_PER_DAY?: number;
  @IsOptional() @IsInt() @Min(1) MAX_BOTS_PER_ACCOUNT?: number;
  @IsOptional() @IsInt() @Min(1) SOURCES_MAX_BYTES_PER_ACCOUNT?: number;
  @IsOptional() @IsInt() @Min(0) EMBEDDED_PASSAGES_PER_ACCOUNT_PER_DAY?: number;
  @IsOptional() @IsInt() @Min(1) REPLY_STREAMS_PER_INSTANCE?: number;

  // Mail owners can trigger (docs/product.md#mail-consent).
  @IsOptional() @IsInt() @Min(1) MAIL_DAILY_LIMIT_PER_ACCOUNT?: number;
  @IsOptional() @IsInt() @Min(0) @Max(3_600_000) LEAD_DIGEST_POLL_MS?: number;
}

const NUMERIC_KEYS = new Set([
  'PORT',
  'DATABASE_POOL_SIZE',
  'SESSION_IDLE_MINUTES',
  'SESSION_ABSOLUTE_HOURS',
  'OPENAI_TIMEOUT_MS',
  'OPENAI_MAX_RETRIES',
  'OPENAI_EMBEDDING_DIMENSIONS',
  'CHAT_VISITOR_RATE_LIMIT',
  'CHAT_IP_RATE_LIMIT',
  'CHAT_BOT_RATE_LIMIT',
  'OFFLINE_MODEL_WORD_DELAY_MS',
  'DEFAULT_BOT_BUDGET_DOLLARS',
  'SIGNUP_IP_RATE_LIMIT',
  'SOURCES_MAX_BYTES_PER_BOT',
  'SOURCE_JOBS_POLL_MS',
  'SOURCE_JOBS_LEASE_MS',
  'SOURCE_JOBS_PER_OWNER',
  'WEBSITE_SOURCES_PER_OWNER_PER_DAY',
  'SOURCE_REFRESHES_PER_OWNER_PER_DAY',
  'WEBHOOK_POLL_MS',
  'WEBHOOK_SENDS_PER_INSTANCE',
  'WEBHOOK_SENDS_PER_OWNER',
  'MAIL_DAILY_LIMIT_PER_ACCOUNT',
  'LEAD_DIGEST_POLL_MS',
  'HANDOFF_MESSAGES_PER_CONVERSATION_PER_DAY',
  'LEADS_PER_BOT_PER_DAY',
  'MAX_BOTS_PER_ACCOUNT',
  'SOURCES_MAX_BYTES_PER_ACCOUNT',
  'EMBEDDED_PASSAGES_PER_ACCOUNT_PER_DAY',
  'REPLY_STREAMS_PER_INSTANCE',
]);

/** Variables whose values are harmless to repeat in an error (no keys, secrets or URLs). */
const ECHOED_KEYS = new Set([
  ...NUMERIC_KEYS,
  'NODE_ENV',
  'HOST',
  'LOG_LEVEL',
  'RUN_SCHEDULER',
  'ALLOW_DEMO_ADAPTERS',
  'TRUST_PROXY',
  'CRAWL_ALLOW_PRIVATE',
  'WEBHOOK_ALLOW_PRIVATE',
  'ACTIONS_ALLOW_PRIVATE',
  'OPENAI_EMBEDDING_MODEL',
]);

export class ConfigValidationError extends Error {}

/** Validates the raw environment; throws one error whose message names every bad variable. */
export function validateEnvironment(raw: NodeJS.ProcessEnv): EnvironmentVariables {
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || value === '') continue;
    picked[key] = NUMERIC_KEYS.has(key) && /^-?\d+$/.test(value) ? Number(value) : value;
  }
  const env = plainToInstance(EnvironmentVariables, picked);
  const errors = validateSync(env, { skipMissingProperties: false, forbidUnknownValues: false });
  const lines = errors.map((e) => {
    const messages = Object.values(e.constraints ?? {}).join('; ');
    // Only harmless values are echoed: a key, secret or URL (which may carry a password) in an
    // error message ends up in terminals, CI logs and log collectors.
    const got = ECHOED_KEYS.has(e.property) ? ` (got ${JSON.stringify(e.value)})` : '';
    return `  - ${e.property}: ${messages}${got}`;
  });
  const standIns = productionStandIns(env);
  if (standIns) lines.push(`  - ${standIns}`);
  if (env.OPENAI_EMBEDDING_MODEL && !env.OPENAI_API_KEY) {
    lines.push(
      '  - OPENAI_EMBEDDING_MODEL: needs OPENAI_API_KEY (any value for a local server that takes no key, with OPENAI_BASE_URL pointing at it)',
    );
  }
  if (lines.length > 0) {
    throw new ConfigValidationError(
      `The environment is not valid, so Botsmith will not start. Fix these variables:\n${lines.join('\n')}`,
    );
  }
  return env;
}

/**
 * A production start must take real payments and send real mail. Without STRIPE_SECRET_KEY the
 * built-in test-mode checkout would "take" payments with a test card, and without SMTP_URL
 * sign-up and reset links would only be written to files. Both are allowed in production only
 * when asked for by name (ALLOW_DEMO_ADAPTERS=true: demos, tests), and the dashboard says so.
 */
function productionStandIns(env: EnvironmentVariables): string | null {
  if (env.NODE_ENV !== 'production' || env.ALLOW_DEMO_ADAPTERS === 'true') return null;
  const missing: string[] = [];
  if (!env.STRIPE_SECRET_KEY) missing.push('STRIPE_SECRET_KEY (without it payments are the built-in test mode)');
  if (!env.SMTP_URL) missing.push('SMTP_URL (without it mail is only written to the outbox folder)');
  if (missing.length === 0) return null;
  return (
    `NODE_ENV=production needs real payments and mail: set ${missing.join(' and ')}, ` +
    'or set ALLOW_DEMO_ADAPTERS=true to run a demo with no real charges.'
  );
}
