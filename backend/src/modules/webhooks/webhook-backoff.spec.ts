import { DELIVERY_WINDOW_MS, nextAttemptAt, RETRY_DELAYS_MS } from './webhook-backoff.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('nextAttemptAt', () => {
  const eventAt = new Date('2026-03-01T00:00:00Z');
  const after = (ms: number) => new Date(eventAt.getTime() + ms);

  it('waits 1 min, 5 min, 30 min, 2 h, then 6 h between attempts', () => {
    expect(nextAttemptAt(1, eventAt, eventAt)).toEqual(after(MINUTE));
    expect(nextAttemptAt(2, after(MINUTE), eventAt)).toEqual(after(6 * MINUTE));
    expect(nextAttemptAt(3, after(6 * MINUTE), eventAt)).toEqual(after(36 * MINUTE));
    expect(nextAttemptAt(4, after(36 * MINUTE), eventAt)).toEqual(after(156 * MINUTE));
    expect(nextAttemptAt(5, after(3 * HOUR), eventAt)).toEqual(after(9 * HOUR));
    expect(nextAttemptAt(9, after(10 * HOUR), eventAt)).toEqual(after(16 * HOUR));
    expect(RETRY_DELAYS_MS).toEqual([MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR]);
  });

  it('gives up when the next attempt would fall past 24 h after the event', () => {
    expect(nextAttemptAt(6, after(18 * HOUR), eventAt)).toEqual(after(DELIVERY_WINDOW_MS));
    expect(nextAttemptAt(6, after(18 * HOUR + 1), eventAt)).toBeNull();
    expect(nextAttemptAt(1, after(25 * HOUR), eventAt)).toBeNull();
  });

  it('treats a count below one as the first attempt', () => {
    expect(nextAttemptAt(0, eventAt, eventAt)).toEqual(after(MINUTE));
  });
});
