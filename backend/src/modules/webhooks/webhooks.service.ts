import {
  WEBHOOK_LIMITS,
  WEBHOOK_TEST_EVENT,
  type CreatedWebhookResponse,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@botsmith/contract';
import { HttpStatus, Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { BackgroundTasks } from '../../common/background-tasks.js';
import { describeError } from '../../common/error-description.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { MailService } from '../mail/mail.service.js';
import { nextAttemptAt } from './webhook-backoff.js';
import { WebhookSender } from './webhook-sender.js';
import { newEventId, newWebhookSecret } from './webhook-signature.js';
import { checkWebhookUrl } from './webhook-url.js';
import { WebhooksRepository, type ClaimedDelivery, type DeliveryRow, type EndpointRow } from './webhooks.repository.js';

const NOT_FOUND = 'Webhook not found.';

/** How long a claimed delivery is held by the instance sending it: past the send's own timeout. */
const CLAIM_LEASE_MS = 2 * 60_000;

/** While requests are in flight, how often a pass looks for work queued elsewhere or come due. */
const RECHECK_MS = 1_000;

const DAY_MS = 24 * 3_600_000;

/** The test send's answer when the endpoint already has a request in flight. */
const BUSY_ERROR = 'Not sent: another delivery to this endpoint was in progress. Send the test again in a few seconds.';

/**
 * Webhooks (docs/product.md#webhooks): an owner's endpoints, the event queue and its deliveries.
 *
 * `publish` queues an event for every endpoint of the owner that wants it, one row per endpoint
 * (the unique (endpoint, event id) key makes a second publish of the same event id a no-op), and
 * wakes the worker. `deliverDue` sends what is due: each attempt signed, a 2xx delivers, anything
 * else is retried with backoff (webhook-backoff.ts) until 24 h after the event, then the delivery
 * fails for good. A test event is tried once.
 *
 * Fairness (one owner's slow endpoints must not hold another's events): deliveries are claimed one
 * per owner per round, owners served longest ago first; an endpoint has at most one request in
 * flight (its lease is in the database, so across instances too); an owner has at most
 * WEBHOOK_SENDS_PER_OWNER endpoints served at once and an instance WEBHOOK_SENDS_PER_INSTANCE
 * requests. A pass does not wait for a slow request before claiming the next delivery. An endpoint
 * whose every attempt failed for WEBHOOK_LIMITS.failingDaysBeforeDisable days is disabled and its
 * owner mailed once; its deliveries wait until the owner enables it again.
 */
@Injectable()
export class WebhooksService implements OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly sender: WebhookSender;
  private readonly background = new BackgroundTasks(this.logger);
  /** Test sends per owner in the current minute (each is a request to the owner's server). */
  private readonly testCounts = new Map<number, { windowStart: number; count: number }>();
  private wake: (() => void) | undefined;
  /** Passes waiting for in-flight requests, to be woken when an event is queued here. */
  private readonly waiting = new Set<() => void>();
  private stopping = false;
  /** Requests in flight on this instance, across passes. */
  private inFlightCount = 0;

  constructor(
    private readonly repository: WebhooksRepository,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.sender = new WebhookSender({
      allowPrivate: config.webhooks.allowPrivate,
      timeoutMs: config.webhooks.timeoutMs,
      userAgent: `Botsmith-Webhooks/1.0 (+${config.publicUrl})`,
    });
  }

  /** The worker asks to be woken when something was queued here. */
  onQueued(wake: () => void): void {
    this.wake = wake;
  }

  async list(ownerId: number): Promise<WebhookEndpoint[]> {
    const rows = await this.repository.list(ownerId);
    return rows.map((row) => endpointView(row, row.lastDelivery));
  }

  /**
   * Enables a disabled endpoint again (a no-op on an enabled one): deliveries go to it again, the
   * ones that waited first, each retried for 24 h from now.
   */
  async enable(ownerId: number, id: number, now: Date = new Date()): Promise<WebhookEndpoint> {
    if (!(await this.repository.enable(ownerId, id, now))) throw AppError.notFound(NOT_FOUND, 'WEBHOOK_NOT_FOUND');
    const row = (await this.repository.list(ownerId)).find((endpoint) => endpoint.id === id);
    if (!row) throw AppError.notFound(NOT_FOUND, 'WEBHOOK_NOT_FOUND'); // deleted meanwhile
    this.signalQueued();
    return endpointView(row, row.lastDelivery);
  }

  async create(ownerId: number, url: string, events: WebhookEventType[]): Promise<CreatedWebhookResponse> {
    const checked = checkWebhookUrl(url, this.config.webhooks.allowPrivate);
    if ('code' in checked) {
      throw checked.code === 'URL_INVALID'
        ? AppError.badRequest(checked.message, 'URL_INVALID')
        : new AppError(HttpStatus.UNPROCESSABLE_ENTITY, 'URL_NOT_ALLOWED', checked.message);
    }
    const secret = newWebhookSecret();
    const unique = [...new Set(events)];
    const created = await this.repository.create(
      ownerId,
      { url: checked.url, events: unique, secret },
      WEBHOOK_LIMITS.perOwner,
    );
    if (!created) {
      throw AppError.conflict(
        `You can have at most ${WEBHOOK_LIMITS.perOwner} webhooks. Delete one to add another.`,
        'WEBHOOK_LIMIT_REACHED',
      );
    }
    return { webhook: endpointView(created, null), secret };
  }

  async delete(ownerId: number, id: number): Promise<void> {
    if (!(await this.repository.delete(ownerId, id))) throw AppError.notFound(NOT_FOUND, 'WEBHOOK_NOT_FOUND');
  }

  async deliveries(ownerId: number, id: number): Promise<WebhookDelivery[]> {
    if (!(await this.repository.find(ownerId, id))) throw AppError.notFound(NOT_FOUND, 'WEBHOOK_NOT_FOUND');
    return (await this.repository.deliveries(id, WEBHOOK_LIMITS.logEntries)).map(deliveryView);
  }

  /** Sends a `webhook.test` event to the endpoint now and answers how it went. */
  async test(ownerId: number, id: number, now: Date = new Date()): Promise<WebhookDelivery> {
    const endpoint = await this.repository.find(ownerId, id);
    if (!endpoint) throw AppError.notFound(NOT_FOUND, 'WEBHOOK_NOT_FOUND');
    this.countTest(ownerId, now.getTime());
    const event = buildEvent(WEBHOOK_TEST_EVENT, { message: 'This is a test event from Botsmith.' }, now);
    const [deliveryId] = await this.repository.enqueue(ownerId, event, id);
    const claimed = await this.repository.claimDelivery(deliveryId, latest(now), leaseFrom(now));
    if (claimed) {
      await this.attempt(claimed, now);
    } else {
      // At most one request in flight per endpoint, tests included: say so rather than wait.
      const at = latest(now);
      await this.repository.recordAttempt(deliveryId, {
        at,
        status: 'failed',
        statusCode: null,
        error: BUSY_ERROR,
        nextAttemptAt: null,
      });
    }
    const row = await this.repository.deliveryById(deliveryId);
    if (!row) throw AppError.notFound(NOT_FOUND, 'WEBHOOK_NOT_FOUND'); // deleted meanwhile
    return deliveryView(row);
  }

  /**
   * Queues an event for the owner's endpoints that want it; returns how many deliveries were
   * queued. Throws if the database does; callers that must not fail use `notify`.
   */
  async publish(
    ownerId: number,
    type: WebhookEventType,
    data: Record<string, unknown>,
    options: { eventId?: string; at?: Date } = {},
  ): Promise<number> {
    const event = buildEvent(type, data, options.at ?? new Date(), options.eventId);
    const queued = await this.repository.enqueue(ownerId, event);
    if (queued.length > 0) this.signalQueued();
    return queued.length;
  }

  /** `publish` in the background: returns at once and never throws (a failure is logged). */
  notify(ownerId: number, type: WebhookEventType, data: Record<string, unknown>): void {
    this.background.start(() => this.publish(ownerId, type, data), `Could not queue ${type} for owner ${ownerId}`);
  }

  /** Resolves when every `notify` started so far has queued its event (tests, shutdown). */
  settled(): Promise<void> {
    return this.background.settled();
  }

  /**
   * One pass of the worker: claims due deliveries fairly and sends them, without waiting for one
   * request before claiming the next, until nothing is due or claimable and nothing is in flight;
   * returns how many attempts it made. `now` is the pass's clock (tests move it ahead).
   */
  async deliverDue(now: Date = new Date()): Promise<number> {
    const { sendsPerInstance, sendsPerOwner } = this.config.webhooks;
    const inFlight = new Set<Promise<void>>();
    let sent = 0;
    for (;;) {
      const room = sendsPerInstance - this.inFlightCount - inFlight.size;
      const claimed =
        room > 0 && !this.stopping
          ? await this.repository.claimDue(latest(now), leaseFrom(now), room, sendsPerOwner)
          : [];
      for (const delivery of claimed) {
        const attempt: Promise<void> = this.attempt(delivery, now)
          .catch((error: unknown) => {
            // The lease ends on its own; the delivery is due again then.
            this.logger.error(`Webhook delivery ${delivery.id} stopped: ${describeError(error)}`);
          })
          .finally(() => {
            inFlight.delete(attempt);
            this.inFlightCount -= 1;
            sent += 1;
          });
        inFlight.add(attempt);
        this.inFlightCount += 1;
      }
      // A round serves each owner once: claim the next round at once while it found something.
      if (claimed.length > 0 && claimed.length < room) continue;
      if (inFlight.size === 0) return sent;
      await this.nextChange(inFlight);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.settled();
    this.sender.destroy();
  }

  /** No pass claims anything more (the app is stopping); requests in flight finish. */
  beginShutdown(): void {
    this.stopping = true;
    this.signalQueued();
  }

  /** Resolves when a request ends, an event is queued here, or RECHECK_MS passed. */
  private async nextChange(inFlight: Set<Promise<void>>): Promise<void> {
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const timer = setTimeout(wake, RECHECK_MS);
    this.waiting.add(wake);
    try {
      await Promise.race([woken, ...inFlight]);
    } finally {
      clearTimeout(timer);
      this.waiting.delete(wake);
    }
  }

  private signalQueued(): void {
    for (const wake of this.waiting) wake();
    this.wake?.();
  }

  private async attempt(claimed: ClaimedDelivery, now: Date): Promise<void> {
    const result = await this.sender.send(claimed.url, claimed.payload, claimed.secret);
    const at = latest(now);
    if (result.ok) {
      await this.repository.recordAttempt(claimed.id, {
        at,
        status: 'delivered',
        statusCode: result.statusCode,
        error: null,
        nextAttemptAt: null,
      });
    } else {
      const next =
        claimed.type === WEBHOOK_TEST_EVENT ? null : nextAttemptAt(claimed.attempts, at, claimed.windowStart);
      await this.repository.recordAttempt(claimed.id, {
        at,
        status: next ? 'pending' : 'failed',
        statusCode: result.statusCode,
        error: result.error,
        nextAttemptAt: next,
      });
    }
    const disabled = await this.repository.settleEndpoint(claimed.endpointId, claimed.leaseUntil, {
      ok: result.ok,
      at,
      disableIfFailingSince: new Date(at.getTime() - WEBHOOK_LIMITS.failingDaysBeforeDisable * DAY_MS),
    });
    if (disabled) {
      this.logger.warn(`Webhook endpoint ${disabled.endpointId} disabled after failing for days`);
      this.mail.sendWebhookDisabled(disabled.ownerEmail, {
        url: disabled.url,
        days: WEBHOOK_LIMITS.failingDaysBeforeDisable,
      });
    }
  }

  private countTest(ownerId: number, nowMs: number): void {
    const entry = this.testCounts.get(ownerId);
    if (!entry || nowMs - entry.windowStart >= 60_000) {
      // Old windows go as new ones start, so the map holds only owners active this minute.
      for (const [owner, counted] of this.testCounts) {
        if (nowMs - counted.windowStart >= 60_000) this.testCounts.delete(owner);
      }
      this.testCounts.set(ownerId, { windowStart: nowMs, count: 1 });
      return;
    }
    if (entry.count >= WEBHOOK_LIMITS.testsPerMinute) {
      const retryAfter = Math.max(1, Math.ceil((entry.windowStart + 60_000 - nowMs) / 1000));
      throw new AppError(HttpStatus.TOO_MANY_REQUESTS, 'RATE_LIMITED', 'Too many test events. Please wait a minute.', {
        'Retry-After': String(retryAfter),
      });
    }
    entry.count += 1;
  }
}

/**
 * `now` is the pass's clock (tests move it ahead); later in a long pass the real time is later,
 * and a lease or an attempt time must not fall behind it.
 */
function latest(now: Date): Date {
  return new Date(Math.max(now.getTime(), Date.now()));
}

function leaseFrom(now: Date): Date {
  return new Date(latest(now).getTime() + CLAIM_LEASE_MS);
}

function buildEvent(type: string, data: Record<string, unknown>, at: Date, id: string = newEventId()) {
  const createdAt = at.toISOString();
  return { id, type, createdAt: at, payload: JSON.stringify({ id, type, createdAt, data }) };
}

function endpointView(row: EndpointRow, last: DeliveryRow | null): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    createdAt: row.createdAt.toISOString(),
    lastDelivery: last ? deliveryView(last) : null,
    failingSince: row.failingSince ? row.failingSince.toISOString() : null,
    disabledAt: row.disabledAt ? row.disabledAt.toISOString() : null,
  };
}

function deliveryView(row: DeliveryRow): WebhookDelivery {
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.type as WebhookDelivery['type'],
    status: row.status,
    statusCode: row.statusCode,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: iso(row.lastAttemptAt),
    deliveredAt: iso(row.deliveredAt),
  };
}
