import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { periodStartFor } from '../../common/billing-period.js';
import { CHAT_IN_FLIGHT_TTL_MS, CHAT_LIMITS, MODEL_CATALOGUE, type ModelTier } from '../../common/constants.js';
import type { BotEntity } from '../bots/bot.entity.js';
import { UsageLedgerService } from '../usage/usage-ledger.service.js';
import { ChatRepository, type ConversationKey } from './chat.repository.js';
import type { ChatRequestDto } from './chat.dto.js';
import { isOriginAllowed } from './domain-match.js';
import { LLM, LlmError, type LlmPort, type Passage } from './llm/llm.port.js';
import { buildModelInput } from './prompt-builder.js';
import { ChatRateLimiter } from './rate-limit/chat-rate-limiter.js';

/** Where document passages come from (the uploads module's full-text search). */
export const CHUNK_SEARCH = Symbol('CHUNK_SEARCH');
export interface ChunkSearch {
  searchChunks(botId: number, query: string, limit: number): Promise<Passage[]>;
}

/** What the HTTP layer knows about the caller. */
export interface ChatCaller {
  origin?: string;
  pageUrl?: string;
  visitorId?: string;
  authorization?: string;
  ip: string;
  userAgent?: string;
}

/** Receives the answer as it is produced: `start` once every protection passed, then tokens. */
export interface AnswerSink {
  start(): void;
  token(text: string): void;
}

export interface ChatAnswer {
  message: string;
  costCents: number;
}

/** The visitor's sentence for each refusal; the code says which (API.md). */
const REFUSALS = {
  BOT_NOT_FOUND: 'This chatbot does not exist.',
  INVALID_API_KEY: 'The API key does not belong to this bot.',
  DOMAIN_NOT_ALLOWED: 'This chatbot is not allowed on this website.',
  MESSAGE_IN_FLIGHT: 'Please wait for the answer to your previous message.',
  UNAVAILABLE: 'This chatbot is not available right now. Please try again later.',
  BOT_BUDGET_REACHED: 'This chatbot has reached its monthly limit. Please try again later.',
  UPSTREAM_FAILED: 'The AI model could not answer right now. Please try again.',
  UPSTREAM_TIMEOUT: 'The AI model took too long to answer. Please try again.',
  ABORTED: 'The visitor left before the answer was complete.',
} as const;

export function priceOf(tier: ModelTier): number {
  return (MODEL_CATALOGUE[tier] ?? MODEL_CATALOGUE['gpt-3.5-turbo']).priceCents;
}

/**
 * The chat engine. Protections run in the order of the contract — input (the DTO pipe), unknown
 * bot, origin (or the bot's API key), rate limits, one message in flight per visitor, the owner's
 * payment state, the bot's monthly budget — then the model answers, and the answer is logged and
 * charged in ONE transaction. A refused, failed or aborted message is never charged.
 *
 * Refusals that anyone can cause without limit (400, 401, 403, 404, 409, 429) are answered
 * without writing anything, so a flood cannot turn into database writes. Refusals past the rate
 * limits (402) and model failures are logged in the conversation as the visitor's message plus an
 * `error` row, so the owner sees what visitors were told.
 */
