import { jest } from '@jest/globals';
import { PollingLoop } from './polling-loop.js';

describe('PollingLoop', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A drain the test finishes by hand, counting its runs. */
  function gatedDrain() {
    const runs: Array<() => void> = [];
    const drain = () => new Promise<void>((resolve) => runs.push(resolve));
    return { runs, drain };
  }

  it('runs at start, then again a poll after each run ends', async () => {
    const { runs, drain } = gatedDrain();
    const loop = new PollingLoop(1000, drain);
    loop.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(5000);
    expect(runs).toHaveLength(1); // one run at a time: the first has not ended
    runs[0]();
    await jest.advanceTimersByTimeAsync(999);
    expect(runs).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(2);
    runs[1]();
    await loop.stop();
  });

  it('can wait before its first run, never longer than a poll, unless kicked', async () => {
    const { runs, drain } = gatedDrain();
    const loop = new PollingLoop(60_000, drain);
    loop.start(1000);
    await jest.advanceTimersByTimeAsync(999);
    expect(runs).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(1);
    runs[0]();
    await loop.stop();

    const quick = gatedDrain();
    const polling = new PollingLoop(50, quick.drain);
    polling.start(1000);
    await jest.advanceTimersByTimeAsync(50);
    expect(quick.runs).toHaveLength(1); // a poll of 50 ms: the first run waits 50 ms, not 1 s
    quick.runs[0]();
    await polling.stop();

    const kicked = gatedDrain();
    const waiting = new PollingLoop(60_000, kicked.drain);
    waiting.start(1000);
    waiting.kick();
    await jest.advanceTimersByTimeAsync(0);
    expect(kicked.runs).toHaveLength(1); // work queued here does not wait for the first look
    kicked.runs[0]();
    await waiting.stop();
  });

  it('runs once more at once when kicked during a run, however often', async () => {
    const { runs, drain } = gatedDrain();
    const loop = new PollingLoop(60_000, drain);
    loop.start();
    await jest.advanceTimersByTimeAsync(0);
    loop.kick();
    loop.kick();
    runs[0]();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(2);
    runs[1]();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(2); // no kick during the second run: it waits for the poll
    await loop.stop();
  });

  it('stop waits for the run in hand and starts no other', async () => {
    const { runs, drain } = gatedDrain();
    const loop = new PollingLoop(10, drain);
    loop.start();
    await jest.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    runs[0]();
    await stopping;
    loop.kick();
    await jest.advanceTimersByTimeAsync(100);
    expect(runs).toHaveLength(1);
  });

  it('never runs with a poll of 0 (off)', async () => {
    const { runs, drain } = gatedDrain();
    const loop = new PollingLoop(0, drain);
    loop.start();
    loop.kick();
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toHaveLength(0);
    expect(loop.enabled).toBe(false);
  });
});
