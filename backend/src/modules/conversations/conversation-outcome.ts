import type { ConversationOutcome } from '@botsmith/contract';

/**
 * What a conversation came to, decided once it has been quiet for CONVERSATION_OUTCOME_QUIET_MS
 * (docs/product.md#outcomes). This function is the rule: the job that stores outcomes and every
 * figure built on them read it from here.
 */

/** What the log knows about one conversation, as the outcome job reads it. */
export interface OutcomeFacts {
  /** Answers the bot gave (assistant messages stored whole). */
  answers: number;
  /** Answers flagged unanswered (the bot could not answer, or the visitor rated it down). */
  unansweredAnswers: number;
  /** Answers the visitor rated down (their last rating). */
  ratedDown: number;
  /** A person took over: a lead was left, the owner replied, or a handoff is open. */
  personInvolved: boolean;
}

/**
 * The first that applies, in this order:
 * 1. `handed_off`: a person took over (a lead or an owner's reply), whatever the bot did before;
 * 2. `abandoned`: no answer reached the visitor (they left while it streamed, or it failed);
 * 3. `rated_down`: the visitor rated an answer down (their own word outranks the bot's flag);
 * 4. `unanswered`: the bot said it could not answer at least once;
 * 5. `resolved`: answers, none rated down, none unanswered, nobody needed.
 */
export function decideOutcome(facts: OutcomeFacts): ConversationOutcome {
  if (facts.personInvolved) return 'handed_off';
  if (facts.answers === 0) return 'abandoned';
  if (facts.ratedDown > 0) return 'rated_down';
  if (facts.unansweredAnswers > 0) return 'unanswered';
  return 'resolved';
}
