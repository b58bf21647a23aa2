import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  FILE_UPLOAD,
  GATED,
  ID_IN_PATH,
  JSON_BODY,
  SAME_SITE,
} from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer, arrayOf, bool, int, nullable, obj, str } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { SOURCE_PAGE_STATUSES } from '@botsmith/contract';
import { REFRESH_SCHEDULES, SOURCE_KINDS, SOURCE_STATUSES } from './bot-source.entity.js';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Patch,
  Post,
  Put,
  Query,
  UploadedFile,
  UseGuards,
} from '@nestjs/common';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { SOURCE_FILE_MAX_BYTES } from '../../common/constants.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import { SingleFileUpload, type UploadedFileLike } from '../../common/single-file.interceptor.js';
import {
  CreateTextSourceDto,
  CreateWebsiteSourceDto,
  SourcePagesQueryDto,
  UpdateSourceDto,
  UpdateTextSourceDto,
  type SourcePagesPage,
  type SourceResponse,
} from './knowledge.dto.js';
import { KnowledgeService } from './knowledge.service.js';

export const SOURCE = obj({
  id: int(),
  kind: { type: 'string', enum: [...SOURCE_KINDS] },
  name: str(),
  status: { type: 'string', enum: [...SOURCE_STATUSES], description: 'Files and websites are read in the background.' },
  error: nullable(str('Why reading failed.')),
  pages: nullable(int()),
  chunks: int('Passages the bot can answer from.'),
  embedded: nullable(
    int('With an embeddings model configured (hybrid search): passages that have their vector yet. Null without one.'),
  ),
  bytes: int(),
  url: nullable(str()),
  refreshSchedule: nullable({
    type: 'string',
    enum: [...REFRESH_SCHEDULES],
    description: 'A website: how often it is read again by itself (null for other kinds).',
  }),
  lastRefreshedAt: nullable(str('ISO date-time: when a crawl last read the website.')),
  nextRefreshAt: nullable(str('ISO date-time: when the schedule reads it next (null: off, or being read).')),
  notice: nullable(str('A sentence about a ready source: its crawl stopped at the quota, or its last refresh failed.')),
  correction: bool("An owner's correction (POST /api/bots/{id}/corrections)."),
  question: nullable(str('A correction: the visitor question it answers.')),
  reference: bool("The bot's reference document (POST /api/upload/update-document replaces it)."),
  createdAt: str('ISO date-time'),
  updatedAt: str('ISO date-time'),
});
export const ONE_SOURCE = obj({ source: SOURCE });
const SOURCE_PAGES = obj({
  pages: arrayOf(
    obj({
      url: str(),
      title: nullable(str()),
      status: {
        type: 'string',
        enum: [...SOURCE_PAGE_STATUSES],
        description: "'ready': it has passages to answer from; 'no_text': read, with nothing to answer from.",
      },
      chunks: int(),
      bytes: int(),
      readAt: str('ISO date-time: when a crawl last read it.'),
    }),
  ),
  nextCursor: nullable(str('Pass it back as cursor for the next page; null on the last.')),
});
const BOT_NOT_FOUND = { 404: ['BOT_NOT_FOUND'] };
const FULL = { 413: ['SOURCES_QUOTA_EXCEEDED', 'ACCOUNT_SOURCES_QUOTA_EXCEEDED'] };
const SOURCE_NOT_FOUND = { 404: ['BOT_NOT_FOUND', 'SOURCE_NOT_FOUND'] };

@ApiTags('Knowledge sources')
@ApiCookieAuth(SECURITY.session)
@Controller('bots/:id/sources')
@UseGuards(BillingStateGuard)
export class KnowledgeController {
  constructor(private readonly knowledge: KnowledgeService) {}

  @Get()
  @ApiOperation({ summary: "The bot's knowledge sources" })
  @ApiAnswer(200, 'The sources.', obj({ sources: arrayOf(SOURCE) }))
  @ApiErrors(GATED, ID_IN_PATH, BOT_NOT_FOUND)
  async list(@CurrentUser() user: SessionUser, @IdParam('id') botId: number): Promise<{ sources: SourceResponse[] }> {
    return { sources: await this.knowledge.list(user.id, botId) };
  }

