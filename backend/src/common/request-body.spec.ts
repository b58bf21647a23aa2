import { REQUEST_BODY_MAX_DEPTH } from './constants.js';
import { bodyShapeProblem } from './request-body.js';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 1; i < depth; i += 1) value = i % 2 === 0 ? [value] : { a: value };
  return { a: value };
}

describe('bodyShapeProblem', () => {
  it('accepts plain objects nested up to the limit', () => {
    expect(bodyShapeProblem({})).toBeNull();
    expect(bodyShapeProblem({ botId: 1, chatHistory: [{ role: 'user', content: 'hi' }] })).toBeNull();
    expect(bodyShapeProblem(nested(REQUEST_BODY_MAX_DEPTH))).toBeNull();
  });

  it.each([[[]], [[{ a: 1 }]], ['text'], [42], [null], [true]])('refuses the top-level value %j', (body) => {
    expect(bodyShapeProblem(body)?.getResponse()).toEqual({
      error: 'The request body must be a JSON object.',
      code: 'INVALID_BODY',
    });
  });

  it('refuses one level deeper than the limit, and a nesting far past any stack', () => {
    expect(bodyShapeProblem(nested(REQUEST_BODY_MAX_DEPTH + 1))?.getResponse()).toEqual({
      error: `The request body is nested too deeply (at most ${REQUEST_BODY_MAX_DEPTH} levels).`,
      code: 'INVALID_BODY',
    });
    const deep = JSON.parse(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`) as unknown;
    expect(bodyShapeProblem(deep)?.code).toBe('INVALID_BODY');
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses a field named %s at any depth', (key) => {
    const top = JSON.parse(`{"${key}":{"admin":true}}`) as unknown;
    const inner = JSON.parse(`{"email":{"${key}":[]}}`) as unknown;
    const inArray = JSON.parse(`{"chatHistory":[{"role":"user","${key}":1}]}`) as unknown;
    for (const body of [top, inner, inArray]) {
      expect(bodyShapeProblem(body)?.getResponse()).toEqual({
        error: `The request body must not contain a field named ${key}.`,
        code: 'INVALID_BODY',
      });
    }
  });
});
