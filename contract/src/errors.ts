/**
 * Every `code` the API answers with. An error answer is `{error, code}`: a sentence a person can
 * act on and one of these stable codes, which clients branch on (docs/product.md#http-api).
 */
export const ERROR_CODES = [
  // Any route
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'INVALID_BODY',
  'INVALID_JSON',
  'INVALID_ID',
  'INVALID_CHARACTERS',
  'PAYLOAD_TOO_LARGE',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'METHOD_NOT_ALLOWED',
  'UNSUPPORTED_MEDIA_TYPE',
  'NOT_FOUND',
  'CONFLICT',
  'FORBIDDEN',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  'BAD_GATEWAY',
  'GATEWAY_TIMEOUT',
  /** Another 4xx status the server has no more specific code for. */
  'ERROR',
  // Accounts and sessions
  'UNAUTHORIZED',
  'INVALID_CREDENTIALS',
  'EMAIL_NOT_VERIFIED',
  'INVALID_TOKEN',
  'PASSWORD_CONFIRMATION_REQUIRED',
  'ORIGIN_NOT_ALLOWED',
  // Billing and the dashboard gate
  'SETUP_REQUIRED',
  'SUBSCRIPTION_PENDING',
  'PAYMENT_FAILED',
  'PAYMENT_REQUIRED',
  'PAYMENT_METHOD_REQUIRED',
  'PAYMENT_PROVIDER_ERROR',
  'CARD_DECLINED',
  'OUT_OF_CREDITS',
  'WEBHOOK_SIGNATURE_INVALID',
  // Bots and categories
  'BOT_NOT_FOUND',
  'CATEGORY_NOT_FOUND',
  'CATEGORY_EXISTS',
  // Chat and the widget
  'INVALID_API_KEY',
  'DOMAIN_NOT_ALLOWED',
  'BOT_BUDGET_REACHED',
  'MESSAGE_IN_FLIGHT',
  'CHAT_VISITOR_RATE_LIMIT',
  'CHAT_IP_RATE_LIMIT',
  'CHAT_BOT_RATE_LIMIT',
  'UPSTREAM_FAILED',
  'UPSTREAM_TIMEOUT',
  /** The caller went away before the answer was complete; nobody reads this one. */
  'ABORTED',
  // Uploads and knowledge sources
  'FILE_REQUIRED',
  'FILE_TOO_LARGE',
  'FILE_NO_TEXT',
  'DOCX_TOO_LARGE',
  'INVALID_UPLOAD',
  'UNSUPPORTED_FILE_TYPE',
  'PDF_ENCRYPTED',
  'PDF_NO_TEXT',
  'PDF_TOO_COMPLEX',
  'PDF_UNREADABLE',
  'DOCUMENTS_BUSY',
  'SOURCES_QUOTA_EXCEEDED',
  'SOURCE_NOT_FOUND',
  'SOURCE_NOT_REFRESHABLE',
  'SOURCE_NOT_SCHEDULABLE',
  'SOURCE_NO_TEXT',
  /** Editing a source that is not a written answer (PUT .../sources/{id}/text) or not a correction. */
  'SOURCE_NOT_EDITABLE',
  /** Listing the pages of a source that is not a website. */
  'SOURCE_HAS_NO_PAGES',
  /** An owner added WEBSITE_SOURCES_PER_OWNER_PER_DAY website sources today (UTC). */
  'WEBSITE_SOURCES_DAILY_LIMIT',
  /** An owner asked for SOURCE_REFRESHES_PER_OWNER_PER_DAY refreshes today (UTC). */
  'SOURCE_REFRESHES_DAILY_LIMIT',
  'URL_INVALID',
  'URL_NOT_ALLOWED',
  // Conversations, feedback and corrections
  'CONVERSATION_NOT_FOUND',
  /** Replying in a conversation whose bot was deleted: its widget is gone, nobody would read it. */
  'BOT_DELETED',
  'MESSAGE_NOT_FOUND',
  'INVALID_CURSOR',
  // Webhooks
  'WEBHOOK_NOT_FOUND',
  'WEBHOOK_LIMIT_REACHED',
  // Actions
  'ACTION_NOT_FOUND',
  'ACTION_LIMIT_REACHED',
  'ACTION_NAME_TAKEN',
  /** An action's definition (schema, URL, headers, pointers) or a test's parameters are refused. */
  'ACTION_INVALID',
  // Leads
  /** The bot does not take leads (its owner turned lead capture off). */
  'LEAD_CAPTURE_DISABLED',
  'LEAD_NOT_FOUND',
  // Analytics
  /** A period GET /api/analytics cannot answer: a date that does not exist, reversed, too long, an unknown time zone. */
  'INVALID_RANGE',
  // Mail consent (docs/product.md#mail-consent)
  /** The account sent MAIL_DAILY_LIMIT_PER_ACCOUNT owner-triggered mails today (UTC). */
  'MAIL_DAILY_LIMIT',
  /** A confirmation was mailed to this lead address a few minutes ago. */
  'CONFIRMATION_RECENTLY_SENT',
  /** A lead address was mailed MAIL_LIMITS.requestsPerLeadAddress confirmation requests already. */
  'CONFIRMATION_REQUESTS_SPENT',
  /** A confirmation link that is unknown or past its time. */
  'CONFIRMATION_LINK_INVALID',
  /** Resending a confirmation to an address the bot does not list, or one that needs none. */
  'NOTIFY_EMAIL_NOT_PENDING',
  // Quotas (docs/product.md#quotas)
  /** A visitor's messages in a handed-off conversation passed the day's cap. */
  'HANDOFF_LIMIT_REACHED',
  /** The bot took its leads for the day. */
  'LEAD_LIMIT_REACHED',
  /** The account opened as many card pages (the billing portal) as it may today. */
  'PORTAL_LIMIT_REACHED',
  /** Creating a bot past the account's number of bots. */
  'BOT_LIMIT_REACHED',
  /** A source that would pass the bytes all the account's bots may hold together. */
  'ACCOUNT_SOURCES_QUOTA_EXCEEDED',
  /** This API instance holds as many open replies streams as it may. */
  'REPLY_STREAMS_BUSY',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The body of every error answer. */
export interface ApiErrorBody {
  error: string;
  code: ErrorCode;
}