  @Post('text')
  @ApiOperation({ summary: 'Adds a written answer or note' })
  @ApiAnswer(201, 'The source (ready at once).', ONE_SOURCE)
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, JSON_BODY, BOT_NOT_FOUND, FULL, { 422: ['SOURCE_NO_TEXT'] })
  async addText(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @Body() body: CreateTextSourceDto,
  ): Promise<{ source: SourceResponse }> {
    return { source: await this.knowledge.addText(user.id, botId, body.name, body.text) };
  }

  @Post('website')
  @ApiOperation({ summary: 'Queues a website to crawl (public addresses only, robots.txt respected)' })
  @ApiAnswer(201, "The source, status 'processing'.", ONE_SOURCE)
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, JSON_BODY, BOT_NOT_FOUND, {
    400: ['URL_INVALID'],
    429: ['WEBSITE_SOURCES_DAILY_LIMIT'],
  })
  async addWebsite(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @Body() body: CreateWebsiteSourceDto,
  ): Promise<{ source: SourceResponse }> {
    return {
      source: await this.knowledge.addWebsite(user.id, botId, body.url, body.maxPages, body.refreshSchedule),
    };
  }

  @Post('files')
  @ApiOperation({ summary: 'Uploads a file to read (PDF, DOCX, text, Markdown, HTML or CSV, under 10 MB)' })
  @ApiAnswer(201, "The source, status 'processing'.", ONE_SOURCE)
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, FILE_UPLOAD, BOT_NOT_FOUND, FULL, {
    415: ['UNSUPPORTED_FILE_TYPE'],
    422: ['FILE_NO_TEXT', 'DOCX_TOO_LARGE'],
  })
  @SingleFileUpload({
    field: 'file',
    maxBytes: SOURCE_FILE_MAX_BYTES,
    tooLargeMessage: 'This file is too big. Keep each file under 10 MB.',
  })
  async addFile(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @UploadedFile() file: UploadedFileLike,
  ): Promise<{ source: SourceResponse }> {
    return { source: await this.knowledge.addFile(user.id, botId, file) };
  }

  @Get(':sourceId/pages')
  @ApiOperation({ summary: "A website source's pages and each page's status, 50 at a time" })
  @ApiAnswer(200, 'A page of pages, in the order they were first read.', SOURCE_PAGES)
  @ApiErrors(GATED, ID_IN_PATH, SOURCE_NOT_FOUND, { 400: ['INVALID_CURSOR'], 409: ['SOURCE_HAS_NO_PAGES'] })
  pages(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @IdParam('sourceId') sourceId: number,
    @Query() query: SourcePagesQueryDto,
  ): Promise<SourcePagesPage> {
    return this.knowledge.listPages(user.id, botId, sourceId, query.cursor);
  }

  @Put(':sourceId/text')
  @ApiOperation({ summary: "Edits a written answer's question (its name) and answer" })
  @ApiAnswer(200, 'The source, its passages replaced (ready at once).', ONE_SOURCE)
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, JSON_BODY, SOURCE_NOT_FOUND, FULL, {
    409: ['SOURCE_NOT_EDITABLE'],
    422: ['SOURCE_NO_TEXT'],
  })
  async updateText(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @IdParam('sourceId') sourceId: number,
    @Body() body: UpdateTextSourceDto,
  ): Promise<{ source: SourceResponse }> {
    return { source: await this.knowledge.updateText(user.id, botId, sourceId, body.name, body.text) };
  }

  @Post(':sourceId/refresh')
  @ApiOperation({ summary: 'Reads a file or website source again' })
  @ApiAnswer(202, "The source, status 'processing'.", ONE_SOURCE)
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, SOURCE_NOT_FOUND, {
    409: ['SOURCE_NOT_REFRESHABLE'],
    429: ['SOURCE_REFRESHES_DAILY_LIMIT'],
  })
  @HttpCode(202)
  async refresh(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @IdParam('sourceId') sourceId: number,
  ): Promise<{ source: SourceResponse }> {
    return { source: await this.knowledge.refresh(user.id, botId, sourceId) };
  }

  @Patch(':sourceId')
  @ApiOperation({ summary: "Changes how often a website source is read again by itself ('off', 'daily', 'weekly')" })
  @ApiAnswer(200, 'The source.', ONE_SOURCE)
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, JSON_BODY, SOURCE_NOT_FOUND, { 409: ['SOURCE_NOT_SCHEDULABLE'] })
  async update(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @IdParam('sourceId') sourceId: number,
    @Body() body: UpdateSourceDto,
  ): Promise<{ source: SourceResponse }> {
    return { source: await this.knowledge.setSchedule(user.id, botId, sourceId, body.refreshSchedule) };
  }

  @Delete(':sourceId')
  @ApiOperation({ summary: 'Deletes a source and its passages' })
  @ApiAnswer(204, 'Deleted (no body).')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, SOURCE_NOT_FOUND)
  @HttpCode(204)
  async delete(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @IdParam('sourceId') sourceId: number,
  ): Promise<void> {
    await this.knowledge.delete(user.id, botId, sourceId);
  }
}
