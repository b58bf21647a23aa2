import { poolOf, SourceJobSlots, type WaitingJob } from './source-job-slots.js';

const waiting = (...pairs: [ownerId: number, sourceId: number][]): WaitingJob[] =>
  pairs.map(([ownerId, sourceId]) => ({ ownerId, sourceId }));
const owners = (jobs: WaitingJob[]) => jobs.map((job) => job.ownerId);

describe('SourceJobSlots', () => {
  it('puts websites in the crawl pool and every other kind in the file pool', () => {
    expect(poolOf('website')).toBe('crawl');
    expect(poolOf('file')).toBe('file');
    expect(poolOf('text')).toBe('file');
  });

  it('keeps crawls and file jobs in separate slots: full crawl slots leave the file slots free', () => {
    const slots = new SourceJobSlots({ crawl: 2, file: 1, perOwner: 1 });
    expect(slots.take('crawl', 1)).toBe(true);
    expect(slots.take('crawl', 2)).toBe(true);
    expect(slots.free('crawl')).toBe(0);
    expect(slots.take('crawl', 3)).toBe(false);
    expect(slots.free('file')).toBe(1);
    expect(slots.take('file', 3)).toBe(true);
    expect(slots.free('file')).toBe(0);
  });

  it('runs at most perOwner jobs of one owner in a pool, and leaves their other jobs waiting', () => {
    const slots = new SourceJobSlots({ crawl: 4, file: 2, perOwner: 1 });
    expect(slots.take('crawl', 9)).toBe(true);
    expect(slots.take('crawl', 9)).toBe(false);
    expect(slots.ownersAtCap('crawl')).toEqual([9]);
    // The owner's upload is in another pool: it is not held back by their own crawl.
    expect(slots.ownersAtCap('file')).toEqual([]);
    expect(owners(slots.inTurn('crawl', waiting([9, 2], [4, 3])))).toEqual([4]);
    slots.release('crawl', 9);
    expect(slots.ownersAtCap('crawl')).toEqual([]);
    expect(slots.take('crawl', 9)).toBe(true);

    const two = new SourceJobSlots({ crawl: 4, file: 2, perOwner: 2 });
    expect([two.take('crawl', 9), two.take('crawl', 9), two.take('crawl', 9)]).toEqual([true, true, false]);
    two.release('crawl', 9);
    expect(two.take('crawl', 9)).toBe(true);
  });

  it('takes owners in turn after the one served last, not the oldest job first', () => {
    const slots = new SourceJobSlots({ crawl: 10, file: 2, perOwner: 5 });
    // Owner 7 queued long ago (source 1); owners 3 and 12 queued later.
    const queue = waiting([7, 1], [3, 40], [12, 41]);
    expect(owners(slots.inTurn('crawl', queue))).toEqual([3, 7, 12]);
    slots.take('crawl', 3);
    expect(owners(slots.inTurn('crawl', queue))).toEqual([7, 12, 3]);
    slots.take('crawl', 7);
    expect(owners(slots.inTurn('crawl', queue))).toEqual([12, 3, 7]);
    slots.take('crawl', 12);
    // Round again: owner 3 is next although owner 7's next job is older.
    expect(owners(slots.inTurn('crawl', waiting([7, 2], [3, 50])))).toEqual([3, 7]);
    // Each pool keeps its own turn.
    expect(owners(slots.inTurn('file', queue))).toEqual([3, 7, 12]);
  });

  it('a flood of one owner in the queue still lets a newcomer in at its turn', () => {
    const slots = new SourceJobSlots({ crawl: 1, file: 1, perOwner: 1 });
    slots.take('crawl', 1);
    slots.release('crawl', 1);
    // Owner 1 has many crawls waiting (the database lists each owner's oldest); owner 2 one.
    expect(owners(slots.inTurn('crawl', waiting([1, 10], [2, 99])))).toEqual([2, 1]);
  });
});
