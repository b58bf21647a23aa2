import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local HTTP server that answers the Stripe API endpoints Botsmith uses, the way Stripe does
 * (form-encoded requests with bracket notation, JSON objects shaped as in stripe-node 23.1.0's
 * types, `{error:{type,message}}` failures, Idempotency-Key replay). The real `stripe` SDK is
 * pointed at it through STRIPE_API_URL. It is stateful, unlike stripe-mock, so flows can be
 * followed end to end; helpers play the parts Stripe plays by itself (the hosted Checkout page,
 * invoicing on the anchor date) and build the matching webhook events.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
  authorization: string | undefined;
}

type Obj = Record<string, unknown>;

const now = () => Math.floor(Date.now() / 1000);
const rid = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;

/** `a[b][0][c]=x` -> {a:{b:[{c:'x'}]}} as Stripe reads form bodies. */
export function parseStripeForm(raw: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Obj | unknown[] = root;
    path.forEach((segment, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]);
      const container = node as Record<string, unknown>;
      if (last) {
        container[segment] = value;
      } else {
        container[segment] ??= nextIsIndex ? [] : {};
        node = container[segment] as Obj;
      }
    });
  }
  return root;
}

function nextThird(from: Date): number {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth();
  const thisMonth = Date.UTC(y, m, 3);
  return Math.floor((from.getTime() < thisMonth ? thisMonth : Date.UTC(y, m + 1, 3)) / 1000);
}

