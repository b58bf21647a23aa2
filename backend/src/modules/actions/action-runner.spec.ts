import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ACTION_SECRET_MASK } from '@botsmith/contract';
import { checkParametersSchema } from './action-definition.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ActionRunner,
  belongsTo,
  buildRequest,
  NEEDS_VERIFIED_VISITOR,
  NOT_THE_VISITORS,
  validateParameters,
  type RunnableAction,
} from './action-runner.js';

const ACTION: RunnableAction = {
  name: 'order_status',
  parameters: checkParametersSchema({
    type: 'object',
    properties: {
      order_id: { type: 'string', maxLength: 12 },
      count: { type: 'integer' },
      express: { type: 'boolean' },
      size: { type: 'string', enum: ['s', 'm'] },
    },
    required: ['order_id'],
  }),
  method: 'GET',
  url: 'https://shop.example/api/orders/{order_id}?lang=en',
  headers: [{ name: 'X-Api-Key', value: 'sk_live_secret' }],
  visitorFields: ['sub', 'email', 'plan'],
  requiresVerifiedVisitor: true,
  timeoutMs: 8000,
  answerFields: ['/status'],
  visitorMatch: null,
};

const VISITOR = { verified: true, sub: 'user 7', email: 'ann@example.com', attributes: { plan: 'pro', other: 'x' } };

describe('action parameters', () => {
  it('accepts values of their schema', () => {
    expect(validateParameters(ACTION.parameters, { order_id: '1042', count: 2, express: false, size: 'm' })).toEqual({
      values: { order_id: '1042', count: 2, express: false, size: 'm' },
    });
  });

  it.each([
    [{ order_id: '1042', coupon: 'x' }, 'Unknown parameter "coupon".'],
    [{ order_id: '1042', constructor: 'x' }, 'Unknown parameter "constructor".'],
    [{}, '"order_id" is required.'],
    [{ order_id: 1042 }, '"order_id" must be a string.'],
    [{ order_id: 'x'.repeat(13) }, '"order_id" can be at most 12 characters.'],
    [{ order_id: '1', count: 1.5 }, '"count" must be a whole number.'],
    [{ order_id: '1', count: '2' }, '"count" must be a whole number.'],
    [{ order_id: '1', express: 'yes' }, '"express" must be true or false.'],
    [{ order_id: '1', size: 'xl' }, '"size" must be one of: s, m.'],
    [[], 'The parameters must be an object.'],
  ])('refuses %j', (parameters, error) => {
    expect(validateParameters(ACTION.parameters, parameters)).toEqual({ error });
  });
});

describe('the request', () => {
  it('puts path parameters in the path (encoded), the rest and the visitor in the query; masks secrets', () => {
    const built = buildRequest(ACTION, { order_id: 'A/1 ?#', count: 2 }, VISITOR);
    if ('error' in built) throw new Error(built.error);
    expect(built.url).toBe(
      'https://shop.example/api/orders/A%2F1%20%3F%23?lang=en&count=2&visitor.sub=user+7&visitor.email=ann%40example.com&visitor.plan=pro',
    );
    expect(built.headers['X-Api-Key']).toBe('sk_live_secret');
    expect(built.view.headers['X-Api-Key']).toBe(ACTION_SECRET_MASK);
    expect(JSON.stringify(built.view)).not.toContain('sk_live_secret');
    expect(built.body).toBeNull();
  });

  it('sends the rest as a JSON body for POST', () => {
    const built = buildRequest({ ...ACTION, method: 'POST' }, { order_id: '7', express: true }, VISITOR);
    if ('error' in built) throw new Error(built.error);
    expect(built.url).toBe('https://shop.example/api/orders/7?lang=en');
    expect(JSON.parse(built.body!)).toEqual({
      express: true,
      visitor: { sub: 'user 7', email: 'ann@example.com', plan: 'pro' },
    });
    expect(built.view.headers['Content-Type']).toBe('application/json');
  });

  it('refuses a path value that would climb the path', () => {
    for (const value of ['.', '..']) {
      expect(buildRequest(ACTION, { order_id: value }, VISITOR)).toEqual({
        error: '"order_id" cannot be empty, "." or "..".',
      });
    }
  });
});

