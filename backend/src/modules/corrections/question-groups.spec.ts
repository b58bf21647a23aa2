import { groupQuestions, QUESTION_GROUPS, withoutCorrected, type QuestionRow } from './question-groups.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute));

function row(text: string, lexemes: string[], minute: number, conversationId: number): QuestionRow {
  return { text, lexemes, askedAt: at(minute), conversationId };
}

describe('grouping visitor questions', () => {
  it('groups the same question and its close variants, most asked first, with the most asked wording', () => {
    const groups = groupQuestions([
      row('What are your opening hours?', ['hour', 'open'], 1, 1),
      row('what are the opening hours', ['hour', 'open'], 2, 2),
      row('What are your opening hours?', ['hour', 'open'], 3, 3),
      row('When do you open?', ['open'], 4, 4),
      row('Do you ship to Canada?', ['canada', 'ship'], 5, 5),
      row('What are your delivery hours?', ['deliveri', 'hour'], 6, 5),
      row('Who are you?', [], 7, 6),
      row('who are you', [], 8, 7),
    ]);
    expect(groups).toEqual([
      {
        text: 'What are your opening hours?',
        count: 4,
        lastAskedAt: at(4).toISOString(),
        conversationIds: [4, 3, 2, 1],
      },
      { text: 'who are you', count: 2, lastAskedAt: at(8).toISOString(), conversationIds: [7, 6] },
      { text: 'What are your delivery hours?', count: 1, lastAskedAt: at(6).toISOString(), conversationIds: [5] },
      { text: 'Do you ship to Canada?', count: 1, lastAskedAt: at(5).toISOString(), conversationIds: [5] },
    ]);
  });

  it('lists each conversation once, latest first, at most 20; and at most 100 questions', () => {
    const rows = Array.from({ length: 50 }, (_, i) => row('Price?', ['price'], i, i % 30));
    const [group] = groupQuestions(rows);
    expect(group.count).toBe(50);
    expect(group.conversationIds).toHaveLength(QUESTION_GROUPS.conversationIdsMax);
    expect(new Set(group.conversationIds).size).toBe(QUESTION_GROUPS.conversationIdsMax);
    expect(group.conversationIds[0]).toBe(49 % 30);

    const many = Array.from({ length: 300 }, (_, i) => row(`Word${i}?`, [`word${i}`], 0, i));
    expect(groupQuestions(many)).toHaveLength(QUESTION_GROUPS.questionsMax);
  });

  it('leaves out questions asked before a correction of them was written, not those asked after', () => {
    const rows = [
      row('What are your opening hours?', ['hour', 'open'], 1, 1),
      row('When do you open?', ['open'], 30, 2),
      row('Do you ship to Canada?', ['canada', 'ship'], 2, 3),
    ];
    const corrections = [{ question: 'Opening hours?', lexemes: ['hour', 'open'], createdAt: at(10) }];
    expect(withoutCorrected(rows, corrections).map((r) => r.conversationId)).toEqual([2, 3]);
    expect(withoutCorrected(rows, [])).toEqual(rows);
  });
});
