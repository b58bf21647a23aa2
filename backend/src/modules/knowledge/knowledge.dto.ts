import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { SOURCE_TEXT_LIMITS } from '../../common/constants.js';
import { REFRESH_SCHEDULES, type RefreshSchedule } from './bot-source.entity.js';
import { MAX_PAGES_LIMIT } from './website/website-crawler.js';

const SCHEDULE_SENTENCE = 'Choose how often the website is read again: "off", "daily" or "weekly".';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** POST /api/bots/{id}/sources/text: a written answer or note. */
export class CreateTextSourceDto {
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

/** POST /api/bots/{id}/sources/website: a site to crawl. */
export class CreateWebsiteSourceDto {
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
export class UpdateSourceDto {
  @IsIn(REFRESH_SCHEDULES, { message: SCHEDULE_SENTENCE })
  refreshSchedule!: RefreshSchedule;
}

export type { SourceResponse } from '@botsmith/contract';
