import { describe, expect, it } from 'vitest';
import {
  centsDelta,
  countDelta,
  formatCents,
  hourCellLabel,
  presetRange,
  previousRange,
  rangeProblem,
  rateDelta,
} from './insightsFormat';

describe('insightsFormat', () => {
  it('takes the last N days in the browser time zone, today included, and the same length before', () => {
    const range = presetRange(30, new Date(2026, 2, 1, 0, 30));
    expect(range).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(previousRange(range)).toEqual({ from: '2026-01-01', to: '2026-01-30' });
    expect(previousRange({ from: '2026-11-27', to: '2026-11-27' })).toEqual({ from: '2026-11-26', to: '2026-11-26' });
  });

  it('refuses a reversed, unreal or too long custom range', () => {
    expect(rangeProblem({ from: '2026-11-02', to: '2026-11-01' })).toBe(
      'Choose a start date on or before the end date.',
    );
    expect(rangeProblem({ from: '2026-02-30', to: '2026-03-01' })).toBe(
      'Choose a start date on or before the end date.',
    );
    expect(rangeProblem({ from: '2025-01-01', to: '2026-01-02' })).toBe('Choose at most 366 days.');
    expect(rangeProblem({ from: '2025-01-01', to: '2026-01-01' })).toBeNull();
  });

  it('writes changes with a sign and a tone that says whether they are good news', () => {
    expect(rateDelta(0.6, 0.56, 'up')).toEqual({ text: '+4 pts', tone: 'good' });
    expect(rateDelta(0.5, 0.56, 'up')).toEqual({ text: '\u22126 pts', tone: 'bad' });
    expect(centsDelta(12, 14, 'down')).toEqual({ text: '\u2212$0.02', tone: 'good' });
    expect(centsDelta(150, 25, 'down')).toEqual({ text: '+$1.25', tone: 'bad' });
    expect(centsDelta(null, 14, 'down')).toBeNull();
    expect(countDelta(3, 5, 'down')).toEqual({ text: '\u22122', tone: 'good' });
    expect(countDelta(4, 4, 'down')).toEqual({ text: 'No change', tone: 'neutral' });
    expect(countDelta(9, 4, null)).toEqual({ text: '+5', tone: 'neutral' });
  });

  it('formats cents and heatmap cells', () => {
    expect(formatCents(null)).toBe('—');
    expect(formatCents(1205)).toBe('$12.05');
    expect(hourCellLabel(1, 10, 3)).toBe('Tue 10:00 – 3 conversations');
    expect(hourCellLabel(6, 0, 1)).toBe('Sun 00:00 – 1 conversation');
  });
});
