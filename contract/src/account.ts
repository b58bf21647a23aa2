/** The password rule, checked by the sign-up and reset forms and again by the server. */
export const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*[!@#$%^&*])[A-Za-z\d!@#$%^&*]{8,}$/;
export const PASSWORD_HINT =
  'Minimum 8 characters, including one uppercase letter, one lowercase letter, and one special character';

/** How long visitors' conversations are kept, in days after their last message; null = forever. */
export type ConversationRetentionDays = 30 | 90 | 365 | null;
/** The retention choices an owner has (docs/product.md#retention-and-visitor-privacy). */
export const CONVERSATION_RETENTION_CHOICES: readonly ConversationRetentionDays[] = [30, 90, 365, null];
/** The retention of a new account, and of accounts that never chose. */
export const DEFAULT_CONVERSATION_RETENTION_DAYS: ConversationRetentionDays = 365;

/** POST /api/auth/login. */
export interface LoginRequest {
  email: string;
  password: string;
}
/** POST /api/auth/signup: the password follows PASSWORD_PATTERN. */
export interface SignupRequest {
  email: string;
  password: string;
}
/** POST /api/auth/forgot-password. */
export interface ForgotPasswordRequest {
  email: string;
}
/** POST /api/auth/reset-password/{token}: the new password. */
export interface ResetPasswordRequest {
  password: string;
}
/** POST /api/auth/verify-email/{token}: a link opened in another browser, with the signup's password. */
export interface VerifyEmailPasswordRequest {
  password: string;
}
/** PUT /api/user/settings: any subset of the account's settings. */
export interface UpdateSettingsRequest {
  spendAlertDollars?: number;
  conversationRetentionDays?: ConversationRetentionDays;
  agentName?: string;
  /** An IANA time zone name, or null for the browser's. */
  timeZone?: string | null;
  monthlyReport?: boolean;
}
/** The calls that take no input (billing): `{}` or no body; any field is refused. */
export type EmptyRequest = Record<never, never>;