export class FakeStripeServer {
  readonly requests: RecordedRequest[] = [];
  readonly customers = new Map<string, Obj>();
  readonly paymentMethods = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  readonly setupIntents = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly invoices = new Map<string, Obj>();
  readonly portalSessions = new Map<string, Obj>();
  /** Meter events Stripe kept, by identifier (uniqueness enforced as Stripe does). */
  readonly meterEvents = new Map<string, Obj>();
  /** Every meter event request received, duplicates included. */
  readonly meterEventRequests: Obj[] = [];
  private readonly idempotent = new Map<string, { status: number; body: unknown; params: string }>();
  /** When set, every request fails with this HTTP status (provider outage). */
  failWith: number | null = null;
  private server!: http.Server;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  requestsTo(method: string, pathPattern: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && pathPattern.test(r.path));
  }

  // ---- what Stripe does on its own ------------------------------------------------------------

  /** The owner enters a card on Stripe's hosted page: the session completes (setup mode). */
  completeCheckout(sessionId: string, card: '4242424242424242' | '4000000000000341'): Obj {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const pm: Obj = {
      id: rid('pm'),
      object: 'payment_method',
      type: 'card',
      customer: session.customer,
      card: { brand: 'visa', last4: card.slice(-4), exp_month: 12, exp_year: 2039 },
      metadata: {},
      created: now(),
      livemode: false,
      // Not part of Stripe's object: how this test card behaves when charged.
      _chargesSucceed: card === '4242424242424242',
    };
    this.paymentMethods.set(pm.id as string, pm);
    const intent: Obj = {
      id: rid('seti'),
      object: 'setup_intent',
      status: 'succeeded',
      customer: session.customer,
      payment_method: pm.id,
      usage: 'off_session',
      livemode: false,
    };
    this.setupIntents.set(intent.id as string, intent);
    Object.assign(session, { status: 'complete', setup_intent: intent.id });
    return this.event('checkout.session.completed', this.publicSession(session));
  }

  /**
   * Stripe's invoicing on the anchor date: one invoice per live subscription with the meter
   * events received since the last one, charged to the default card. Returns the events sent.
   */
  invoiceUsage(): Obj[] {
    const events: Obj[] = [];
    for (const sub of this.subscriptions.values()) {
      if (sub.status === 'canceled') continue;
      const customer = sub.customer as string;
      const usage = [...this.meterEvents.values()].filter(
        (e) => (e.payload as Obj).stripe_customer_id === customer && !e._invoiced,
      );
      usage.forEach((e) => (e._invoiced = true));
      const amount = usage.reduce((sum, e) => sum + Number((e.payload as Obj).value), 0);
      const invoice: Obj = {
        id: rid('in'),
        object: 'invoice',
        customer,
        status: 'open',
        amount_due: amount,
        amount_paid: 0,
        attempt_count: 0,
        currency: 'usd',
        parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: {} } },
        hosted_invoice_url: `https://invoice.stripe.com/i/test_${randomBytes(8).toString('hex')}`,
        livemode: false,
        created: now(),
      };
      this.invoices.set(invoice.id as string, invoice);
      events.push(this.chargeInvoice(invoice, this.defaultPaymentMethod(customer)));
    }
    return events;
  }

  event(type: string, object: Obj, created = now()): Obj {
    return {
      id: rid('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created,
      type,
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
  }

  private chargeInvoice(invoice: Obj, paymentMethodId: string | null): Obj {
    const pm = paymentMethodId ? this.paymentMethods.get(paymentMethodId) : undefined;
    invoice.attempt_count = Number(invoice.attempt_count) + 1;
    const amount = Number(invoice.amount_due);
    if (amount === 0 || pm?._chargesSucceed) {
      Object.assign(invoice, { status: 'paid', amount_paid: amount });
      return this.event('invoice.paid', invoice);
    }
    return this.event('invoice.payment_failed', invoice);
  }

  private defaultPaymentMethod(customerId: string): string | null {
    const customer = this.customers.get(customerId);
    const settings = customer?.invoice_settings as Obj | undefined;
    return (settings?.default_payment_method as string | null) ?? null;
  }

  // ---- the HTTP API ---------------------------------------------------------------------------

  private handle(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://stripe.local');
    const body = req.method === 'GET' ? {} : parseStripeForm(raw);
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body,
      idempotencyKey: header('idempotency-key'),
      stripeVersion: header('stripe-version'),
      authorization: header('authorization'),
    };
    this.requests.push(record);
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': rid('req') });
      res.end(JSON.stringify(payload));
    };
    if (this.failWith) {
      return send(this.failWith, { error: { type: 'api_error', message: 'An unknown error occurred.' } });
    }
    if (record.authorization !== 'Bearer sk_test_botsmith') {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    // Idempotency: the same key replays the saved response; with other parameters it is an error.
    const key =
      record.idempotencyKey && !record.idempotencyKey.startsWith('stripe-node-retry-') ? record.idempotencyKey : null;
    if (key && record.method === 'POST') {
      const saved = this.idempotent.get(key);
      const params = `${record.path} ${raw}`;
      if (saved) {
        if (saved.params !== params) {
          return send(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
            },
          });
        }
        res.setHeader('Idempotent-Replayed', 'true');
        return send(saved.status, saved.body);
      }
      const [status, payload] = this.route(record);
      this.idempotent.set(key, { status, body: payload, params });
      return send(status, payload);
    }
    const [status, payload] = this.route(record);
    send(status, payload);
  }

  private route(r: RecordedRequest): [number, unknown] {
    const p = r.path;
    const b = r.body;
    let m: RegExpExecArray | null;
    if (r.method === 'POST' && p === '/v1/customers') {
      const customer: Obj = {
        id: rid('cus'),
        object: 'customer',
        email: b.email ?? null,
        metadata: b.metadata ?? {},
        invoice_settings: { default_payment_method: null, custom_fields: null, footer: null, rendering_options: null },
        created: now(),
        livemode: false,
      };
      this.customers.set(customer.id as string, customer);
      return [200, customer];
    }
    if ((m = /^\/v1\/customers\/([^/]+)$/.exec(p))) {
      const customer = this.customers.get(m[1]);
      if (!customer) return notFound('customer', m[1]);
      if (r.method === 'POST') {
        const settings = (b.invoice_settings ?? {}) as Obj;
        if (settings.default_payment_method) {
          (customer.invoice_settings as Obj).default_payment_method = settings.default_payment_method;
        }
      }
      return [200, customer];
    }
    if (r.method === 'GET' && (m = /^\/v1\/customers\/([^/]+)\/payment_methods$/.exec(p))) {
      if (!this.customers.has(m[1])) return notFound('customer', m[1]);
      const data = [...this.paymentMethods.values()].filter((pm) => pm.customer === m![1]).map(publicPm);
      return [200, list(p, data)];
    }
    if (r.method === 'GET' && (m = /^\/v1\/payment_methods\/([^/]+)$/.exec(p))) {
      const pm = this.paymentMethods.get(m[1]);
      if (!pm) return notFound('payment_method', m[1]);
      return [200, publicPm(pm)];
    }
    if (r.method === 'POST' && p === '/v1/billing_portal/sessions') {
      if (typeof b.customer !== 'string' || !this.customers.has(b.customer)) {
        return notFound('customer', String(b.customer));
      }
      const id = rid('bps');
      const session: Obj = {
        id,
        object: 'billing_portal.session',
        customer: b.customer,
        return_url: b.return_url ?? null,
        url: `https://billing.stripe.com/p/session/test_${id}`,
        livemode: false,
        created: now(),
      };
      this.portalSessions.set(id, session);
      return [200, session];
    }
    if (r.method === 'POST' && p === '/v1/checkout/sessions') {
      if (b.mode !== 'setup') return invalid('mode', 'Only setup mode is expected here.');
      if (!b.currency) return invalid('currency', 'currency is required in setup mode with dynamic payment methods.');
      const id = `cs_test_${randomBytes(20).toString('hex')}`;
      const session: Obj = {
        id,
        object: 'checkout.session',
        mode: 'setup',
        status: 'open',
        customer: b.customer,
        currency: b.currency,
        success_url: b.success_url,
        cancel_url: b.cancel_url,
        metadata: b.metadata ?? {},
        setup_intent: null,
        url: `https://checkout.stripe.com/c/pay/${id}`,
        livemode: false,
        created: now(),
      };
      this.sessions.set(id, session);
      return [200, this.publicSession(session)];
    }
    if (r.method === 'GET' && (m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(p))) {
      const session = this.sessions.get(m[1]);
      if (!session) return notFound('checkout.session', m[1]);
      const out = this.publicSession(session);
      const expand = r.query.getAll('expand[]').concat(r.query.getAll('expand[0]'));
      if (expand.includes('setup_intent') && typeof session.setup_intent === 'string') {
        out.setup_intent = this.setupIntents.get(session.setup_intent) ?? null;
      }
      return [200, out];
    }
    if (r.method === 'POST' && p === '/v1/subscriptions') {
      const items = (b.items ?? []) as Obj[];
      if (items.length !== 1 || !items[0].price) return invalid('items', 'One metered price is expected.');
      if ('quantity' in items[0]) {
        return invalid('items[0][quantity]', 'Quantity should not be defined when recurring.usage_type=metered');
      }
      if ('billing_cycle_anchor' in b && 'billing_cycle_anchor_config' in b) {
        return invalid('billing_cycle_anchor_config', 'Mutually exclusive with billing_cycle_anchor.');
      }
      const anchor = nextThird(new Date());
      const id = rid('sub');
      const subscription: Obj = {
        id,
        object: 'subscription',
        customer: b.customer,
        status: 'active',
        default_payment_method: b.default_payment_method ?? null,
        billing_cycle_anchor: anchor,
        billing_cycle_anchor_config: b.billing_cycle_anchor_config,
        cancel_at_period_end: false,
        metadata: b.metadata ?? {},
        items: {
          object: 'list',
          has_more: false,
          url: `/v1/subscription_items?subscription=${id}`,
          data: [
            {
              id: rid('si'),
              object: 'subscription_item',
              subscription: id,
              price: { id: items[0].price, object: 'price', recurring: { interval: 'month', usage_type: 'metered' } },
              current_period_start: now(),
              current_period_end: anchor,
              metadata: {},
            },
          ],
        },
        livemode: false,
        created: now(),
      };
      this.subscriptions.set(id, subscription);
      return [200, subscription];
    }
    if (r.method === 'GET' && p === '/v1/subscriptions') {
      const customer = r.query.get('customer');
      return [
        200,
        list(
          p,
          [...this.subscriptions.values()].filter((s) => !customer || s.customer === customer),
        ),
      ];
    }
    if ((m = /^\/v1\/subscriptions\/([^/]+)$/.exec(p))) {
      const subscription = this.subscriptions.get(m[1]);
      if (!subscription) return notFound('subscription', m[1]);
      if (r.method === 'POST' && b.default_payment_method)
        subscription.default_payment_method = b.default_payment_method;
      if (r.method === 'DELETE') {
        if (subscription.status === 'canceled') return invalid('id', 'This subscription is already canceled.');
        subscription.status = 'canceled';
        subscription._cancelParams = b;
      }
      return [200, subscription];
    }
    if (r.method === 'GET' && p === '/v1/invoices') {
      const customer = r.query.get('customer');
      const status = r.query.get('status');
      const limit = Number(r.query.get('limit') ?? 10);
      const data = [...this.invoices.values()]
        .filter((i) => (!customer || i.customer === customer) && (!status || i.status === status))
        // Newest first, as Stripe lists them.
        .reverse()
        .slice(0, limit);
      return [200, list(p, data)];
    }
    if (r.method === 'POST' && (m = /^\/v1\/invoices\/([^/]+)\/pay$/.exec(p))) {
      const invoice = this.invoices.get(m[1]);
      if (!invoice) return notFound('invoice', m[1]);
      if (invoice.status !== 'open') return invalid('invoice', 'Invoice is already paid');
      const event = this.chargeInvoice(
        invoice,
        (b.payment_method as string) ?? this.defaultPaymentMethod(invoice.customer as string),
      );
      this.sentByPay.push(event);
      if (event.type === 'invoice.payment_failed') {
        return [402, { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } }];
      }
      return [200, invoice];
    }
    if (r.method === 'POST' && p === '/v1/billing/meter_events') {
      const payload = (b.payload ?? {}) as Obj;
      if (!b.event_name) return invalid('event_name', 'Missing required param: event_name.');
      if (typeof payload.stripe_customer_id !== 'string' || typeof payload.value !== 'string') {
        return invalid('payload', 'The payload must contain stripe_customer_id and value.');
      }
      const timestamp = Number(b.timestamp ?? now());
      if (timestamp < now() - 35 * 86_400 || timestamp > now() + 300) {
        return invalid(
          'timestamp',
          'Timestamp must be within the past 35 calendar days or up to 5 minutes in the future.',
        );
      }
      const identifier = (b.identifier as string | undefined) ?? rid('mev');
      const event: Obj = {
        object: 'billing.meter_event',
        created: now(),
        event_name: b.event_name,
        identifier,
        livemode: false,
        payload,
        timestamp,
      };
      this.meterEventRequests.push(event);
      // Stripe processes meter events asynchronously and enforces identifier uniqueness: a second
      // event with the same identifier is accepted by the API but not counted.
      if (!this.meterEvents.has(identifier)) this.meterEvents.set(identifier, { ...event });
      return [200, event];
    }
    return [
      404,
      { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${r.method}: ${p}).` } },
    ];
  }

  /** Events produced by invoices.pay calls (what Stripe would then send as webhooks). */
  readonly sentByPay: Obj[] = [];

  private publicSession(session: Obj): Obj {
    return { ...session };
  }
}

function publicPm(pm: Obj): Obj {
  const { _chargesSucceed: _ignored, ...rest } = pm;
  return rest;
}

function list(url: string, data: Obj[]): Obj {
  return { object: 'list', data, has_more: false, url };
}

function notFound(kind: string, id: string): [number, unknown] {
  return [
    404,
    {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such ${kind}: '${id}'`,
        param: 'id',
      },
    },
  ];
}

function invalid(param: string, message: string): [number, unknown] {
  return [400, { error: { type: 'invalid_request_error', message, param } }];
}
