import { AppError } from '../../common/app-error.js';
import { AnalyticsAdmission, ANALYTICS_BUSY } from './analytics-admission.js';

/** A piece of work the test finishes when it likes. */
function pending() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done.then(() => 'figures'), finish };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

describe('AnalyticsAdmission', () => {
  it('runs one request at a time on the instance, the others in order', async () => {
    const admission = new AnalyticsAdmission({ running: 1, queued: 5, perOwner: 4 });
    const order: string[] = [];
    const a = pending();
    const b = pending();
    const first = admission.run(1, () => a.work().then((r) => (order.push('a'), r)));
    const second = admission.run(2, () => (order.push('b started'), b.work()));
    await Promise.resolve();
    expect(order).toEqual([]);
    a.finish();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['a', 'b started']);
    b.finish();
    await expect(second).resolves.toBe('figures');
  });

  it("turns an owner's requests past their share away with 429 and Retry-After, while another owner still gets a place", async () => {
    const admission = new AnalyticsAdmission({ running: 1, queued: 10, perOwner: 2 });
    const slow = pending();
    const held = [admission.run(7, slow.work), admission.run(7, slow.work)];
    const error = await refusal(admission.run(7, slow.work));
    expect(error.getStatus()).toBe(429);
    expect(error.getResponse()).toEqual({ error: ANALYTICS_BUSY, code: 'RATE_LIMITED' });
    expect(error.headers).toEqual({ 'Retry-After': '1' });
    const other = admission.run(8, () => Promise.resolve('theirs'));
    slow.finish();
    await Promise.all(held);
    await expect(other).resolves.toBe('theirs');
    // The owner's places are given back once their requests end.
    await expect(admission.run(7, () => Promise.resolve('again'))).resolves.toBe('again');
  });

  it('turns requests away once the queue is full, and gives a place back when a request fails', async () => {
    const admission = new AnalyticsAdmission({ running: 1, queued: 1, perOwner: 4 });
    const slow = pending();
    const running = admission.run(1, slow.work);
    const waiting = admission.run(2, () => Promise.reject(new Error('database went away')));
    expect((await refusal(admission.run(3, slow.work))).getStatus()).toBe(429);
    slow.finish();
    await running;
    await expect(waiting).rejects.toThrow('database went away');
    await expect(admission.run(2, () => Promise.resolve('ok'))).resolves.toBe('ok');
  });
});
