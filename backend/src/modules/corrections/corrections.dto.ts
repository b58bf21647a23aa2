import {
  CORRECTION_LIMITS,
  QUESTION_FILTERS,
  QUESTION_PERIODS,
  type QuestionFilter,
  type QuestionPeriod,
  type CorrectionRequest,
  type QuestionsQuery,
} from '@botsmith/contract';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** POST /api/bots/{id}/corrections: the owner's answer to a visitor question. */
export class CreateCorrectionDto implements CorrectionRequest {
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

/** PUT /api/bots/{id}/corrections/{sourceId}: the correction's new question and answer. */
export class UpdateCorrectionDto extends CreateCorrectionDto {}

/** Which visitor questions the report lists: the contract's (those the bot could not answer, or all). */
export { QUESTION_FILTERS, type QuestionFilter };

/** GET /api/bots/{id}/questions?filter=&period= */
export class QuestionsQueryDto implements QuestionsQuery {
  @IsOptional()
  @IsIn(QUESTION_FILTERS, { message: 'Choose the questions to list: "unanswered" or "all".' })
  filter?: QuestionFilter;

  @IsOptional()
  @IsIn(QUESTION_PERIODS, { message: 'Choose the period: "7d", "30d" or "90d".' })
  period?: QuestionPeriod;
}
