import { describe, expect, it, jest } from '@jest/globals';
import { BackgroundTasks } from './background-tasks.js';

/** A task the test settles by hand. */
function gate() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function tasks() {
  const logger = { error: jest.fn() };
  return { logger, background: new BackgroundTasks(logger) };
}

describe('BackgroundTasks', () => {
  it('runs the task at once and keeps it until it settles', async () => {
    const { background } = tasks();
    const first = gate();
    const task = jest.fn(() => first.promise);
    background.start(task, 'Could not send');
    expect(task).toHaveBeenCalledTimes(1);
    expect(background.size).toBe(1);
    first.resolve();
    await background.settled();
    expect(background.size).toBe(0);
  });

  it('settled() waits for every task, including one started while it waits', async () => {
    const { background } = tasks();
    const first = gate();
    const second = gate();
    let done = false;
    background.start(() => first.promise, 'first');
    const settled = background.settled().then(() => (done = true));
    background.start(() => second.promise, 'second');
    first.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    second.resolve();
    await settled;
    expect(done).toBe(true);
  });

  it('logs a failure with its description and never rejects', async () => {
    const { background, logger } = tasks();
    const failing = gate();
    background.start(() => failing.promise, 'Could not send "Welcome" to a@example.com');
    failing.reject(new Error('SMTP down'));
    await expect(background.settled()).resolves.toBeUndefined();
    expect(logger.error).toHaveBeenCalledWith('Could not send "Welcome" to a@example.com: SMTP down');
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a non-Error is the case under test
    background.start(() => Promise.reject('plain string'), 'Budget check');
    await background.settled();
    expect(logger.error).toHaveBeenLastCalledWith('Budget check: plain string');
    expect(background.size).toBe(0);
  });

  it('logs a task that throws before returning a promise, like one that rejects', async () => {
    const { background, logger } = tasks();
    expect(() =>
      background.start(() => {
        throw new Error('no port');
      }, 'Could not queue'),
    ).not.toThrow();
    await background.settled();
    expect(logger.error).toHaveBeenCalledWith('Could not queue: no port');
  });

  it('settled() resolves at once when nothing runs', async () => {
    const { background } = tasks();
    await expect(background.settled()).resolves.toBeUndefined();
  });

  it('startInTurn runs the tasks of one key one after the other, of other keys alongside', async () => {
    const { background } = tasks();
    const first = gate();
    const order: string[] = [];
    background.startInTurn('a@example.com', () => first.promise.then(() => order.push('a1')), 'Signup');
    background.startInTurn('a@example.com', async () => order.push('a2'), 'Password reset request');
    background.startInTurn('b@example.com', async () => order.push('b1'), 'Signup');
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['b1']);
    first.resolve();
    await background.settled();
    expect(order).toEqual(['b1', 'a1', 'a2']);
  });

  it('startInTurn runs nothing before it returns, and a failure does not stop the next in turn', async () => {
    const { background, logger } = tasks();
    const task = jest.fn(async () => undefined);
    background.startInTurn('a@example.com', () => Promise.reject(new Error('database down')), 'Signup');
    background.startInTurn('a@example.com', task, 'Password reset request');
    expect(task).not.toHaveBeenCalled();
    await background.settled();
    expect(logger.error).toHaveBeenCalledWith('Signup: database down');
    expect(task).toHaveBeenCalledTimes(1);
  });
});
