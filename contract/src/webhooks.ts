/**
 * Webhooks (docs/product.md#webhooks): HTTPS endpoints an owner registers to hear about events,
 * each delivery signed with the endpoint's secret and retried from a queue in the database.
 */

/** The events an endpoint may subscribe to. */
export const WEBHOOK_EVENTS = [
  'lead.created',
  'conversation.handoff',
  'conversation.unanswered',
  'bot.budget_reached',
  'action.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** The event POST /api/webhooks/{id}/test sends; no endpoint subscribes to it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_LIMITS = {
  /** Endpoints per owner. */
  perOwner: 10,
  urlMaxChars: 2048,
  /** Deliveries the log shows, newest first. */
  logEntries: 50,
  /** Test sends per owner per minute (each one is a request to the owner's server). */
  testsPerMinute: 10,
  /**
   * An endpoint whose every attempt failed for this many days in a row (no success since its first
   * failure) is disabled until its owner enables it again.
   */
  failingDaysBeforeDisable: 3,
} as const;

/** The header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Botsmith-Signature';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event's delivery to one endpoint, with its latest attempt. */
export interface WebhookDelivery {
  id: number;
  eventId: string;
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  status: WebhookDeliveryStatus;
  /** The receiver's HTTP status at the latest attempt; null when none answered. */
  statusCode: number | null;
  attempts: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
}

export interface WebhookEndpoint {
  id: number;
  url: string;
  events: WebhookEventType[];
  createdAt: string;
  /** The latest delivery to this endpoint, if any. */
  lastDelivery: WebhookDelivery | null;
  /** Since when every attempt has failed (no success since); null when the latest went through. */
  failingSince: string | null;
  /**
   * When it was disabled after failing for WEBHOOK_LIMITS.failingDaysBeforeDisable days; null when
   * enabled. A disabled endpoint is sent nothing until POST /api/webhooks/{id}/enable.
   */
  disabledAt: string | null;
}

/** GET /api/webhooks */
export interface WebhooksResponse {
  webhooks: WebhookEndpoint[];
}

/** POST /api/webhooks: the secret is shown this once. */
export interface CreatedWebhookResponse {
  webhook: WebhookEndpoint;
  secret: string;
}

/** GET /api/webhooks/{id}/deliveries */
export interface WebhookDeliveriesResponse {
  deliveries: WebhookDelivery[];
}

/** POST /api/webhooks/{id}/enable */
export interface EnabledWebhookResponse {
  webhook: WebhookEndpoint;
}

/** POST /api/webhooks/{id}/test */
export interface WebhookTestResponse {
  delivery: WebhookDelivery;
}

/** POST /api/webhooks: an HTTPS endpoint and the events it wants. */
export interface CreateWebhookRequest {
  url: string;
  events: WebhookEventType[];
}
