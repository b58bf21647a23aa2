import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, HttpCode, Logger, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import type { ConversationsPage, ConversationTranscript, OwnerReplyResponse } from '@botsmith/contract';
import {
  ApiErrors,
  GATED,
  ID_IN_PATH,
  JSON_BODY,
  RATE_LIMITED,
  SAME_SITE,
} from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer, ApiFileAnswer, arrayOf, bool, int, nullable, obj, str } from '../../common/openapi/schemas.js';
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

const RATING = nullable(str("'up' or 'down'"));
const SUMMARY = obj({
  id: int(),
  botId: nullable(int('null once the bot is deleted')),
  botName: str(),
  startedAt: str('ISO 8601'),
  lastMessageAt: str('ISO 8601'),
  messageCount: int(),
  preview: str("The visitor's first message (200 characters at most)."),
  pageUrl: nullable(str()),
  unanswered: bool('Any answer in it the bot could not give.'),
  rating: { ...RATING, description: "'down' if any answer was rated down, else 'up' if any was rated up." },
  handoff: bool('A person handles it (lead left or owner replied): the bot stays quiet until handed back.'),
  visitorName: nullable(str('The name the host page gave (Botsmith.identify), the latest; display only, unverified.')),
  visitorEmail: nullable(str('The e-mail address the host page gave, the latest; display only, never mailed.')),
});
const CITATION = obj({ sourceId: int(), name: str(), page: nullable(int()), url: nullable(str()) });
const MESSAGE_FIELDS = obj({
  id: int(),
  role: str("'user', 'assistant', 'error' or 'agent' (the owner's reply)"),
  content: str(),
  createdAt: str('ISO 8601'),
  citations: arrayOf(CITATION),
  rating: RATING,
  unanswered: bool(),
});
/** `name` comes with agent messages only. */
const MESSAGE = {
  ...MESSAGE_FIELDS,
  properties: {
    ...(MESSAGE_FIELDS.properties as Record<string, unknown>),
    name: str('Agent messages only: the display name the visitor saw.'),
  },
};
const AGENT_MESSAGE = { ...MESSAGE, required: [...(MESSAGE_FIELDS.required as string[]), 'name'] };
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
  @ApiAnswer(
    200,
    'A page; pass nextCursor back as cursor (with the same filters) for the next one.',
    obj({ conversations: arrayOf(SUMMARY), nextCursor: nullable(str()) }),
  )
  @ApiErrors(GATED, FILTERS, { 400: ['INVALID_CURSOR'] })
  list(@CurrentUser() user: SessionUser, @Query() query: ConversationsPageQueryDto): Promise<ConversationsPage> {
    return this.conversations.list(user.id, query);
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
  @ApiAnswer(200, 'The transcript.', obj({ conversation: SUMMARY, messages: arrayOf(MESSAGE) }))
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
  @ApiAnswer(201, 'The stored reply.', obj({ message: AGENT_MESSAGE }))
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
