import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, HttpCode, Logger, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import type {
  ConversationsPage,
  ConversationTranscript,
  OwnerReplyResponse,
  WaitingCountResponse,
} from '@botsmith/contract';
import {
  ApiErrors,
  GATED,
  ID_IN_PATH,
  JSON_BODY,
  RATE_LIMITED,
  SAME_SITE,
} from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer, ApiFileAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { sendWorkbook, XLSX_CONTENT_TYPE } from '../usage/logs-export.service.js';
import { ConversationFiltersDto, ConversationsPageQueryDto } from './conversations.dto.js';
import { ConversationsExportService } from './conversations-export.service.js';
import { ConversationsService } from './conversations.service.js';
import { OwnerReplyDto } from './owner-replies.dto.js';
import { OwnerRepliesService } from './owner-replies.service.js';

const FILTERS = { 400: ['VALIDATION_FAILED', 'INVALID_CHARACTERS'], 404: ['BOT_NOT_FOUND'] };
const NOT_FOUND = { 404: ['CONVERSATION_NOT_FOUND'] };

/** The owner's conversations inbox (docs/product.md#conversations). Session + billing state, own rows only. */
@ApiTags('Conversations')
@ApiCookieAuth(SECURITY.session)
@Controller('conversations')
@UseGuards(BillingStateGuard)
export class ConversationsController {
  private readonly logger = new Logger(ConversationsController.name);

  constructor(
    private readonly conversations: ConversationsService,
    private readonly exports: ConversationsExportService,
    private readonly replies: OwnerRepliesService,
  ) {}

  @Get()
  @ApiOperation({ summary: "The owner's conversations, newest first, one page at a time" })
  @ApiAnswer(200, 'A page; pass nextCursor back as cursor (with the same filters) for the next one.')
  @ApiErrors(GATED, FILTERS, { 400: ['INVALID_CURSOR'] })
  list(@CurrentUser() user: SessionUser, @Query() query: ConversationsPageQueryDto): Promise<ConversationsPage> {
    return this.conversations.list(user.id, query);
  }

  /** Declared before `:id`, which would otherwise take "waiting-count" for an id. */
  @Get('waiting-count')
  @ApiOperation({ summary: 'How many handed-off conversations wait for a reply (the visitor wrote last)' })
  @ApiAnswer(200, 'The count.')
  @ApiErrors(GATED)
  waitingCount(@CurrentUser() user: SessionUser): Promise<WaitingCountResponse> {
    return this.conversations.countWaiting(user.id);
  }

  /** Declared before `:id`, which would otherwise take "export" for an id. */
  @Get('export')
  @ApiOperation({ summary: 'The matching conversations as an Excel workbook, one row per message' })
  @ApiFileAnswer(XLSX_CONTENT_TYPE, 'The .xlsx file (an attachment).')
  @ApiErrors(GATED, FILTERS)
  async export(
    @CurrentUser() user: SessionUser,
    @Query() query: ConversationFiltersDto,
    @Res() res: Response,
  ): Promise<void> {
    // Filters are checked and the first batch read before any header is sent: errors stay JSON.
    const prepared = await this.exports.prepare(await this.conversations.select(user.id, query));
    await sendWorkbook(res, prepared, this.logger);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One conversation and all its messages, in order' })
  @ApiAnswer(200, 'The transcript.')
  @ApiErrors(GATED, ID_IN_PATH, NOT_FOUND)
  get(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<ConversationTranscript> {
    return this.conversations.get(user.id, id);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deletes a conversation and its messages (the usage ledger keeps its rows)' })
  @ApiAnswer(204, 'Deleted.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, NOT_FOUND)
  @HttpCode(204)
  async delete(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<void> {
    await this.conversations.delete(user.id, id);
  }

  @Post(':id/reply')
  @ApiOperation({
    summary: "Replies to the conversation's visitor in person; a person now handles it (the bot stays quiet)",
    description:
      "Stored as an 'agent' message with the owner's display name (Settings), never charged. The visitor's widget " +
      'receives it (GET /api/chat/conversations/current/events), and so does their e-mail if they left one in a lead. ' +
      'See docs/product.md#owner-replies.',
  })
  @ApiAnswer(201, 'The stored reply.')
  @ApiErrors(GATED, SAME_SITE, JSON_BODY, ID_IN_PATH, NOT_FOUND, RATE_LIMITED, { 409: ['BOT_DELETED'] })
  @HttpCode(201)
  reply(
    @CurrentUser() user: SessionUser,
    @IdParam('id') id: number,
    @Body() body: OwnerReplyDto,
  ): Promise<OwnerReplyResponse> {
    return this.replies.reply(user.id, id, body.content);
  }

  @Post(':id/handback')
  @ApiOperation({ summary: 'Hands the conversation back to the bot: it answers the visitor again' })
  @ApiAnswer(204, 'Handed back.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, NOT_FOUND)
  @HttpCode(204)
  async handBack(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<void> {
    await this.replies.handBack(user.id, id);
  }
}
