import { QUESTION_PERIODS, type QuestionsReport } from '@botsmith/contract';
import { Body, Controller, Get, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { ApiErrors, GATED, ID_IN_PATH, JSON_BODY, SAME_SITE } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { IdParam } from '../../common/parse-id.pipe.js';

import type { SourceResponse } from '../knowledge/knowledge.dto.js';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { CreateCorrectionDto, QUESTION_FILTERS, QuestionsQueryDto, UpdateCorrectionDto } from './corrections.dto.js';
import { CorrectionsService } from './corrections.service.js';

@ApiTags('Corrections')
@ApiCookieAuth(SECURITY.session)
@Controller('bots/:id')
@UseGuards(BillingStateGuard)
export class CorrectionsController {
  constructor(private readonly corrections: CorrectionsService) {}

  @Post('corrections')
  @ApiOperation({ summary: "Adds the owner's answer to a visitor question, used first from then on" })
  @ApiAnswer(201, "The correction: a written answer source with 'correction' true (ready at once).")
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, JSON_BODY, {
    404: ['BOT_NOT_FOUND'],
    413: ['SOURCES_QUOTA_EXCEEDED', 'ACCOUNT_SOURCES_QUOTA_EXCEEDED'],
    422: ['SOURCE_NO_TEXT'],
  })
  async create(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @Body() body: CreateCorrectionDto,
  ): Promise<{ source: SourceResponse }> {
    return { source: await this.corrections.create(user.id, botId, body.question, body.answer) };
  }

  @Put('corrections/:sourceId')
  @ApiOperation({ summary: "Edits a correction's visitor question and answer" })
  @ApiAnswer(200, 'The correction, its passages replaced (ready at once).')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, JSON_BODY, {
    404: ['BOT_NOT_FOUND', 'SOURCE_NOT_FOUND'],
    413: ['SOURCES_QUOTA_EXCEEDED', 'ACCOUNT_SOURCES_QUOTA_EXCEEDED'],
    422: ['SOURCE_NO_TEXT'],
  })
  async update(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @IdParam('sourceId') sourceId: number,
    @Body() body: UpdateCorrectionDto,
  ): Promise<{ source: SourceResponse }> {
    return { source: await this.corrections.update(user.id, botId, sourceId, body.question, body.answer) };
  }

  @Get('questions')
  @ApiOperation({ summary: 'What visitors asked that the bot could not answer, similar questions grouped' })
  @ApiQuery({ name: 'filter', required: false, enum: QUESTION_FILTERS, description: "'unanswered' by default." })
  @ApiQuery({ name: 'period', required: false, enum: QUESTION_PERIODS, description: "'30d' by default." })
  @ApiAnswer(200, 'The questions, most asked first (at most 100).')
  @ApiErrors(GATED, ID_IN_PATH, { 400: ['VALIDATION_FAILED'], 404: ['BOT_NOT_FOUND'] })
  report(
    @CurrentUser() user: SessionUser,
    @IdParam('id') botId: number,
    @Query() query: QuestionsQueryDto,
  ): Promise<QuestionsReport> {
    return this.corrections.report(user.id, botId, query.filter, query.period);
  }
}
