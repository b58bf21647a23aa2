import { describe, expect, it } from '@jest/globals';
import {
  ActionDefinitionError,
  checkAnswerFields,
  checkDescription,
  checkHeaderName,
  checkHeaderValue,
  checkName,
  checkParametersSchema,
  checkTimeout,
  checkUrlTemplate,
  checkVisitorMatch,
  VISITOR_MATCH_NEEDS_VERIFIED,
} from './action-definition.js';

const ORDER = checkParametersSchema({
  type: 'object',
  properties: { order_id: { type: 'string', maxLength: 20 }, verbose: { type: 'boolean' } },
  required: ['order_id'],
});

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ActionDefinitionError);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

describe('action definition', () => {
  it('accepts a small schema of scalars, enums and a required list', () => {
    expect(
      checkParametersSchema({
        type: 'object',
        properties: {
          order_id: { type: 'string', maxLength: 20, description: 'The order number' },
          count: { type: 'integer' },
          price: { type: 'number' },
          gift: { type: 'boolean' },
          speed: { type: 'string', enum: ['standard', 'express'] },
        },
        required: ['order_id', 'order_id'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        order_id: { type: 'string', maxLength: 20, description: 'The order number' },
        count: { type: 'integer' },
        price: { type: 'number' },
        gift: { type: 'boolean' },
        speed: { type: 'string', enum: ['standard', 'express'] },
      },
      required: ['order_id'],
    });
  });

  it.each([
    [[], '"parameters" must be a JSON Schema object.'],
    [{ type: 'array' }, '"parameters" must have "type": "object".'],
    [
      { type: 'object', additionalProperties: true },
      '"parameters": "additionalProperties" is not supported (allowed: type, properties, required).',
    ],
    [
      { type: 'object', properties: { a: { type: 'object' } } },
      'Parameter "a": "type" must be string, number, integer or boolean.',
    ],
    [
      { type: 'object', properties: { a: { type: 'array', items: {} } } },
      'Parameter "a": "items" is not supported (allowed: type, description, maxLength, enum).',
    ],
    [
      { type: 'object', properties: { a: { type: 'integer', maxLength: 3 } } },
      'Parameter "a": "maxLength" applies to strings only.',
    ],
    [
      { type: 'object', properties: { a: { type: 'string', maxLength: 0 } } },
      'Parameter "a": "maxLength" must be a whole number from 1 to 1000.',
    ],
    [
      { type: 'object', properties: { a: { type: 'string', maxLength: 1.5 } } },
      'Parameter "a": "maxLength" must be a whole number from 1 to 1000.',
    ],
    [
      { type: 'object', properties: { a: { type: 'string', enum: [] } } },
      'Parameter "a": "enum" must list 1 to 50 different strings of at most 100 characters.',
    ],
    [
      { type: 'object', properties: { a: { type: 'string', enum: ['x', 'x'] } } },
      'Parameter "a": "enum" must list 1 to 50 different strings of at most 100 characters.',
    ],
    [
      { type: 'object', properties: { a: { type: 'number', enum: ['1'] } } },
      'Parameter "a": "enum" applies to strings only.',
    ],
    [
      { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] },
      '"parameters.required" names "b", which is not a parameter.',
    ],
    [
      { type: 'object', properties: {}, required: ['toString'] },
      '"parameters.required" names "toString", which is not a parameter.',
    ],
    [
      { type: 'object', properties: { a: { type: 'string' } }, required: 'a' },
      '"parameters.required" must be a list of parameter names.',
    ],
    [
      { type: 'object', properties: { visitor: { type: 'string' } } },
      '"visitor" is reserved for the visitor\'s fields.',
    ],
    [
      { type: 'object', properties: { __proto__x: { type: 'string' } } },
      'Parameter names use letters, digits and _, start with a letter and have at most 64 characters.',
    ],
  ])('refuses the schema %j', (schema, message) => {
    expect(refusal(() => checkParametersSchema(schema))).toBe(message);
  });

  it('refuses more than 20 parameters', () => {
    const properties = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}`, { type: 'string' }]));
    expect(refusal(() => checkParametersSchema({ type: 'object', properties }))).toBe(
      'An action can have at most 20 parameters.',
    );
  });

  it('takes snake_case names of at most 64 characters', () => {
    expect(checkName('get_order_status')).toBe('get_order_status');
    for (const bad of ['GetOrder', 'get-order', '1order', '', 'a'.repeat(65), 'order status']) {
      expect(refusal(() => checkName(bad))).toMatch(/snake_case/);
    }
  });

  it('takes an https URL template whose placeholders name required parameters, in the path only', () => {
    expect(checkUrlTemplate('https://shop.example/api/orders/{order_id}', ORDER, false)).toBe(
      'https://shop.example/api/orders/{order_id}',
    );
    expect(refusal(() => checkUrlTemplate('http://shop.example/orders/{order_id}', ORDER, false))).toBe(
      'Action URLs must use https://.',
    );
    expect(refusal(() => checkUrlTemplate('https://shop.example/orders/{nope}', ORDER, false))).toBe(
      "The URL's placeholder {nope} names no parameter.",
    );
    expect(refusal(() => checkUrlTemplate('https://shop.example/orders/{verbose}', ORDER, false))).toBe(
      "The URL's placeholder {verbose} must name a required parameter.",
    );
    expect(refusal(() => checkUrlTemplate('https://{order_id}.example/orders', ORDER, false))).toBe(
      "Placeholders may only be in the URL's path.",
    );
    expect(refusal(() => checkUrlTemplate('https://shop.example/orders?id={order_id}', ORDER, false))).toBe(
      "Placeholders may only be in the URL's path.",
    );
    expect(refusal(() => checkUrlTemplate('https://shop.example/orders/{order_id', ORDER, false))).toBe(
      'The URL has an unmatched { or }.',
    );
    expect(refusal(() => checkUrlTemplate('https://user:pw@shop.example/', ORDER, false))).toBe(
      'Enter the full URL of your API, without a user name or password.',
    );
    expect(refusal(() => checkUrlTemplate('https://shop.example:8443/', ORDER, false))).toBe(
      'Action URLs must use the standard port (443).',
    );
    for (const url of [
      'https://127.0.0.1/',
      'https://10.1.2.3/',
      'https://localhost/',
      'https://169.254.169.254/',
      'https://[::1]/',
    ]) {
      expect(refusal(() => checkUrlTemplate(url, ORDER, false))).toBe(
        'This URL points to a private network and cannot be called.',
      );
    }
    expect(refusal(() => checkUrlTemplate('javascript:alert(1)', ORDER, false))).toBe('Action URLs must use https://.');
    // Tests and intranets: loopback over http on any port, metadata still refused.
    expect(checkUrlTemplate('http://127.0.0.1:8080/orders/{order_id}', ORDER, true)).toBe(
      'http://127.0.0.1:8080/orders/{order_id}',
    );
    expect(refusal(() => checkUrlTemplate('http://169.254.169.254/', ORDER, true))).toBe(
      'This URL points to a private network and cannot be called.',
    );
  });

  it('refuses headers the client sets itself and values that would split a header', () => {
    expect(checkHeaderName('X-Api-Key')).toBe('X-Api-Key');
    expect(refusal(() => checkHeaderName('Host'))).toBe('The header "Host" is set by Botsmith and cannot be given.');
    expect(refusal(() => checkHeaderName('Content-Length'))).toMatch(/set by Botsmith/);
    expect(refusal(() => checkHeaderName('X Key'))).toMatch(/Header names use/);
    expect(refusal(() => checkHeaderValue('X-Api-Key', 'a\r\nX-Evil: 1'))).toBe(
      'The value of "X-Api-Key" must be 1 to 4000 characters on one line.',
    );
    expect(refusal(() => checkHeaderValue('X-Api-Key', ''))).toMatch(/1 to 4000/);
  });

  it('takes a timeout from 1 to 15 s, 8 s by default', () => {
    expect(checkTimeout(undefined)).toBe(8000);
    expect(checkTimeout(15000)).toBe(15000);
    expect(refusal(() => checkTimeout(15001))).toMatch(/from 1000 to 15000/);
    expect(refusal(() => checkTimeout(999))).toMatch(/from 1000 to 15000/);
  });

  it('takes answer fields as JSON pointers', () => {
    expect(checkAnswerFields(['/status', '/items/0/name', '', '/a~1b'])).toEqual([
      '/status',
      '/items/0/name',
      '',
      '/a~1b',
    ]);
    expect(refusal(() => checkAnswerFields([]))).toMatch(/1 to 20 JSON pointers/);
    expect(refusal(() => checkAnswerFields(['status']))).toMatch(/JSON pointer/);
    expect(refusal(() => checkAnswerFields(['/a~2']))).toMatch(/JSON pointer/);
  });
});

describe('action description', () => {
  it('is required and at most 1000 characters, trimmed', () => {
    expect(checkDescription('  Look up an order  ')).toBe('Look up an order');
    expect(refusal(() => checkDescription('   '))).toBe('Describe what the action does in at most 1000 characters.');
    expect(refusal(() => checkDescription('x'.repeat(1001)))).toMatch(/at most 1000/);
  });
});

describe('the owner check (visitorMatch)', () => {
  it('takes a pointer into the answer and email or sub; none when left out or null', () => {
    expect(checkVisitorMatch({ pointer: '/billing/email', field: 'email' }, true)).toEqual({
      pointer: '/billing/email',
      field: 'email',
    });
    expect(checkVisitorMatch({ pointer: '/customer/id', field: 'sub' }, true)).toEqual({
      pointer: '/customer/id',
      field: 'sub',
    });
    expect(checkVisitorMatch(undefined, false)).toBeNull();
    expect(checkVisitorMatch(null, true)).toBeNull();
  });

  it('is refused for an action that runs for visitors who are not verified', () => {
    expect(refusal(() => checkVisitorMatch({ pointer: '/email', field: 'email' }, false))).toBe(
      VISITOR_MATCH_NEEDS_VERIFIED,
    );
    expect(VISITOR_MATCH_NEEDS_VERIFIED).toBe(
      'The answer can only be matched to a verified visitor: turn on "Only for verified visitors" to check it.',
    );
  });

  it.each([
    ['not an object', '/email'],
    ['a list', [{ pointer: '/email', field: 'email' }]],
    ['not a pointer', { pointer: 'email', field: 'email' }],
    ['the whole answer', { pointer: '', field: 'email' }],
    ['a bad escape', { pointer: '/a~2', field: 'email' }],
    ['a pointer too long', { pointer: '/' + 'a'.repeat(300), field: 'email' }],
    ['another field', { pointer: '/email', field: 'name' }],
    ['no field', { pointer: '/email' }],
    ['an extra key', { pointer: '/email', field: 'email', exact: true }],
  ])('refuses %s with a sentence', (_label, raw) => {
    expect(refusal(() => checkVisitorMatch(raw, true))).toMatch(/visitorMatch/);
  });
});
