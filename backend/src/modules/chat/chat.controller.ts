import { Body, Controller, Logger, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from '../../common/app-error.js';
import { Public } from '../../common/public.decorator.js';
import { SkipOriginCheck } from '../../common/skip-origin-check.decorator.js';
import { ChatRequestDto } from './chat.dto.js';
import { ChatService, type AnswerSink, type ChatCaller } from './chat.service.js';
import { EventStream } from './sse.js';

/**
 * POST /api/chat: JSON `{message}`, or server-sent events with `Accept: text/event-stream`.
 * Refusals before the answer starts are ordinary HTTP errors `{error, code}` (with Retry-After on
 * 429); once the stream is open, a failure arrives as `event: error`. A visitor who disconnects
 * aborts the model call (the response's 'close' fires before it finished), and pays nothing.
 */
@Controller('chat')
export class ChatController {
  private readonly logger = new Logger('ChatController');

  constructor(private readonly chat: ChatService) {}

  @Public()
  @SkipOriginCheck()
  @Post()
  async send(@Body() body: ChatRequestDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const wantsStream = (req.headers.accept ?? '').includes('text/event-stream');
    const visitorGone = new AbortController();
    // Not req.on('close'): on current Node the request emits 'close' once its body is read.
    res.on('close', () => {
      if (!res.writableFinished) visitorGone.abort();
    });

    let stream: EventStream | undefined;
    const sink: AnswerSink = {
      start: () => {
        if (wantsStream && !res.destroyed) stream = new EventStream(res);
      },
      token: (text) => stream?.send('token', { text }),
    };

    try {
      const answer = await this.chat.answer(body, callerOf(req), sink, visitorGone.signal);
      if (stream) {
        stream.send('done', { message: answer.message, costCents: answer.costCents });
        stream.end();
      } else {
        res.setHeader('Cache-Control', 'no-store');
        res.status(200).json({ message: answer.message });
      }
    } catch (error) {
      if (!stream) throw error;
      if (!(error instanceof AppError))
        this.logger.error(error instanceof Error ? (error.stack ?? error.message) : error);
      const payload =
        error instanceof AppError
          ? error.getResponse()
          : { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' };
      stream.send('error', payload);
      stream.end();
    }
  }
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function callerOf(req: Request): ChatCaller {
  return {
    origin: header(req, 'origin'),
    pageUrl: header(req, 'x-page-url'),
    visitorId: header(req, 'x-visitor-id'),
    authorization: header(req, 'authorization'),
    ip: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    userAgent: header(req, 'user-agent'),
  };
}
