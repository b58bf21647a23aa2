import {
  NEEDS_VERIFIED_VISITOR,
  NOT_THE_VISITORS,
  type ActionRunner,
  type RunnableAction,
} from '../actions/action-runner.js';
import type { ActionRow } from '../actions/action.js';
import {
  actionSubject,
  notFoundForVisitorSentence,
  SIGN_IN_NEEDED,
  TurnActions,
  unreachableSentence,
} from './turn-actions.js';

describe('actionSubject', () => {
  it("makes an action's name readable as the thing it checks", () => {
    expect(actionSubject('order_status')).toBe('order');
    expect(actionSubject('create_support_ticket')).toBe('support ticket');
    expect(actionSubject('book_meeting')).toBe('meeting');
    expect(actionSubject('get_status')).toBe('get status');
  });
});

describe('TurnActions', () => {
  const row = {
    id: 5,
    botId: 1,
    name: 'order_status',
    description: 'Look up an order',
    parameters: { type: 'object', properties: { order_id: { type: 'integer' } }, required: ['order_id'] },
    requiresVerifiedVisitor: true,
  } as unknown as ActionRow;

  function setup(result: Awaited<ReturnType<ActionRunner['run']>>, verified = true) {
    const started: string[] = [];
    const runs: unknown[] = [];
    const actions = {
      runnable: () => ({ requiresVerifiedVisitor: true }) as RunnableAction,
      runner: {
        run: (_action: RunnableAction, parameters: unknown) => {
          runs.push(parameters);
          return Promise.resolve(result);
        },
      } as unknown as ActionRunner,
    };
    const turn = new TurnActions({
      rows: [row],
      actions,
      verified: verified ? { sub: 'u1', email: 'a@example.org', attributes: {} } : undefined,
      onStart: (subject) => started.push(subject),
      now: () => new Date('2026-11-27T10:00:00Z'),
    });
    return { turn, started, runs };
  }
  const ok = { request: { method: 'GET', url: 'https://x', headers: {}, body: null }, status: 200, durationMs: 12 };

  it('offers the actions to the model and gives it the filtered answer of a call, logged for the owner', async () => {
    const { turn, started, runs } = setup({
      ...ok,
      answer: '{"/status":"shipped"}',
      truncated: false,
      error: null,
    } as never);
    const tools = turn.tools();
    expect(tools.list).toEqual([{ name: 'order_status', description: 'Look up an order', parameters: row.parameters }]);
    expect(tools.maxCalls).toBe(3);
    expect(await tools.call({ name: 'order_status', arguments: '{"order_id":7}' })).toEqual({
      ok: true,
      data: { '/status': 'shipped' },
    });
    expect(started).toEqual(['order']);
    expect(runs).toEqual([{ order_id: 7 }]);
    expect(turn.answeredFromAction).toBe(true);
    expect(turn.calls).toEqual([
      expect.objectContaining({ actionId: 5, actionName: 'order_status', status: 200, durationMs: 12, error: null }),
    ]);
    expect(turn.failedCalls).toEqual([]);
  });

  it('tells the model the API failed in a sentence for the visitor, and counts it as a failed call', async () => {
    const { turn } = setup({
      ...ok,
      status: 500,
      answer: null,
      truncated: false,
      error: 'The API answered HTTP 500.',
    } as never);
    expect(await turn.tools().call({ name: 'order_status', arguments: '{"order_id":7}' })).toEqual({
      ok: false,
      error: unreachableSentence('order'),
    });
    expect(turn.answeredFromAction).toBe(false);
    expect(turn.failedCalls).toHaveLength(1);
  });

  it("says another person's record was not found for the visitor, logs the call, and is no failed call", async () => {
    const { turn } = setup({ ...ok, answer: null, truncated: false, error: NOT_THE_VISITORS } as never);
    expect(await turn.tools().call({ name: 'order_status', arguments: '{"order_id":7}' })).toEqual({
      ok: false,
      error: 'I could not find that order for your account.',
    });
    expect(notFoundForVisitorSentence('order')).toBe('I could not find that order for your account.');
    expect(turn.answeredFromAction).toBe(false);
    expect(turn.failedCalls).toEqual([]);
    expect(turn.calls).toEqual([
      expect.objectContaining({ status: 200, answer: null, error: 'The answer does not belong to this visitor.' }),
    ]);
  });

  it('asks an unverified visitor to sign in, shows no progress line, and is no failed call', async () => {
    const { turn, started } = setup(
      { request: null, status: null, durationMs: 0, answer: null, truncated: false, error: NEEDS_VERIFIED_VISITOR },
      false,
    );
    expect(await turn.tools().call({ name: 'order_status', arguments: '{"order_id":7}' })).toEqual({
      ok: false,
      error: SIGN_IN_NEEDED,
    });
    expect(started).toEqual([]);
    expect(turn.failedCalls).toEqual([]);
    expect(turn.calls).toHaveLength(1);
  });

  it('refuses an unknown action and arguments that are not JSON without running anything', async () => {
    const { turn, runs } = setup({} as never);
    expect(await turn.tools().call({ name: 'drop_tables', arguments: '{}' })).toEqual({
      ok: false,
      error: 'There is no action named "drop_tables".',
    });
    const told = await turn.tools().call({ name: 'order_status', arguments: '{"order_id":' });
    expect(told).toEqual({ ok: false, error: expect.stringContaining('not valid JSON') });
    const again = await turn.tools().call({ name: 'order_status', arguments: 'nope' });
    expect(again).toEqual({ ok: false, error: expect.stringContaining('Do not call order_status again') });
    expect(runs).toEqual([]);
    expect(turn.calls.map((c) => c.parameters)).toEqual([{ raw: '{"order_id":' }, { raw: 'nope' }]);
  });
});
