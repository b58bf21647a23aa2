import { describe, expect, it } from '@jest/globals';
import { ACTION_SECRET_MASK } from '@botsmith/contract';
import { checkParametersSchema } from './action-definition.js';
import {
  ActionRunner,
  buildRequest,
  NEEDS_VERIFIED_VISITOR,
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
