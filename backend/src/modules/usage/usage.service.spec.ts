import { describe, expect, it } from '@jest/globals';
import { XLSX_CELL_MAX_CHARS } from '../../common/constants.js';
import { cellText, logsFileName } from './logs-export.service.js';
import { historyWindow, periodWindow, toHistory } from './usage.service.js';

const iso = (d: Date) => d.toISOString();

describe('periodWindow', () => {
  it('starts at the 3rd 00:00 UTC and ends at the next 3rd', () => {
    const w = periodWindow(new Date('2026-11-03T00:00:00.000Z'));
    expect([iso(w.from), iso(w.to)]).toEqual(['2026-11-03T00:00:00.000Z', '2026-12-03T00:00:00.000Z']);
  });

  it('puts the last millisecond before the 3rd in the previous period, across a year end too', () => {
    const w = periodWindow(new Date('2026-11-02T23:59:59.999Z'));
    expect([iso(w.from), iso(w.to)]).toEqual(['2026-10-03T00:00:00.000Z', '2026-11-03T00:00:00.000Z']);
    const january = periodWindow(new Date('2027-01-02T12:00:00.000Z'));
    expect([iso(january.from), iso(january.to)]).toEqual(['2026-12-03T00:00:00.000Z', '2027-01-03T00:00:00.000Z']);
  });
});

describe('historyWindow', () => {
  it('covers exactly the last 10 UTC calendar days, today included, across a month end', () => {
    const { labels, window } = historyWindow(new Date('2026-03-01T08:00:00.000Z'));
    expect(labels).toEqual([
      '2026-02-20',
      '2026-02-21',
      '2026-02-22',
      '2026-02-23',
      '2026-02-24',
      '2026-02-25',
      '2026-02-26',
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
    ]);
    expect([iso(window.from), iso(window.to)]).toEqual(['2026-02-20T00:00:00.000Z', '2026-03-02T00:00:00.000Z']);
  });

  it('counts midnight UTC as the first instant of the new day', () => {
    const { labels } = historyWindow(new Date('2026-11-05T00:00:00.000Z'));
    expect(labels.at(-1)).toBe('2026-11-05');
    expect(labels[0]).toBe('2026-10-27');
  });
});

describe('toHistory', () => {
  it('lays the days with usage onto the full list, zeros elsewhere, ignoring days outside it', () => {
    const labels = ['2026-11-01', '2026-11-02', '2026-11-03'];
    expect(
      toHistory(
        labels,
        [
          { day: '2026-11-02', messages: 2, tokens: 300, cents: 8 },
          { day: '2026-10-01', messages: 9, tokens: 9, cents: 9 },
        ],
        [
          { day: '2026-11-02', count: 3 },
          { day: '2026-11-03', count: 1 },
          { day: '2026-10-01', count: 9 },
        ],
      ),
    ).toEqual({
      labels,
      messageCounts: [0, 2, 0],
      visitorMessages: [0, 3, 1],
      tokensUsed: [0, 300, 0],
      costs: [0, 8, 0],
    });
  });
});

describe('logs export helpers', () => {
  it('names the file user_logs_{YYYY-MM-DD}_{HH-mm-ss}.xlsx in UTC', () => {
    expect(logsFileName(new Date('2026-11-05T15:04:09.999Z'))).toBe('user_logs_2026-11-05_15-04-09.xlsx');
  });

  it('replaces characters XML cannot carry and keeps everything else', () => {
    expect(cellText('a\u0000b\u0007c\u001Bd\te\nf\rg')).toBe('a\uFFFDb\uFFFDc\uFFFDd\te\nf\rg');
    expect(cellText('bot 🤖 ünï')).toBe('bot 🤖 ünï');
    expect(cellText('lone \uD800 high, lone \uDC00 low')).toBe('lone \uFFFD high, lone \uFFFD low');
  });

  it("cuts text at Excel's cell limit and says so", () => {
    const long = 'x'.repeat(XLSX_CELL_MAX_CHARS + 10);
    const cut = cellText(long);
    expect(cut).toHaveLength(XLSX_CELL_MAX_CHARS);
    expect(cut.endsWith('… [truncated]')).toBe(true);
    expect(cellText('y'.repeat(XLSX_CELL_MAX_CHARS))).toHaveLength(XLSX_CELL_MAX_CHARS);
  });
});
