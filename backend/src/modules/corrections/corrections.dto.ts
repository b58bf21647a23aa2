import { CORRECTION_LIMITS, QUESTION_PERIODS, type QuestionPeriod } from '@botsmith/contract';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** POST /api/bots/{id}/corrections: the owner's answer to a visitor question. */
export class CreateCorrectionDto {
  // class-validator checks the rules bottom up: the type first, then emptiness, then the length.
  @Transform(trim)
  @MaxLength(CORRECTION_LIMITS.questionMaxChars, {
    message: `The question can be at most ${CORRECTION_LIMITS.questionMaxChars.toLocaleString('en-US')} characters.`,
  })
  @IsNotEmpty({ message: 'Write the visitor\'s question in "question".' })
  @IsString({ message: 'Write the visitor\'s question in "question".' })
  question!: string;

  @Transform(trim)
  @MaxLength(CORRECTION_LIMITS.answerMaxChars, {
    message: `The answer can be at most ${CORRECTION_LIMITS.answerMaxChars.toLocaleString('en-US')} characters.`,
  })
  @IsNotEmpty({ message: 'Write your answer in "answer".' })
  @IsString({ message: 'Write your answer in "answer".' })
  answer!: string;
}

/** Which visitor questions the report lists: those the bot could not answer (default), or all. */
export const QUESTION_FILTERS = ['unanswered', 'all'] as const;
export type QuestionFilter = (typeof QUESTION_FILTERS)[number];

/** GET /api/bots/{id}/questions?filter=&period= */
export class QuestionsQueryDto {
  @IsOptional()
  @IsIn(QUESTION_FILTERS, { message: 'Choose the questions to list: "unanswered" or "all".' })
  filter?: QuestionFilter;

  @IsOptional()
  @IsIn(QUESTION_PERIODS, { message: 'Choose the period: "7d", "30d" or "90d".' })
  period?: QuestionPeriod;
}
