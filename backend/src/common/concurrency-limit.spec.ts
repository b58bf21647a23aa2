import { jest } from '@jest/globals';
import { ConcurrencyLimit } from './concurrency-limit.js';

/** A task that stays running until the test lets it finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimit', () => {
  it('runs no more than `concurrency` tasks at once and starts the waiting ones in order', async () => {
    const limit = new ConcurrencyLimit(3, 100, () => new Error('full'));
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const gates = Array.from({ length: 10 }, () => gate());
    const runs = gates.map((g, i) =>
      limit.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        order.push(i);
        await g.opened;
        running -= 1;
        return i;
      }),
    );
    await tick();
    expect(running).toBe(3);
    expect(limit.waiting).toBe(7);
    for (const g of gates) {
      g.open();
      await tick();
    }
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(peak).toBe(3);
    expect(limit.peakActive).toBe(3);
    expect(limit.running).toBe(0);
    expect(limit.started).toBe(10);
  });

  it('refuses a task at once when the queue is full, without running it', async () => {
    const limit = new ConcurrencyLimit(1, 2, () => new Error('Too busy.'));
    const g = gate();
    const task = jest.fn(() => g.opened);
    const accepted = [limit.run(task), limit.run(task), limit.run(task)];
    await tick();
    await expect(limit.run(task)).rejects.toThrow('Too busy.');
    expect(task).toHaveBeenCalledTimes(1);
    g.open();
    await Promise.all(accepted);
    expect(task).toHaveBeenCalledTimes(3);
  });

  it('frees the slot of a task that fails', async () => {
    const limit = new ConcurrencyLimit(1, 10, () => new Error('full'));
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit.run(() => Promise.resolve('next'))).resolves.toBe('next');
    expect(limit.running).toBe(0);
  });
});
