import type { ChatStreamEventName, ChatStreamEvents } from '@botsmith/contract';
import type { Response } from 'express';

/**
 * Server-sent events on an Express response. The protocol the widget reads (the contract's
 * ChatStreamEvents, contract/src/chat.ts):
 *   event: token  data: {"text": "..."}          one per piece of the answer
 *   event: done   data: {"message": "...", "messageId": N, "costCents": N, "citations": [...]}
 *   event: error  data: {"error": "...", "code": "..."}
 * Data is JSON on one line (JSON.stringify escapes newlines), so no event can be split or forged
 * by the model's text. A comment line every 15 s keeps proxies from closing a quiet stream.
 */
export class EventStream {
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly res: Response) {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.setHeader('Connection', 'keep-alive');
    res.flushHeaders();
    this.heartbeat = setInterval(() => this.write(': keep-alive\n\n'), 15_000);
    this.heartbeat.unref();
  }

  send<E extends ChatStreamEventName>(event: E, data: ChatStreamEvents[E]): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    clearInterval(this.heartbeat);
    if (!this.res.writableEnded) this.res.end();
  }

  private write(chunk: string): void {
    if (!this.res.writableEnded && !this.res.destroyed) this.res.write(chunk);
  }
}
