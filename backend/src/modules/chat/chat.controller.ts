import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiErrors, JSON_BODY, RATE_LIMITED } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { ApiVisitorCaller } from '../../common/openapi/security.js';
import { Body, Controller, Delete, HttpCode, Logger, Post, Req, Res } from '@nestjs/common';
import { type ApiErrorBody, type ChatAnswerResponse, type LeadResponse } from '@botsmith/contract';
import type { Request, Response } from 'express';
import { AppError } from '../../common/app-error.js';
import { isServiceOutage, serviceUnavailable } from '../../common/outage.js';
import { Public } from '../../common/public.decorator.js';
import { SkipOriginCheck } from '../../common/skip-origin-check.decorator.js';
import { ChatRequestDto, DeleteConversationRequestDto, FeedbackRequestDto, LeadRequestDto } from './chat.dto.js';
import { LeadCaptureService } from './lead-capture.service.js';
import { FeedbackService } from './feedback.service.js';
import { ChatService, type AnswerSink, type ChatCaller } from './chat.service.js';
import { EventStream } from './sse.js';
import { VisitorConversationsService } from './visitor-conversations.service.js';
import { VISITOR_IDENTITY_HEADER, VISITOR_TOKEN_HEADER } from './widget-cors.js';
import { identityFromHeader, type IdentityProof } from './visitor-identity.js';

/**
 * POST /api/chat: JSON `{message, messageId, citations}`, or server-sent events with `Accept: text/event-stream`. An
 * answer to a widget visitor carries the visitor's token in the `X-Visitor-Token` header, which
 * the widget sends back with its next messages (see VisitorTokens).
 * Refusals before the answer starts are ordinary HTTP errors `{error, code}` (with Retry-After on
 * 429); once the stream is open, a failure arrives as `event: error`. A visitor who disconnects
 * aborts the model call (the response's 'close' fires before it finished), and pays nothing.
 * The answer's shapes are the contract's ChatAnswerResponse and ChatStreamEvents (contract/src/chat.ts).
 */
@ApiTags('Widget and chat')
@Controller('chat')
export class ChatController {
  private readonly logger = new Logger('ChatController');

  constructor(
    private readonly chat: ChatService,
    private readonly feedbackService: FeedbackService,
    private readonly visitorConversations: VisitorConversationsService,
    private readonly leadCapture: LeadCaptureService,
  ) {}

