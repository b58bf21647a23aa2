import type { AgentMessage } from '@botsmith/contract';
import { visitorFetch } from '../lib/api';
import { createSseParser } from '../lib/sse';

/** Seconds between polls where the events stream is refused, and before a stream is reopened. */
const WAIT_MS = 5000;

/**
 * Listens for a person's replies to the visitor (docs/product.md#owner-replies) until `stop()`:
 * one read of the poll route for what was sent before, then the events stream, reopened with the
 * last id when the server closes it (every 5 minutes);
 * where the stream is blocked (a proxy that buffers it, a network error, the server's 429 for too
 * many open streams, a 5xx) the poll route every 5 seconds, the stream being tried again after
 * each poll. A refusal that waiting cannot change (the bot is gone, the domain not allowed) ends
 * the listening. Each reply reaches `onReply` once, in order.
 */
export function listenForReplies(
  apiOrigin: string,
  botId: string,
  after: number,
  onReply: (reply: AgentMessage) => void,
): () => void {
  const stop = new AbortController();
  const signal = stop.signal;
  const take = (reply: AgentMessage): void => {
    // Nothing after stop(), even from a stream still draining.
    if (!signal.aborted && reply?.role == 'agent' && reply.id > after && typeof reply.content == 'string') {
      after = reply.id;
      onReply(reply);
    }
  };
  const get = (route: string) =>
    visitorFetch(
      apiOrigin,
      botId,
      `/api/chat/conversations/current/${route}?botId=${encodeURIComponent(botId)}&after=${after}`,
      { signal },
    );
  /** False when the server refused for good. */
  const usable = (res: Response) => res.ok || res.status == 429 || res.status >= 500;

  /** The poll route: replies after the last one taken; false when the server refused for good. */
  const poll = async (): Promise<boolean> => {
    const polled = await get('messages');
    if (polled.ok) ((await polled.json()) as { messages: AgentMessage[] }).messages.forEach(take);
    return usable(polled);
  };

  const run = async (): Promise<void> => {
    // First what was sent before (a stream starts after the newest reply when the widget has none).
    if (!(await poll())) return;
    for (;;) {
      const res = await get('events');
      if (!usable(res)) return;
      if (res.ok && res.body && (res.headers.get('Content-Type') || '').includes('text/event-stream')) {
        const parser = createSseParser((event, data) => {
          if (event == 'message') take(JSON.parse(data) as AgentMessage);
        });
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
          parser.push(decoder.decode(chunk.value, { stream: true }));
        parser.end();
      } else if (!(await poll())) {
        // Not an event stream (refused for now, or rewritten on the way): the poll route answered
        // instead, unless it refused for good.
        return;
      }
      await new Promise((done) => setTimeout(done, WAIT_MS));
    }
  };
  // Aborted (stop) or failed: a network error waits and tries again; stop ends it for good.
  const loop = (): void => void run().catch(() => signal.aborted || setTimeout(loop, WAIT_MS));
  loop();
  return () => stop.abort();
}
