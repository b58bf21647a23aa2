import type {
  CreatedWebhookResponse,
  EnabledWebhookResponse,
  WebhookDeliveriesResponse,
  WebhookEventType,
  WebhooksResponse,
  WebhookTestResponse,
} from '@botsmith/contract';
import { apiFetch } from './client';

/** The owner's webhook endpoints (docs/product.md#webhooks). */
export const webhooksApi = {
  list: () => apiFetch<WebhooksResponse>('/api/webhooks'),
  /** The answer holds the signing secret, shown this once. */
  create: (url: string, events: WebhookEventType[]) =>
    apiFetch<CreatedWebhookResponse>('/api/webhooks', { method: 'POST', body: { url, events } }),
  remove: (id: number) => apiFetch<unknown>(`/api/webhooks/${id}`, { method: 'DELETE' }),
  /** Sends a webhook.test event now; answers the delivery after its one attempt. */
  test: (id: number) => apiFetch<WebhookTestResponse>(`/api/webhooks/${id}/test`, { method: 'POST' }),
  deliveries: (id: number) => apiFetch<WebhookDeliveriesResponse>(`/api/webhooks/${id}/deliveries`),
  /** Enables an endpoint disabled after failing for days; the deliveries that waited go out first. */
  enable: (id: number) => apiFetch<EnabledWebhookResponse>(`/api/webhooks/${id}/enable`, { method: 'POST' }),
};