  @Public()
  @SkipOriginCheck()
  @Post()
  @ApiOperation({
    summary: "Asks a bot: from the widget (domain lock) or from the owner's server (the bot's API key)",
    description:
      'With `Accept: text/event-stream` the answer streams as server-sent events: `token` {text}, then `done` ' +
      '{message, messageId, costCents, citations} (plus `unanswered: true` when the answer is flagged unanswered), or `error` {error, code} when the model fails after the stream began. ' +
      'Refusals before the answer starts are ordinary HTTP errors. While a person handles the conversation ' +
      "the bot stays quiet: `{message: '', messageId: null, citations: [], handoff: true}`, nothing charged. " +
      'See docs/chat-api.md.',
  })
  @ApiVisitorCaller({
    token: 'The token of an earlier answer (widget).',
    visitorId: "Who the visitor is, in the owner's own words (only with the bot's API key).",
  })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiAnswer(
    200,
    "The answer, with the visitor's token in the X-Visitor-Token response header (widget callers).",
    'ChatAnswerResponse',
  )
  @ApiErrors(JSON_BODY, RATE_LIMITED, {
    401: ['INVALID_API_KEY'],
    402: ['OUT_OF_CREDITS', 'PAYMENT_FAILED', 'SETUP_REQUIRED', 'BOT_BUDGET_REACHED'],
    403: ['DOMAIN_NOT_ALLOWED'],
    404: ['BOT_NOT_FOUND'],
    409: ['MESSAGE_IN_FLIGHT'],
    429: ['HANDOFF_LIMIT_REACHED'],
    502: ['UPSTREAM_FAILED'],
    504: ['UPSTREAM_TIMEOUT'],
  })
  async send(@Body() body: ChatRequestDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const wantsStream = (req.headers.accept ?? '').includes('text/event-stream');
    const visitorGone = new AbortController();
    // Not req.on('close'): on current Node the request emits 'close' once its body is read.
    res.on('close', () => {
      if (!res.writableFinished) visitorGone.abort();
    });

    let stream: EventStream | undefined;
    const sink: AnswerSink = {
      start: (visitorToken) => {
        // Before the stream opens: its headers are sent at once.
        if (visitorToken) res.setHeader(VISITOR_TOKEN_HEADER, visitorToken);
        if (wantsStream && !res.destroyed) stream = new EventStream(res);
      },
      token: (text) => stream?.send('token', { text }),
      action: (subject) => stream?.send('action', { subject }),
    };

    try {
      const answer = await this.chat.answer(body, withBodyProof(callerOf(req), body), sink, visitorGone.signal);
      if (stream) {
        stream.send('done', {
          message: answer.message,
          messageId: answer.messageId,
          costCents: answer.costCents,
          citations: answer.citations,
          ...(answer.handoff ? { handoff: true as const } : {}),
          ...(answer.unanswered ? { unanswered: true as const } : {}),
        });
        stream.end();
      } else {
        res.setHeader('Cache-Control', 'no-store');
        const body: ChatAnswerResponse = {
          message: answer.message,
          messageId: answer.messageId,
          citations: answer.citations,
          ...(answer.handoff ? { handoff: true as const } : {}),
          ...(answer.unanswered ? { unanswered: true as const } : {}),
        };
        res.status(200).json(body);
      }
    } catch (error) {
      if (!stream) throw error;
      // The stream is open, so the status is sent: the refusal travels as its last event. When
      // the database went away mid-answer, the final write rolled back and nothing was charged.
      const refusal = error instanceof AppError ? error : isServiceOutage(error) ? serviceUnavailable() : null;
      if (!refusal) this.logger.error(error instanceof Error ? (error.stack ?? error.message) : error);
      const payload: ApiErrorBody = refusal
        ? (refusal.getResponse() as ApiErrorBody)
        : { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' };
      stream.send('error', payload);
      stream.end();
    }
  }

  @Public()
  @SkipOriginCheck()
  @Post('feedback')
  @HttpCode(204)
  @ApiOperation({
    summary: "A visitor rates one of the bot's answers in their own conversation: thumbs up or down",
    description:
      "Identified as for POST /api/chat (the X-Visitor-Token of the answer, or the bot's API key and " +
      'X-Visitor-Id). The last rating wins; a rating down flags the answer unanswered. Never charged.',
  })
  @ApiVisitorCaller({ token: 'The token the answer came with (widget).' })
  @ApiAnswer(204, 'Rated.')
  @ApiErrors(JSON_BODY, RATE_LIMITED, {
    401: ['INVALID_API_KEY'],
    403: ['DOMAIN_NOT_ALLOWED'],
    404: ['BOT_NOT_FOUND', 'MESSAGE_NOT_FOUND'],
  })
  async feedback(@Body() body: FeedbackRequestDto, @Req() req: Request): Promise<void> {
    await this.feedbackService.rate(body, callerOf(req));
  }

  @Public()
  @SkipOriginCheck()
  @Post('lead')
  @HttpCode(201)
  @ApiOperation({
    summary: "A visitor leaves their contact for the bot's owner (the lead form); never charged",
    description:
      "Identified as for POST /api/chat (the visitor's X-Visitor-Token, or the bot's API key and X-Visitor-Id); " +
      'a browser caller gets its visitor token back in X-Visitor-Token. Works while the bot is at its budget or its owner ' +
      "cannot be charged. Records the lead with the visitor's conversation, marks the conversation handed off to a person, " +
      "and e-mails the lead and the transcript to the bot's lead addresses. Only the fields the bot's form asks for; " +
      'the e-mail or the phone is required. See docs/product.md#leads-and-handoff.',
  })
  @ApiVisitorCaller()
  @ApiAnswer(201, "Recorded; the text to show the visitor (the bot's thank-you text or the default).")
  @ApiErrors(JSON_BODY, RATE_LIMITED, {
    401: ['INVALID_API_KEY'],
    403: ['DOMAIN_NOT_ALLOWED'],
    404: ['BOT_NOT_FOUND'],
    409: ['LEAD_CAPTURE_DISABLED', 'MESSAGE_IN_FLIGHT'],
    429: ['LEAD_LIMIT_REACHED'],
  })
  async lead(
    @Body() body: LeadRequestDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LeadResponse> {
    const captured = await this.leadCapture.capture(body, callerOf(req));
    if (captured.visitorToken) res.setHeader(VISITOR_TOKEN_HEADER, captured.visitorToken);
    res.setHeader('Cache-Control', 'no-store');
    return captured.body;
  }

  @Public()
  @SkipOriginCheck()
  @Delete('conversations/current')
  @HttpCode(204)
  @ApiOperation({
    summary: 'A visitor deletes their own conversation with a bot, messages and ratings included',
    description:
      "Identified as for POST /api/chat (the visitor's X-Visitor-Token, or the bot's API key and X-Visitor-Id). " +
      "404 when the caller has no conversation with the bot (another visitor's token is a new visitor). " +
      'The usage ledger keeps its rows. See docs/product.md#retention-and-visitor-privacy.',
  })
  @ApiVisitorCaller()
  @ApiAnswer(204, 'Deleted.')
  @ApiErrors(JSON_BODY, RATE_LIMITED, {
    401: ['INVALID_API_KEY'],
    403: ['DOMAIN_NOT_ALLOWED'],
    404: ['BOT_NOT_FOUND', 'CONVERSATION_NOT_FOUND'],
  })
  async deleteConversation(@Body() body: DeleteConversationRequestDto, @Req() req: Request): Promise<void> {
    await this.visitorConversations.deleteCurrent(body, callerOf(req));
  }
}

export function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The caller with the message's own proof of who the visitor is (the widget passes it on in
 * `visitor`), which comes before the X-Visitor-Identity header's.
 */
function withBodyProof(caller: ChatCaller, body: ChatRequestDto): ChatCaller {
  const given = body.visitor;
  let identity: IdentityProof | undefined;
  if (given?.token) identity = { token: given.token };
  else if (given?.userId && given.userHash) identity = { userId: given.userId, userHash: given.userHash };
  return identity ? { ...caller, identity } : caller;
}

/**
 * What the chat's caller checks read from a request (also the replies routes'): every visitor route
 * reads the identity proof the same way, so a verified visitor is the same visitor on all of them.
 */
export function callerOf(req: Request): ChatCaller {
  const identity = identityFromHeader(header(req, VISITOR_IDENTITY_HEADER.toLowerCase()));
  return {
    ...(identity ? { identity } : {}),
    origin: header(req, 'origin'),
    pageUrl: header(req, 'x-page-url'),
    visitorToken: header(req, 'x-visitor-token'),
    visitorId: header(req, 'x-visitor-id'),
    authorization: header(req, 'authorization'),
    ip: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    userAgent: header(req, 'user-agent'),
  };
}
