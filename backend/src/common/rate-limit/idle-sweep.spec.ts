import { IdleSweep } from './idle-sweep.js';

describe('IdleSweep', () => {
  it('drops only idle entries, and looks at most once a minute', () => {
    const start = Date.now();
    const entries = new Map([
      ['idle', { until: start }],
      ['busy', { until: start + 120_000 }],
    ]);
    const sweep = new IdleSweep(entries, (entry, now) => entry.until <= now);

    sweep.run(start + 59_000);
    expect([...entries.keys()]).toEqual(['idle', 'busy']);

    sweep.run(start + 61_000);
    expect([...entries.keys()]).toEqual(['busy']);

    // Busy has gone idle by now, but the next look comes a minute after the last one.
    sweep.run(start + 120_500);
    expect([...entries.keys()]).toEqual(['busy']);
    sweep.run(start + 121_500);
    expect([...entries.keys()]).toEqual([]);
  });
});
