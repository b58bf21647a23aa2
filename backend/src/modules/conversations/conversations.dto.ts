import {
  CONVERSATION_FILTERS,
  CONVERSATIONS_PAGE,
  type ConversationFilter,
  type ConversationFiltersQuery,
  type ConversationsPageQuery,
} from '@botsmith/contract';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** An empty parameter (`?botId=`) is the same as leaving it out: forms send every field. */
const emptyIsAbsent = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** `2026-11-25` or `2026-11-25T08:30:00Z` / `…+01:00` (seconds and fractions optional). */
export const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * The inbox's filters, as query parameters (GET /api/conversations and its export). Only the
 * shape is checked here; ConversationsService turns them into a query (a real calendar date,
 * from before to, a bot the owner has).
 */
export class ConversationFiltersDto implements ConversationFiltersQuery {
  @IsOptional()
  @Transform(emptyIsAbsent)
  @IsString()
  @Matches(/^[1-9]\d{0,9}$/, { message: 'botId must be a whole number' })
  botId?: string;

  @IsOptional()
  @Transform(emptyIsAbsent)
  @IsString()
  @MaxLength(CONVERSATIONS_PAGE.queryMaxChars)
  q?: string;

  @IsOptional()
  @Transform(emptyIsAbsent)
  @IsString()
  @Matches(ISO_DATE_PATTERN, { message: 'from must be a date such as 2026-11-25 or 2026-11-25T08:30:00Z' })
  from?: string;

  @IsOptional()
  @Transform(emptyIsAbsent)
  @IsString()
  @Matches(ISO_DATE_PATTERN, { message: 'to must be a date such as 2026-11-25 or 2026-11-25T08:30:00Z' })
  to?: string;

  @IsOptional()
  @Transform(emptyIsAbsent)
  @IsIn(CONVERSATION_FILTERS)
  filter?: ConversationFilter;
}

/** One page of the list: the filters plus where to continue and how many. */
export class ConversationsPageQueryDto extends ConversationFiltersDto implements ConversationsPageQuery {
  /** The `nextCursor` of the previous page, as issued (ConversationsService checks it). */
  @IsOptional()
  @Transform(emptyIsAbsent)
  @IsString()
  @MaxLength(200)
  cursor?: string;

  @IsOptional()
  @Transform(emptyIsAbsent)
  @IsString()
  @Matches(/^[1-9]\d{0,2}$/, { message: `limit must be a whole number from 1 to ${CONVERSATIONS_PAGE.maxLimit}` })
  limit?: string;
}
