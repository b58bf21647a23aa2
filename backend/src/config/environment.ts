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
  ValidateIf,
  validateSync,
} from 'class-validator';

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

  @IsOptional() @IsInt() @Min(1) CHAT_VISITOR_RATE_LIMIT?: number;
  @IsOptional() @IsInt() @Min(1) CHAT_IP_RATE_LIMIT?: number;
  @IsOptional() @IsInt() @Min(1) CHAT_BOT_RATE_LIMIT?: number;
  @IsOptional() @IsInt() @Min(0) @Max(5000) OFFLINE_MODEL_WORD_DELAY_MS?: number;

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
}

const NUMERIC_KEYS = new Set([
  'PORT',
  'DATABASE_POOL_SIZE',
  'SESSION_IDLE_MINUTES',
  'SESSION_ABSOLUTE_HOURS',
  'OPENAI_TIMEOUT_MS',
  'OPENAI_MAX_RETRIES',
  'CHAT_VISITOR_RATE_LIMIT',
  'CHAT_IP_RATE_LIMIT',
  'CHAT_BOT_RATE_LIMIT',
  'OFFLINE_MODEL_WORD_DELAY_MS',
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
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const messages = Object.values(e.constraints ?? {}).join('; ');
      return `  - ${e.property}: ${messages} (got ${JSON.stringify(e.value)})`;
    });
    throw new ConfigValidationError(
      `The environment is not valid, so Botsmith will not start. Fix these variables:\n${lines.join('\n')}`,
    );
  }
  return env;
}
