import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { WEBHOOK_LIMITS } from '@botsmith/contract';
import type request from 'supertest';
import { WebhooksService } from '../../src/modules/webhooks/webhooks.service.js';
import { mailsTo } from '../support/account-helpers.js';
import { eventually } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/*
 * Fair webhook deliveries (docs/product.md#webhooks), the attack as the test: a hostile owner's
 * ten endpoints on a loopback tarpit that never answers must not hold another owner's event; no
 * endpoint ever has two requests open; an endpoint failing for three days is disabled, its owner
 * mailed once, and enabled again only by its owner. Loopback only (WEBHOOK_ALLOW_PRIVATE); the
 * worker is off and each test drives `deliverDue`, with its own clock where days must pass.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOT_FOUND = { error: 'Webhook not found.', code: 'WEBHOOK_NOT_FOUND' };
const SENDS_PER_OWNER = 3; // WEBHOOK_SENDS_PER_OWNER's default

/** A loopback server that reads each request and never answers; counts the open ones per path. */
async function startTarpit() {
  const open = new Map<string, number>();
  const most = new Map<string, number>();
  const sockets = new Set<Socket>();
  let total = 0;
  let requests = 0;
  const server = http.createServer((req) => {
    const key = req.url ?? '/';
    requests += 1;
    total += 1;
    open.set(key, (open.get(key) ?? 0) + 1);
    most.set(key, Math.max(most.get(key) ?? 0, open.get(key)!));
    req.resume();
    req.socket.once('close', () => {
      total -= 1;
      open.set(key, open.get(key)! - 1);
    });
  });
  server.requestTimeout = 0;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    /** Requests open now, all paths together. */
    openNow: () => total,
    openAt: (path: string) => open.get(path) ?? 0,
    /** The most requests ever open at once on each path. */
    most,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback receiver answering the next status of `statuses` (then 200), noting when each request came. */
async function startReceiver() {
  const received: Array<{ at: number; body: string }> = [];
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ at: Date.now(), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    statuses,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('fair webhook deliveries', () => {
  let t: TestApp;
  let webhooks: WebhooksService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '0' });
    webhooks = t.app.get(WebhooksService);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.statuses.length = 0;
    await t.dataSource.query(`DELETE FROM webhook_endpoints`);
  });

  async function addEndpoint(agent: request.Agent, url: string): Promise<number> {
    const response = await agent
      .post('/api/webhooks')
      .set('Origin', t.origin)
      .send({ url, events: ['lead.created'] });
    expect(response.status).toBe(201);
    return response.body.webhook.id as number;
  }

  it("delivers a victim's event at once while another owner's ten endpoints hang, one request per endpoint", async () => {
    const tarpit = await startTarpit();
    try {
      const hostile = await signedInAgent(t);
      const victim = await signedInAgent(t);
      for (let i = 0; i < WEBHOOK_LIMITS.perOwner; i += 1) await addEndpoint(hostile.agent, tarpit.url(`/hang/${i}`));
      await addEndpoint(victim.agent, receiver.url);

      // The hostile owner's fifty deliveries are older than the victim's first event.
      const start = Date.now();
      for (let lead = 0; lead < 5; lead += 1) {
        expect(
          await webhooks.publish(hostile.user.id, 'lead.created', { lead }, { at: new Date(start - MINUTE) }),
        ).toBe(WEBHOOK_LIMITS.perOwner);
      }
      await webhooks.publish(victim.user.id, 'lead.created', { victim: 1 });

      // Two passes at once, as two instances would run them.
      const passes = Promise.all([webhooks.deliverDue(), webhooks.deliverDue()]);
      await eventually(async () => receiver.received.length === 1, 3000);
      expect(receiver.received[0].at - start).toBeLessThan(3000);
      await eventually(async () => tarpit.openNow() === SENDS_PER_OWNER, 3000);

      // A second event while the hostile endpoints still hang: sent at once too.
      const queuedAt = Date.now();
      await webhooks.publish(victim.user.id, 'lead.created', { victim: 2 });
      await eventually(async () => receiver.received.length === 2, 3000);
      expect(receiver.received[1].at - queuedAt).toBeLessThan(1500);
      expect(tarpit.openNow()).toBe(SENDS_PER_OWNER);
      expect(receiver.received.map((r) => JSON.parse(r.body).data)).toEqual([{ victim: 1 }, { victim: 2 }]);

      // The hostile owner never had more than its share open, nor any endpoint two requests.
      expect(tarpit.requests()).toBe(SENDS_PER_OWNER);
      expect([...tarpit.most.values()].every((n) => n === 1)).toBe(true);
      const busy: Array<{ n: string }> = await t.dataSource.query(
        `SELECT count(*) AS n FROM webhook_endpoints WHERE owner_id = $1 AND busy_until IS NOT NULL`,
        [hostile.user.id],
      );
      expect(Number(busy[0].n)).toBe(SENDS_PER_OWNER);

      // The tarpit goes away: the hung attempts fail, are due again later, and the passes end.
      await tarpit.close();
      const [first, second] = await passes;
      expect(first + second).toBeGreaterThanOrEqual(2 + SENDS_PER_OWNER);
      expect([...tarpit.most.values()].every((n) => n === 1)).toBe(true);
      const pending: Array<{ n: string }> = await t.dataSource.query(
        `SELECT count(*) AS n FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE e.owner_id = $1 AND d.status = 'pending'`,
        [hostile.user.id],
      );
      expect(Number(pending[0].n)).toBe(5 * WEBHOOK_LIMITS.perOwner);
      const released: Array<{ n: string }> = await t.dataSource.query(
        `SELECT count(*) AS n FROM webhook_endpoints WHERE busy_until IS NOT NULL`,
      );
      expect(Number(released[0].n)).toBe(0);
    } finally {
      await tarpit.close();
    }
  }, 30_000);

  it('sends one owner several deliveries to one endpoint one after the other, never two at once', async () => {
    const tarpit = await startTarpit();
    try {
      const owner = await signedInAgent(t);
      await addEndpoint(owner.agent, tarpit.url('/one'));
      const at = new Date();
      for (let i = 0; i < 4; i += 1) await webhooks.publish(owner.user.id, 'lead.created', { i }, { at });
      const passes = Promise.all([webhooks.deliverDue(), webhooks.deliverDue(), webhooks.deliverDue()]);
      await eventually(async () => tarpit.openAt('/one') === 1, 3000);
      // Give the other passes time to try the same endpoint.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(tarpit.requests()).toBe(1);
      expect(tarpit.most.get('/one')).toBe(1);
      await tarpit.close();
      await passes;
    } finally {
      await tarpit.close();
    }
  }, 30_000);

  it('answers a test send on an endpoint that has a request in flight without opening a second one', async () => {
    const tarpit = await startTarpit();
    try {
      const owner = await signedInAgent(t);
      const id = await addEndpoint(owner.agent, tarpit.url('/busy'));
      await webhooks.publish(owner.user.id, 'lead.created', {});
      const pass = webhooks.deliverDue();
      await eventually(async () => tarpit.openAt('/busy') === 1, 3000);
      const tested = await owner.agent.post(`/api/webhooks/${id}/test`).set('Origin', t.origin);
      expect(tested.status).toBe(200);
      expect(tested.body.delivery).toMatchObject({
        type: 'webhook.test',
        status: 'failed',
        attempts: 0,
        nextAttemptAt: null,
        lastError: 'Not sent: another delivery to this endpoint was in progress. Send the test again in a few seconds.',
      });
      expect(tarpit.requests()).toBe(1);
      await tarpit.close();
      await pass;
    } finally {
      await tarpit.close();
    }
  }, 30_000);

  describe('an endpoint failing for 3 days', () => {
    it('is disabled, its owner mailed once; its deliveries wait; only its owner enables it again', async () => {
      const owner = await signedInAgent(t);
      const other = await signedInAgent(t);
      const id = await addEndpoint(owner.agent, receiver.url);
      const listed = async () => {
        const response = await owner.agent.get('/api/webhooks');
        expect(response.status).toBe(200);
        return response.body.webhooks[0] as Record<string, unknown>;
      };
      const disabledMails = async () =>
        (await mailsTo(t, owner.user.email)).filter((m) => m.subject.includes('webhook endpoint was disabled'));
      receiver.statuses.push(...Array(20).fill(500));

      // The clock moves ahead: each pass runs days after the first failure.
      const t0 = new Date();
      const at = (ms: number) => new Date(t0.getTime() + ms);
      await webhooks.publish(owner.user.id, 'lead.created', { n: 1 }, { at: t0 });
      expect(await webhooks.deliverDue(t0)).toBe(1);
      const first = await listed();
      expect(first.disabledAt).toBeNull();
      const failingSince = first.failingSince as string;
      expect(Date.parse(failingSince) - t0.getTime()).toBeGreaterThanOrEqual(0);
      expect(Date.parse(failingSince) - t0.getTime()).toBeLessThan(10_000);

      await webhooks.publish(owner.user.id, 'lead.created', { n: 2 }, { at: at(2 * DAY) });
      expect(await webhooks.deliverDue(at(2 * DAY))).toBe(2);
      expect(await listed()).toMatchObject({ failingSince, disabledAt: null });
      expect(await disabledMails()).toEqual([]);

      // Three days and a minute after the first failure, with no success since: disabled.
      await webhooks.publish(owner.user.id, 'lead.created', { n: 3 }, { at: at(3 * DAY + MINUTE) });
      expect(await webhooks.deliverDue(at(3 * DAY + MINUTE))).toBeGreaterThanOrEqual(1);
      const disabled = await listed();
      expect(disabled).toMatchObject({ failingSince, disabledAt: at(3 * DAY + MINUTE).toISOString() });
      const sentBefore = receiver.received.length;

      // Nothing more is sent to it; a new event waits with the ones pending.
      await webhooks.publish(owner.user.id, 'lead.created', { n: 4 }, { at: at(3 * DAY + 2 * MINUTE) });
      expect(await webhooks.deliverDue(at(3 * DAY + 2 * HOUR))).toBe(0);
      expect(receiver.received.length).toBe(sentBefore);
      const waiting: Array<{ event: number }> = await t.dataSource.query(
        `SELECT (payload::json -> 'data' ->> 'n')::int AS event FROM webhook_deliveries
          WHERE endpoint_id = $1 AND status = 'pending' ORDER BY id`,
        [id],
      );
      expect(waiting.map((w) => w.event)).toEqual([3, 4]);

      // A failed test send does not mail again.
      const tested = await owner.agent.post(`/api/webhooks/${id}/test`).set('Origin', t.origin);
      expect([tested.status, tested.body.delivery.status]).toEqual([200, 'failed']);

      const mails = await disabledMails();
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe(`Your webhook endpoint was disabled: ${receiver.url}`);
      expect(mails[0].text).toContain(`disabled your webhook endpoint ${receiver.url}`);
      expect(mails[0].text).toContain('Settings > Integrations, and choose Enable');
      expect(mails[0].text).toContain(`${t.origin}/dashboard`);
      expect(await mailsTo(t, other.user.email)).toEqual([]);

      // Another owner cannot enable it, nor learn that it exists.
      const refused = await other.agent.post(`/api/webhooks/${id}/enable`).set('Origin', t.origin);
      expect([refused.status, refused.body]).toEqual([404, NOT_FOUND]);
      expect((await listed()).disabledAt).toBe(disabled.disabledAt);
      const anonymous = await t.http().post(`/api/webhooks/${id}/enable`).set('Origin', t.origin);
      expect(anonymous.status).toBe(401);

      // Its owner enables it: the deliveries that waited go out, oldest first.
      receiver.statuses.length = 0;
      const enabled = await owner.agent.post(`/api/webhooks/${id}/enable`).set('Origin', t.origin);
      expect(enabled.status).toBe(200);
      expect(enabled.body.webhook).toMatchObject({ id, disabledAt: null, failingSince: null });
      expect(await webhooks.deliverDue()).toBe(2);
      expect(receiver.received.slice(sentBefore + 1).map((r) => JSON.parse(r.body).data)).toEqual([{ n: 3 }, { n: 4 }]);
      expect(await listed()).toMatchObject({ disabledAt: null, failingSince: null });
      expect(await disabledMails()).toHaveLength(1);
    });

    it('is not disabled when an attempt went through within the 3 days', async () => {
      const owner = await signedInAgent(t);
      await addEndpoint(owner.agent, receiver.url);
      const t0 = new Date();
      const at = (ms: number) => new Date(t0.getTime() + ms);
      receiver.statuses.push(500, 200, ...Array(10).fill(500));
      await webhooks.publish(owner.user.id, 'lead.created', { n: 1 }, { at: t0 });
      expect(await webhooks.deliverDue(t0)).toBe(1); // fails
      expect(await webhooks.deliverDue(at(DAY))).toBe(1); // its retry goes through
      await webhooks.publish(owner.user.id, 'lead.created', { n: 2 }, { at: at(2 * DAY) });
      expect(await webhooks.deliverDue(at(2 * DAY))).toBe(1); // fails: a new streak
      await webhooks.publish(owner.user.id, 'lead.created', { n: 3 }, { at: at(3 * DAY + MINUTE) });
      expect(await webhooks.deliverDue(at(3 * DAY + MINUTE))).toBe(2); // both fail
      const [endpoint] = (await owner.agent.get('/api/webhooks')).body.webhooks;
      expect(endpoint).toMatchObject({ failingSince: at(2 * DAY).toISOString(), disabledAt: null });
      expect(
        (await mailsTo(t, owner.user.email)).filter((m) => m.subject.includes('webhook endpoint was disabled')),
      ).toEqual([]);
    });

    it('answers 404 to enable an endpoint that does not exist, and 400 for an id that is not one', async () => {
      const owner = await signedInAgent(t);
      const missing = await owner.agent.post('/api/webhooks/999999/enable').set('Origin', t.origin);
      expect([missing.status, missing.body]).toEqual([404, NOT_FOUND]);
      const bad = await owner.agent.post('/api/webhooks/abc/enable').set('Origin', t.origin);
      expect(bad.status).toBe(400);
    });
  });
});
