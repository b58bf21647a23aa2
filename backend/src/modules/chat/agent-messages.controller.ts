import { ApiHeader, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Logger, Query, Req, Res } from '@nestjs/common';
import type { AgentMessagesResponse } from '@botsmith/contract';
import type { Request, Response } from 'express';
import { ApiErrors, RATE_LIMITED } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { ApiVisitorCaller } from '../../common/openapi/security.js';
import { Public } from '../../common/public.decorator.js';
import { AGENT_STREAM, AgentMessagesService, type AgentStreamSlot } from './agent-messages.service.js';
import { callerOf, header } from './chat.controller.js';
import { AgentMessagesQueryDto } from './chat.dto.js';
import { describeError } from '../../common/error-description.js';

const CALLER_ERRORS = {
  400: ['VALIDATION_FAILED'],
  401: ['INVALID_API_KEY'],
  403: ['DOMAIN_NOT_ALLOWED'],
  404: ['BOT_NOT_FOUND'],
};

/**
 * A visitor's widget reading a person's replies (docs/product.md#owner-replies): as server-sent
 * events while the page is open, or by polling where a proxy or extension blocks the stream.
 * Caller checks as for POST /api/chat; GET, so the Origin check of state-changing requests does
 * not apply (the domain lock does).
 */
@ApiTags('Widget and chat')
@Controller('chat/conversations/current')
export class AgentMessagesController {
  private readonly logger = new Logger('AgentMessages');

  constructor(private readonly agentMessages: AgentMessagesService) {}

  @Public()
  @Get('messages')
  @ApiOperation({
    summary: "A person's replies in the visitor's conversation after a message id (the widget polls every 5 s)",
    description:
      "Identified as for POST /api/chat (X-Visitor-Token, or the bot's API key and X-Visitor-Id). A caller " +
      'without a conversation gets `{messages: [], handoff: false}`. See docs/chat-api.md.',
  })
  @ApiVisitorCaller()
  @ApiAnswer(
    200,
    'The replies, oldest first (at most 50; ask again after the last id for more).',
    'AgentMessagesResponse',
  )
  @ApiErrors(RATE_LIMITED, CALLER_ERRORS)
  async messages(@Query() query: AgentMessagesQueryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const answer: AgentMessagesResponse = await this.agentMessages.poll(query.botId, callerOf(req), query.after ?? 0);
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json(answer);
  }

  @Public()
  @Get('events')
  @ApiOperation({
    summary: "A person's replies in the visitor's conversation as server-sent events, while the page is open",
    description:
      'Each reply after the connection opened (or after `after` / Last-Event-ID) is an `event: message` with ' +
      '`id: N` and one line of JSON {id, role, content, name, createdAt}; `: ping` every 25 s. The stream ' +
      'closes itself after 5 minutes (reconnect with the last id). Refusals are ordinary HTTP errors before it opens.',
  })
  @ApiVisitorCaller()
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The last reply id received (instead of after).' })
  @ApiProduces('text/event-stream')
  @ApiAnswer(200, 'The event stream.')
  @ApiErrors(RATE_LIMITED, CALLER_ERRORS, { 429: ['REPLY_STREAMS_BUSY'] })
  async events(@Query() query: AgentMessagesQueryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const lastEventId = header(req, 'last-event-id')?.trim();
    const fromHeader = lastEventId && /^\d{1,10}$/.test(lastEventId) ? Number(lastEventId) : undefined;
    const after = query.after ?? (fromHeader !== undefined && fromHeader <= 2_147_483_647 ? fromHeader : undefined);
    const slot = await this.agentMessages.open(query.botId, callerOf(req), after);
    this.stream(slot, res);
  }

  /** Polls the database while the visitor is connected; every timer goes when either side closes. */
  private stream(slot: AgentStreamSlot, res: Response): void {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.setHeader('Connection', 'keep-alive');
    res.flushHeaders();
    const write = (chunk: string) => {
      if (!res.writableEnded && !res.destroyed) res.write(chunk);
    };
    let pollTimer: NodeJS.Timeout | undefined;
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      untrack();
      clearTimeout(pollTimer);
      clearInterval(ping);
      clearTimeout(lifetime);
      slot.release();
      if (!res.writableEnded) res.end();
    };
    const untrack = this.agentMessages.track(() => close());
    const ping = setInterval(() => write(': ping\n\n'), AGENT_STREAM.pingMs);
    const lifetime = setTimeout(close, AGENT_STREAM.lifetimeMs);
    res.on('close', close);
    // One read at a time: the next is scheduled when the last one finished.
    const poll = async () => {
      try {
        for (const message of await this.agentMessages.next(slot)) {
          write(`event: message\nid: ${message.id}\ndata: ${JSON.stringify(message)}\n\n`);
        }
      } catch (error) {
        // The widget reconnects from its last id; a database outage must not keep timers running.
        this.logger.warn(`Replies stream stopped: ${describeError(error)}`);
        close();
      }
      if (!closed) pollTimer = setTimeout(() => void poll(), AGENT_STREAM.pollMs);
    };
    write(': open\n\n');
    void poll();
  }
}
