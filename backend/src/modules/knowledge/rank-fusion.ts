import { HYBRID_RETRIEVAL } from '../../common/constants.js';

/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): each ranking gives an item
 * 1 / (k + rank), rank counted from 1, and the sums decide. Only ranks matter, so full-text
 * scores and cosine similarities need no common scale; k = 60 keeps one ranking's top item from
 * outweighing agreement between rankings. Ties go to the item ranked best in any one ranking,
 * then to the earlier ranking, so the order is deterministic.
 */
export function reciprocalRankFusion<T>(rankings: readonly (readonly T[])[], k: number = HYBRID_RETRIEVAL.rrfK): T[] {
  const fused = new Map<T, { score: number; best: number; list: number }>();
  rankings.forEach((ranking, list) => {
    ranking.forEach((item, index) => {
      const rank = index + 1;
      const entry = fused.get(item);
      if (entry) {
        entry.score += 1 / (k + rank);
        if (rank < entry.best) entry.best = rank;
      } else {
        fused.set(item, { score: 1 / (k + rank), best: rank, list });
      }
    });
  });
  return [...fused.entries()]
    .sort(([, a], [, b]) => b.score - a.score || a.best - b.best || a.list - b.list)
    .map(([item]) => item);
}
