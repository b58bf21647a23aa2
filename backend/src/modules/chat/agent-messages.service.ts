import { HttpStatus, Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { DEFAULT_AGENT_NAME, type AgentMessage, type AgentMessagesResponse } from '@botsmith/contract';
import { AppError } from '../../common/app-error.js';
import { ClientNetworks } from '../../common/client-network.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ConversationLog, type AgentMessageRow } from '../conversations/conversation-log.js';
import { ChatService, type ChatCaller } from './chat.service.js';
import { ChatRateLimiter } from './rate-limit/chat-rate-limiter.js';

/** The visitor's events stream (GET /api/chat/conversations/current/events). */
export const AGENT_STREAM = {
  /** How often an open stream reads the database for new replies (any instance may have stored them). */
  pollMs: 2_000,
  /** A comment line, so proxies do not close a quiet stream. */
  pingMs: 25_000,
  /** The stream closes itself after this; the widget reconnects with the last id it has. */
  lifetimeMs: 5 * 60_000,
  /** Open streams per visitor and bot, and per client network, on one instance. */
  perVisitor: 3,
  perNetwork: 30,
  /** Replies read per poll; more wait for the next one. */
  batch: 50,
} as const;

const MAX_MESSAGE_ID = 2_147_483_647;
const TOO_MANY_STREAMS = 'Too many open connections for replies. Please close other tabs and try again.';
/** Every stream on this instance is taken (REPLY_STREAMS_PER_INSTANCE): the widget polls instead. */
export const REPLY_STREAMS_BUSY_SENTENCE =
  'Too many people are waiting for replies right now. Your replies will still arrive; please try again in a minute.';
/** The key every stream on this instance counts under, beside its visitor's and its network's. */
const INSTANCE_KEY = 'instance';

/** One open events stream: where it is in the conversation, and its slot to give back. */
export interface AgentStreamSlot {
  botId: number;
  visitorId: string;
  /** The newest agent message id the visitor has: only later ones are sent. */
  afterId: number;
  release(): void;
}

export function toAgentMessage(row: AgentMessageRow): AgentMessage {
  return {
    id: row.id,
    role: 'agent',
    content: row.content,
    name: row.name || DEFAULT_AGENT_NAME,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * What a visitor's widget reads of a person's replies (docs/product.md#owner-replies): the caller
 * is checked and identified as for a chat message (unknown bot 404, domain lock 403, API key 401,
 * the visitor token), so a visitor reads only their own conversation: anyone else is a visitor
 * without one and reads nothing. Replies are found in the database, so a reply stored by any API
 * instance reaches a stream open on any other.
 */
@Injectable()
export class AgentMessagesService implements OnModuleDestroy {
  /** Open streams on this instance, by visitor and by client network. */
  private readonly streams = new Map<string, number>();
  /** How to end each open stream: at shutdown, before the HTTP server waits for its connections. */
  private readonly enders = new Set<() => void>();

  constructor(
    private readonly chat: ChatService,
    private readonly log: ConversationLog,
    private readonly rateLimiter: ChatRateLimiter,
    private readonly networks: ClientNetworks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** GET …/messages: replies after `after`, and whether a person handles the conversation. */
  async poll(botId: number, caller: ChatCaller, after: number): Promise<AgentMessagesResponse> {
    const visitorId = await this.chat.identifyVisitor(botId, caller);
    await this.rateLimiter.hitAgentMessages(botId, visitorId, caller.ip);
    const found = await this.log.agentMessagesOf(botId, visitorId, after, AGENT_STREAM.batch);
    return { messages: found.messages.map(toAgentMessage), handoff: found.handoff };
  }

  /**
   * Opens a stream: checks the caller, counts it in the rate limit, takes a slot (429 past the
   * caps) and decides where it starts: after `after` when the widget says what it has, else
   * after the newest reply so far.
   */
  async open(botId: number, caller: ChatCaller, after: number | undefined): Promise<AgentStreamSlot> {
    const visitorId = await this.chat.identifyVisitor(botId, caller);
    await this.rateLimiter.hitAgentMessages(botId, visitorId, caller.ip);
    const keys = [`v:${botId}:${visitorId}`, this.networks.key(caller.ip), INSTANCE_KEY];
    const caps = [AGENT_STREAM.perVisitor, AGENT_STREAM.perNetwork, this.config.quotas.replyStreamsPerInstance];
    // Each open stream reads the database every 2 s: the instance's cap bounds that load whoever opens them.
    if ((this.streams.get(INSTANCE_KEY) ?? 0) >= caps[2]) {
      throw new AppError(HttpStatus.TOO_MANY_REQUESTS, 'REPLY_STREAMS_BUSY', REPLY_STREAMS_BUSY_SENTENCE, {
        'Retry-After': '60',
      });
    }
    if (keys.some((key, i) => (this.streams.get(key) ?? 0) >= caps[i])) {
      throw new AppError(HttpStatus.TOO_MANY_REQUESTS, 'RATE_LIMITED', TOO_MANY_STREAMS, { 'Retry-After': '30' });
    }
    for (const key of keys) this.streams.set(key, (this.streams.get(key) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      for (const key of keys) {
        const left = (this.streams.get(key) ?? 1) - 1;
        if (left > 0) this.streams.set(key, left);
        else this.streams.delete(key);
      }
    };
    try {
      const afterId = after ?? (await this.log.agentMessagesOf(botId, visitorId, MAX_MESSAGE_ID, 1)).latestId;
      return { botId, visitorId, afterId, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** The stream's replies since its last read; moves its position. */
  async next(slot: AgentStreamSlot): Promise<AgentMessage[]> {
    const found = await this.log.agentMessagesOf(slot.botId, slot.visitorId, slot.afterId, AGENT_STREAM.batch);
    const last = found.messages.at(-1);
    if (last) slot.afterId = last.id;
    return found.messages.map(toAgentMessage);
  }

  /** Registers how to end an open stream; the returned function unregisters it (when it ends). */
  track(end: () => void): () => void {
    this.enders.add(end);
    return () => this.enders.delete(end);
  }

  /**
   * Ends every open stream (the widget reconnects to another instance), so a graceful shutdown
   * does not wait up to a stream's lifetime for its connection to close.
   */
  onModuleDestroy(): void {
    for (const end of [...this.enders]) end();
  }

  /** Open streams on this instance (for tests and shutdown checks). */
  get openStreams(): number {
    let total = 0;
    for (const [key, count] of this.streams) if (key.startsWith('v:')) total += count;
    return total;
  }
}
