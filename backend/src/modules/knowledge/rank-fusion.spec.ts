import { reciprocalRankFusion } from './rank-fusion.js';

describe('reciprocalRankFusion', () => {
  it('puts an item both rankings agree on above the top of one ranking alone', () => {
    // a: 1/61 only; b: 1/62 + 1/62 = 2/62 > 1/61.
    expect(
      reciprocalRankFusion([
        ['a', 'b', 'c'],
        ['x', 'b', 'y'],
      ]),
    ).toEqual(['b', 'a', 'x', 'c', 'y']);
  });

  it('scores 1 / (k + rank) with ranks from 1', () => {
    // With k = 0: d = 1/1 + 1/4 = 1.25 beats e = 1/2 + 1/2 = 1.0; with k = 60 e wins (2/62 > 1/61 + 1/64).
    expect(
      reciprocalRankFusion(
        [
          ['d', 'e'],
          ['f', 'e', 'g', 'd'],
        ],
        0,
      )[0],
    ).toBe('d');
    expect(
      reciprocalRankFusion([
        ['d', 'e'],
        ['f', 'e', 'g', 'd'],
      ])[0],
    ).toBe('e');
  });

  it('breaks equal scores by the earlier ranking, and keeps items of one ranking in its order', () => {
    expect(
      reciprocalRankFusion([
        ['p', 'q'],
        ['r', 's'],
      ]),
    ).toEqual(['p', 'r', 'q', 's']);
    expect(reciprocalRankFusion([[], ['r', 's']])).toEqual(['r', 's']);
    expect(reciprocalRankFusion([[], []])).toEqual([]);
  });
});
