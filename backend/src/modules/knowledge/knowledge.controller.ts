import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  FILE_UPLOAD,
  GATED,
  ID_IN_PATH,
  JSON_BODY,
  SAME_SITE,
} from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
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
  @ApiAnswer(200, 'The sources.')
  @ApiErrors(GATED, ID_IN_PATH, BOT_NOT_FOUND)
  async list(@CurrentUser() user: SessionUser, @IdParam('id') botId: number): Promise<{ sources: SourceResponse[] }> {
    return { sources: await this.knowledge.list(user.id, botId) };
  }

  @Post('text')
  @ApiOperation({ summary: 'Adds a written answer or note' })
  @ApiAnswer(201, 'The source (ready at once).')
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
  @ApiAnswer(201, "The source, status 'processing'.")
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
  @ApiAnswer(201, "The source, status 'processing'.")
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
  @ApiAnswer(200, 'A page of pages, in the order they were first read.')
  @ApiErrors(GATED, ID_IN_PATH, SOURCE_NOT_FOUND, { 400: ['INVALID_CURSOR'], 409: ['SOURCE_HAS_NO_PAGES'] })
  pages(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @IdParam('sourceId') sourceId: number,
    @Query() query: SourcePagesQueryDto,
  ): Promise<SourcePagesPage> {
    return this.knowledge.listPages(user.id, botId, sourceId, query.cursor);
  }

  @Get(':sourceId/text')
  @ApiOperation({ summary: "A written answer's or correction's text as it was written, to edit it" })
  @ApiAnswer(200, 'The text.')
  @ApiErrors(GATED, ID_IN_PATH, SOURCE_NOT_FOUND, { 409: ['SOURCE_NOT_EDITABLE'] })
  text(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @IdParam('sourceId') sourceId: number,
  ): Promise<{ text: string }> {
    return this.knowledge.writtenText(user.id, botId, sourceId);
  }

  @Put(':sourceId/text')
  @ApiOperation({ summary: "Edits a written answer's question (its name) and answer" })
  @ApiAnswer(200, 'The source, its passages replaced (ready at once).')
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
  @ApiAnswer(202, "The source, status 'processing'.")
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
  @ApiAnswer(200, 'The source.')
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