@Injectable()
export class ChatService {
  private readonly logger = new Logger('ChatService');
  /** This instance's messages in flight, by bot and visitor: the fast path of the lock. */
  private readonly inFlight = new Set<string>();
  /** The product's own host (PUBLIC_URL), where the demo bot answers. */
  private readonly ownHost: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly repository: ChatRepository,
    private readonly ledger: UsageLedgerService,
    private readonly rateLimiter: ChatRateLimiter,
    @Inject(LLM) private readonly llm: LlmPort,
    @Inject(CHUNK_SEARCH) private readonly chunks: ChunkSearch,
  ) {
    this.ownHost = new URL(config.publicUrl).hostname;
  }

  /** Everything up to the answer; throws AppError for a refusal (nothing written, nothing charged). */
  async answer(input: ChatRequestDto, caller: ChatCaller, sink: AnswerSink, signal: AbortSignal): Promise<ChatAnswer> {
    const receivedAt = new Date();
    const found = await this.repository.findServableBot(input.botId);
    if (!found) throw AppError.notFound(REFUSALS.BOT_NOT_FOUND, 'BOT_NOT_FOUND');
    const { bot } = found;
    this.checkCaller(bot, caller, found.ownerIsSystem);

    const visitorId = visitorKey(caller);
    await this.rateLimiter.hit(bot.id, visitorId, caller.ip);

    const lockKey = `${bot.id}:${visitorId}`;
    if (this.inFlight.has(lockKey)) throw inFlightRefusal();
    this.inFlight.add(lockKey);
    try {
      const reservationId = await this.repository.acquireInFlight(bot.id, visitorId, CHAT_IN_FLIGHT_TTL_MS);
      if (!reservationId) throw inFlightRefusal();
      const conversation: ConversationKey = {
        ownerId: bot.ownerId,
        botId: bot.id,
        botName: bot.name,
        visitorId,
        pageUrl: caller.pageUrl ?? caller.origin ?? null,
      };
      const refuse = async (error: AppError, logged: string): Promise<never> => {
        await this.logRefusal(conversation, input.prompt, logged, receivedAt);
        throw error;
      };
      try {
        return await this.answerReserved(bot, input, conversation, reservationId, receivedAt, sink, signal, refuse);
      } catch (error) {
        // Refused, failed or aborted: the lock and any budget reservation go; nothing was charged.
        await this.repository.releaseInFlight(reservationId).catch((e: unknown) => this.logger.error(e));
        throw error;
      }
    } finally {
      this.inFlight.delete(lockKey);
    }
  }

  private async answerReserved(
    bot: BotEntity,
    input: ChatRequestDto,
    conversation: ConversationKey,
    reservationId: string,
    receivedAt: Date,
    sink: AnswerSink,
    signal: AbortSignal,
    refuse: (error: AppError, logged: string) => Promise<never>,
  ): Promise<ChatAnswer> {
    const billing = await this.ledger.getOwnerBillingState(bot.ownerId);
    if (!billing.canServe) {
      const code = billing.code ?? 'PAYMENT_FAILED';
      return refuse(new AppError(HttpStatus.PAYMENT_REQUIRED, code, REFUSALS.UNAVAILABLE), REFUSALS.UNAVAILABLE);
    }

    let tier: ModelTier = bot.model;
    if (bot.usageLimitDollars > 0) {
      const decision = await this.repository.reserveBudget(reservationId, bot.id, periodStartFor(receivedAt), priceOf);
      if (!decision.reserved) {
        if (decision.reason === 'GONE') throw AppError.notFound(REFUSALS.BOT_NOT_FOUND, 'BOT_NOT_FOUND');
        return refuse(
          new AppError(HttpStatus.PAYMENT_REQUIRED, 'BOT_BUDGET_REACHED', REFUSALS.BOT_BUDGET_REACHED),
          REFUSALS.BOT_BUDGET_REACHED,
        );
      }
      tier = decision.tier;
    }
    const price = priceOf(tier);

    const passages = await this.retrieve(bot.id, input.prompt);
    const history = (input.chatHistory ?? []).map((h) => ({ role: h.role, content: h.content }));
    const messages = buildModelInput({
      botName: bot.name,
      botPrompt: bot.prompt,
      passages,
      history,
      question: input.prompt,
    });

    sink.start();
    let result;
    try {
      result = await this.llm.complete(
        {
          tier,
          messages,
          maxTokens: bot.maxTokens,
          temperature: bot.temperature,
          signal,
          grounding: { botName: bot.name, botPrompt: bot.prompt, passages, question: input.prompt },
        },
        (text) => sink.token(text),
      );
    } catch (error) {
      const llmError =
        error instanceof LlmError ? error : new LlmError('UPSTREAM_FAILED', String(error), { cause: error });
      if (llmError.code !== 'ABORTED') this.logger.warn(`Bot ${bot.id}: ${llmError.message}`);
      const status = llmError.code === 'UPSTREAM_TIMEOUT' ? HttpStatus.GATEWAY_TIMEOUT : HttpStatus.BAD_GATEWAY;
      const sentence = REFUSALS[llmError.code];
      return refuse(new AppError(status, llmError.code, sentence), sentence);
    }

    const tokens = result.usage.promptTokens + result.usage.completionTokens;
    await this.repository.transaction(async (manager) => {
      await this.repository.lockOwner(manager, bot.ownerId);
      await this.repository.releaseInFlight(reservationId, manager);
      const conversationId = await this.repository.conversationFor(manager, conversation);
      const [, assistantId] = await this.repository.logMessages(manager, conversationId, bot.ownerId, [
        { role: 'user', content: input.prompt, createdAt: receivedAt },
        { role: 'assistant', content: result.text, model: tier, tokens, costCents: price, createdAt: new Date() },
      ]);
      await this.ledger.chargeAnsweredMessage(manager, {
        ownerId: bot.ownerId,
        botId: bot.id,
        messageId: assistantId,
        modelTier: tier,
        upstreamModel: result.upstreamModel,
        priceCents: price,
        promptTokens: result.usage.promptTokens,
        completionTokens: result.usage.completionTokens,
      });
    });
    return { message: result.text, costCents: price };
  }

  /**
   * The bot's API key (from the owner's own server) skips the origin check; a wrong key is refused.
   * The system account's bots (the landing page's demo bot, paid by the house) with no domain of
   * their own answer only on the product's own site, so nobody can embed them elsewhere.
   */
  private checkCaller(bot: BotEntity, caller: ChatCaller, ownerIsSystem: boolean): void {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(caller.authorization ?? '')?.[1];
    if (caller.authorization !== undefined && caller.authorization !== '') {
      if (bearer && sameSecret(bearer, bot.apiKey)) return;
      throw new AppError(HttpStatus.UNAUTHORIZED, 'INVALID_API_KEY', REFUSALS.INVALID_API_KEY);
    }
    const allowedDomain = ownerIsSystem && !bot.allowedDomain.trim() ? this.ownHost : bot.allowedDomain;
    if (!isOriginAllowed(allowedDomain, caller.origin, caller.pageUrl)) {
      throw AppError.forbidden(REFUSALS.DOMAIN_NOT_ALLOWED, 'DOMAIN_NOT_ALLOWED');
    }
  }

  private async retrieve(botId: number, question: string): Promise<Passage[]> {
    try {
      return await this.chunks.searchChunks(botId, question, CHAT_LIMITS.retrievalPassages);
    } catch (error) {
      // An answer from the prompt alone beats no answer: log it and carry on.
      this.logger.error(`Bot ${botId}: document search failed: ${describeError(error)}`);
      return [];
    }
  }

  private async logRefusal(conversation: ConversationKey, prompt: string, said: string, at: Date): Promise<void> {
    try {
      await this.repository.transaction(async (manager) => {
        const conversationId = await this.repository.conversationFor(manager, conversation);
        await this.repository.logMessages(manager, conversationId, conversation.ownerId, [
          { role: 'user', content: prompt, createdAt: at },
          { role: 'error', content: said, createdAt: new Date() },
        ]);
      });
    } catch (error) {
      this.logger.error(`Could not log a refused message: ${describeError(error)}`);
    }
  }
}

function inFlightRefusal(): AppError {
  return AppError.conflict(REFUSALS.MESSAGE_IN_FLIGHT, 'MESSAGE_IN_FLIGHT');
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * The widget's visitor id (a uuid kept in session storage); without a usable one, a hash of the
 * client's IP and user agent, so one browser is still one visitor.
 */
export function visitorKey(caller: Pick<ChatCaller, 'visitorId' | 'ip' | 'userAgent'>): string {
  const given = caller.visitorId?.trim();
  if (given && CHAT_LIMITS.visitorIdPattern.test(given)) return given;
  const hash = createHash('sha256')
    .update(`${caller.ip}\n${caller.userAgent ?? ''}`)
    .digest('base64url');
  return `anon-${hash.slice(0, 32)}`;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