describe('the runner', () => {
  const runner = new ActionRunner({
    allowPrivate: false,
    resolve: () => Promise.reject(new Error('no lookup may happen')),
  });

  it('refuses before any request: an unverified visitor, invalid parameters', async () => {
    expect(await runner.run(ACTION, { order_id: '1' }, { verified: false })).toMatchObject({
      request: null,
      status: null,
      error: NEEDS_VERIFIED_VISITOR,
    });
    expect(await runner.run(ACTION, { order_id: '1', extra: 1 }, VISITOR)).toMatchObject({
      request: null,
      error: 'Unknown parameter "extra".',
    });
    runner.destroy();
  });
});

describe('the owner check (visitorMatch)', () => {
  const byEmail = { pointer: '/orders/0/email', field: 'email' as const };
  const order = { orders: [{ email: '  Ann@Example.COM ', status: 'shipped', customer: { id: 'user 7' } }] };

  it("matches the visitor's e-mail trimmed and in any case, and the sub exactly", () => {
    expect(belongsTo(order, byEmail, VISITOR)).toBe(true);
    expect(belongsTo(order, byEmail, { ...VISITOR, email: ' ANN@example.com' })).toBe(true);
    expect(belongsTo(order, { pointer: '/orders/0/customer/id', field: 'sub' }, VISITOR)).toBe(true);
    expect(belongsTo(order, { pointer: '/orders/0/customer/id', field: 'sub' }, { ...VISITOR, sub: 'USER 7' })).toBe(
      false,
    );
  });

  it('refuses another e-mail, a missing value, a value that is not text, a visitor without the field or unverified', () => {
    expect(belongsTo(order, byEmail, { ...VISITOR, email: 'bob@example.com' })).toBe(false);
    expect(belongsTo({ orders: [] }, byEmail, VISITOR)).toBe(false);
    expect(belongsTo({ orders: [{ email: ['ann@example.com'] }] }, byEmail, VISITOR)).toBe(false);
    expect(belongsTo({ orders: [{ email: '' }] }, byEmail, { ...VISITOR, email: '' })).toBe(false);
    expect(belongsTo(order, byEmail, { verified: true, sub: 'user 7' })).toBe(false);
    expect(belongsTo(order, byEmail, { ...VISITOR, verified: false })).toBe(false);
    expect(belongsTo(order, byEmail, null)).toBe(false);
  });

  describe('on a real answer', () => {
    let server: http.Server;
    let base: string;
    const runner = new ActionRunner({ allowPrivate: true });
    beforeAll(async () => {
      // Like a store: any order by its number, with the e-mail of whoever placed it.
      server = http.createServer((req, res) => {
        const body = {
          orders: [{ name: '#1001', email: 'Ann@Example.com', fulfillment_status: 'shipped', phone: '+1 555 0100' }],
        };
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify(req.url?.includes('none') ? { orders: [] } : body));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      runner.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const shopAction = (path: string): RunnableAction => ({
      ...ACTION,
      url: `${base}/${path}/{order_id}`,
      answerFields: ['/orders/0/fulfillment_status'],
      visitorMatch: byEmail,
    });

    it("gives the filtered answer to the order's owner (their e-mail in another case)", async () => {
      const result = await runner.run(
        shopAction('orders'),
        { order_id: '1001' },
        { ...VISITOR, email: 'ANN@example.com' },
      );
      expect(result).toMatchObject({ status: 200, error: null, answer: '{"/orders/0/fulfillment_status":"shipped"}' });
    });

    it('gives another visitor, or an answer without the e-mail, nothing of it', async () => {
      for (const [path, visitor] of [
        ['orders', { ...VISITOR, email: 'bob@example.com' }],
        ['none', VISITOR],
      ] as const) {
        const result = await runner.run(shopAction(path), { order_id: '1001' }, visitor);
        expect(result).toMatchObject({ status: 200, answer: null, truncated: false, error: NOT_THE_VISITORS });
        const shown = JSON.stringify(result);
        for (const leaked of ['shipped', 'Ann@', '555', '#1001']) expect(shown).not.toContain(leaked);
      }
    });
  });
});
