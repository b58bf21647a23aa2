import type {
  TextSourceRequest,
  SourcePagesQuery,
  WebsiteSourceRequest,
  UpdateSourceRequest,
} from '@botsmith/contract';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { SOURCE_TEXT_LIMITS } from '../../common/constants.js';
import { REFRESH_SCHEDULES, type RefreshSchedule } from './bot-source.entity.js';
import { MAX_PAGES_LIMIT } from './website/website-crawler.js';

const SCHEDULE_SENTENCE = 'Choose how often the website is read again: "off", "daily" or "weekly".';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** POST /api/bots/{id}/sources/text: a written answer or note. */
export class CreateTextSourceDto implements TextSourceRequest {
  @Transform(trim)
  @IsString({ message: 'Give the written answer a name.' })
  @IsNotEmpty({ message: 'Give the written answer a name.' })
  @MaxLength(SOURCE_TEXT_LIMITS.nameMaxChars, {
    message: `The name can be at most ${SOURCE_TEXT_LIMITS.nameMaxChars} characters.`,
  })
  name!: string;

  @IsString({ message: 'Write the answer in "text".' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() === '' ? '' : value))
  @IsNotEmpty({ message: 'Write the answer in "text".' })
  @MaxLength(SOURCE_TEXT_LIMITS.textMaxChars, {
    message: `The text can be at most ${SOURCE_TEXT_LIMITS.textMaxChars.toLocaleString('en-US')} characters.`,
  })
  text!: string;
}

/** PUT /api/bots/{id}/sources/{sourceId}/text: a written answer's new question (its name) and answer. */
export class UpdateTextSourceDto extends CreateTextSourceDto {}

/** GET /api/bots/{id}/sources/{sourceId}/pages: where the previous page ended. */
export class SourcePagesQueryDto implements SourcePagesQuery {
  /** The `nextCursor` of the previous page, as issued (KnowledgeService checks it). */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() === '' ? undefined : value))
  @IsString({ message: 'This page link is not valid any more. Please reload the list.' })
  @MaxLength(200, { message: 'This page link is not valid any more. Please reload the list.' })
  cursor?: string;
}

/** POST /api/bots/{id}/sources/website: a site to crawl. */
export class CreateWebsiteSourceDto implements WebsiteSourceRequest {
  @Transform(trim)
  @IsString({ message: 'Enter a full web address starting with http:// or https://.' })
  @IsNotEmpty({ message: 'Enter a full web address starting with http:// or https://.' })
  @MaxLength(2048, { message: 'The web address can be at most 2048 characters.' })
  url!: string;

  @IsOptional()
  @IsInt({ message: `Choose a whole number of pages from 1 to ${MAX_PAGES_LIMIT}.` })
  @Min(1, { message: `Choose a whole number of pages from 1 to ${MAX_PAGES_LIMIT}.` })
  @Max(MAX_PAGES_LIMIT, { message: `Choose a whole number of pages from 1 to ${MAX_PAGES_LIMIT}.` })
  maxPages?: number;

  /** How often the site is read again by itself; 'weekly' when absent. */
  @IsOptional()
  @IsIn(REFRESH_SCHEDULES, { message: SCHEDULE_SENTENCE })
  refreshSchedule?: RefreshSchedule;
}

/** PATCH /api/bots/{id}/sources/{sourceId}: a website's refresh schedule. */
export class UpdateSourceDto implements UpdateSourceRequest {
  @IsIn(REFRESH_SCHEDULES, { message: SCHEDULE_SENTENCE })
  refreshSchedule!: RefreshSchedule;
}

export type { SourcePagesPage, SourceResponse } from '@botsmith/contract';
