import { describe, expect, it } from '@jest/globals';
import { decideOutcome, type OutcomeFacts } from './conversation-outcome.js';

const answered: OutcomeFacts = { answers: 2, unansweredAnswers: 0, ratedDown: 0, personInvolved: false };

describe('decideOutcome', () => {
  it('calls answers with nothing wrong resolved', () => {
    expect(decideOutcome(answered)).toBe('resolved');
  });

  it('calls a conversation a person took over handed_off, even after bad answers or none', () => {
    expect(decideOutcome({ ...answered, personInvolved: true })).toBe('handed_off');
    expect(decideOutcome({ answers: 0, unansweredAnswers: 0, ratedDown: 0, personInvolved: true })).toBe('handed_off');
    expect(decideOutcome({ answers: 3, unansweredAnswers: 2, ratedDown: 1, personInvolved: true })).toBe('handed_off');
  });

  it('calls a conversation without any answer abandoned', () => {
    expect(decideOutcome({ answers: 0, unansweredAnswers: 0, ratedDown: 0, personInvolved: false })).toBe('abandoned');
  });

  it('puts the visitor’s rating down above the bot’s own unanswered flag', () => {
    expect(decideOutcome({ ...answered, ratedDown: 1, unansweredAnswers: 1 })).toBe('rated_down');
    expect(decideOutcome({ ...answered, ratedDown: 1 })).toBe('rated_down');
  });

  it('calls a conversation with an answer the bot could not give unanswered', () => {
    expect(decideOutcome({ ...answered, unansweredAnswers: 1 })).toBe('unanswered');
  });
});
