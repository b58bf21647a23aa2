import { HttpStatus, Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { periodStartFor } from '../../common/billing-period.js';
import { secondsToNextUtcDay, startOfUtcDay } from '../../common/utc-day.js';
import {
  CHAT_IN_FLIGHT_TTL_MS,
  CHAT_LIMITS,
  HEADER_MAX_CHARS,
  priceOf,
  type ModelTier,
} from '../../common/constants.js';
import type { BotEntity } from '../bots/bot.entity.js';
import { BudgetAlertsService } from '../usage/budget-alerts.service.js';
import { UsageLedgerService } from '../usage/usage-ledger.service.js';
import { ChatRepository, type ConversationKey } from './chat.repository.js';
import type { ChatRequestDto } from './chat.dto.js';
import { isOriginAllowed, storablePageUrl } from './domain-match.js';
import { LLM, LlmError, type Citation, type LlmPort, type Passage } from './llm/llm.port.js';
import { buildModelInput, saysCannotAnswer } from './prompt-builder.js';
import { ChatRateLimiter } from './rate-limit/chat-rate-limiter.js';
import { VisitorTokens } from './visitor-token.js';
import { TransactionRunner } from '../../database/transaction.js';
import type { StoredCitation } from './message.entity.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';

/** Where passages come from (full-text search over all of the bot's sources, with their citations). */
export const CHUNK_SEARCH = Symbol('CHUNK_SEARCH');
export interface ChunkSearch {
  /** `nothingRelevant`: the bot has knowledge, but none of it is about the question. */
  searchForAnswer(
    botId: number,
    query: string,
    limit: number,
  ): Promise<{ passages: Passage[]; nothingRelevant: boolean }>;
}

/** What the HTTP layer knows about the caller. */
export interface ChatCaller {
  origin?: string;
  pageUrl?: string;
  /** The widget's visitor token (`X-Visitor-Token`), issued by this server. */
  visitorToken?: string;
  /** `X-Visitor-Id`: honoured only from the owner's own server (with the bot's API key). */
  visitorId?: string;
  authorization?: string;
  ip: string;
  userAgent?: string;
}

/**
 * Receives the answer as it is produced: `start` once every protection passed (with the visitor
 * token to send back, none on the API-key path), then tokens.
 */
export interface AnswerSink {
  start(visitorToken: string | undefined): void;
  token(text: string): void;
}

export interface ChatAnswer {
  message: string;
  /** The logged answer's id, for POST /api/chat/feedback; null during a handoff (no answer). */
  messageId: number | null;
  costCents: number;
  /** The sources the answer drew on. */
  citations: Citation[];
  /** A person handles the conversation: the message was logged for them and the bot stayed quiet. */
  handoff?: true;
  /** The answer is flagged unanswered: the widget may offer its lead form (docs/product.md#leads-and-handoff). */
  unanswered?: true;
}

/** The visitor's sentence for each refusal; the code says which (docs/product.md#error-codes). */
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

/**
 * The chat engine. Protections run in the order of the contract — input (the DTO pipe), unknown
 * bot, origin (or the bot's API key), rate limits, one message in flight per visitor, the owner's
 * payment state, the bot's monthly budget — then the model answers, and the answer is logged and
 * charged in ONE transaction. A refused, failed or aborted message is never charged.
 *
 * Refusals that anyone can cause without limit (400, 401, 403, 404, 409, 429) are answered
 * without writing anything, so a flood cannot turn into database writes. Refusals past the rate
 * limits (402) and model failures are logged in the conversation as the visitor's message plus an
 * `error` row, so the owner sees what visitors were told. Who the visitor says they are
 * (`visitor`, display only) is stored with an answered message or one logged for a person, never
 * with a refusal.
 */
@Injectable()
export class ChatService implements OnApplicationShutdown {
  private readonly logger = new Logger('ChatService');
  /** This instance's messages in flight, by bot and visitor: the fast path of the lock. */
  private readonly inFlight = new Set<string>();
  /** Retries of reservations that could not be released (the database was away), by reservation. */
  private readonly pendingReleases = new Map<string, NodeJS.Timeout>();
  /** The product's own host (PUBLIC_URL), where the demo bot answers. */
  private readonly ownHost: string;
  private readonly quotas: AppConfig['quotas'];

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly repository: ChatRepository,
    private readonly transactions: TransactionRunner,
    private readonly ledger: UsageLedgerService,
    private readonly alerts: BudgetAlertsService,
    private readonly rateLimiter: ChatRateLimiter,
    private readonly visitors: VisitorTokens,
    @Inject(LLM) private readonly llm: LlmPort,
    @Inject(CHUNK_SEARCH) private readonly chunks: ChunkSearch,
    private readonly webhooks: WebhooksService,
  ) {
    this.ownHost = new URL(config.publicUrl).hostname;
    this.quotas = config.quotas;
  }

  /**
   * Who is calling about `botId`, checked as for a chat message (unknown bot 404, origin 403 or
   * API key 401) but writing nothing: from a browser, the visitor the token names (a new one when
   * it names none), from the owner's server the visitor it names.
   */
  async identifyVisitor(botId: number, caller: ChatCaller): Promise<string> {
    return (await this.resolveCaller(botId, caller)).visitor.id;
  }

  /**
   * As identifyVisitor, with the bot and, for a browser, the visitor token to send back (a new
   * visitor's first request creates their conversation, e.g. a lead left at the bot's budget), and
   * the page the conversation may record (storablePageUrl).
   */
  async resolveCaller(
    botId: number,
    caller: ChatCaller,
  ): Promise<{ bot: BotEntity; visitor: { id: string; token: string | undefined }; pageUrl: string | null }> {
    const found = await this.repository.findServableBot(botId);
    if (!found) throw AppError.notFound(REFUSALS.BOT_NOT_FOUND, 'BOT_NOT_FOUND');
    const viaApiKey = this.checkCaller(found.bot, caller, found.ownerIsSystem);
    const visitor = viaApiKey
      ? { id: apiVisitorId(caller.visitorId), token: undefined }
      : this.visitors.resolve(caller.visitorToken, botId, caller.ip);
    const pageUrl = storablePageUrl(this.domainOf(found.bot, found.ownerIsSystem), caller.origin, caller.pageUrl);
    return { bot: found.bot, visitor, pageUrl };
  }

  /** Everything up to the answer; throws AppError for a refusal (nothing written, nothing charged). */
  async answer(input: ChatRequestDto, caller: ChatCaller, sink: AnswerSink, signal: AbortSignal): Promise<ChatAnswer> {
    const receivedAt = new Date();
    const found = await this.repository.findServableBot(input.botId);
    if (!found) throw AppError.notFound(REFUSALS.BOT_NOT_FOUND, 'BOT_NOT_FOUND');
    const { bot } = found;
    const viaApiKey = this.checkCaller(bot, caller, found.ownerIsSystem);

    // From a browser, the visitor is who the server's token says (or a new one); from the owner's
    // own server, who the owner says.
    const visitor = viaApiKey
      ? { id: apiVisitorId(caller.visitorId), token: undefined }
      : this.visitors.resolve(caller.visitorToken, bot.id, caller.ip);
    const visitorId = visitor.id;
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
        pageUrl: storablePageUrl(this.domainOf(bot, found.ownerIsSystem), caller.origin, caller.pageUrl),
      };
      const refuse = async (error: AppError, logged: string): Promise<never> => {
        await this.logRefusal(conversation, input.prompt, logged, receivedAt);
        throw error;
      };
      try {
        // A person handles this conversation (docs/product.md#owner-replies): the message is
        // theirs to read, the bot stays quiet, and nothing is charged, so the owner's billing
        // state and the bot's budget do not apply.
        if (await this.repository.isHandedOff(bot.id, visitorId)) {
          await this.assertHandoffRoom(bot.id, visitorId, receivedAt);
          await this.logForPerson(conversation, input, reservationId, receivedAt);
          sink.start(visitor.token);
          return { message: '', messageId: null, costCents: 0, citations: [], handoff: true };
        }
        // The house demo bot's prompt is the product's own public description of itself: a
        // retrieval model may quote it. An owner's prompt is never handed to one.
        const publicText = found.ownerIsSystem ? bot.prompt : undefined;
        return await this.answerReserved(
          bot,
          publicText,
          input,
          conversation,
          reservationId,
          receivedAt,
          { start: () => sink.start(visitor.token), token: (text) => sink.token(text) },
          signal,
          refuse,
        );
      } catch (error) {
        // Refused, failed or aborted: the lock and any budget reservation go; nothing was charged.
        await this.release(reservationId);
        throw error;
      }
    } finally {
      this.inFlight.delete(lockKey);
    }
  }

  private async answerReserved(
    bot: BotEntity,
    publicText: string | undefined,
    input: ChatRequestDto,
    conversation: ConversationKey,
    reservationId: string,
    receivedAt: Date,
    sink: { start(): void; token(text: string): void },
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
        // A budget lowered below what was spent is reached without any charge: tell the owner too.
        this.alerts.afterSpend(bot.ownerId, bot.id, receivedAt);
        return refuse(
          new AppError(HttpStatus.PAYMENT_REQUIRED, 'BOT_BUDGET_REACHED', REFUSALS.BOT_BUDGET_REACHED),
          REFUSALS.BOT_BUDGET_REACHED,
        );
      }
      tier = decision.tier;
    }
    const price = priceOf(tier);

    const { passages, nothingRelevant } = await this.retrieve(bot.id, input.prompt);
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
          grounding: { botName: bot.name, passages, question: input.prompt, publicText },
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
    const citations = citationsOf(passages, result.quotedPassage);
    const unanswered = nothingRelevant || saysCannotAnswer(result.text);
    const chargedAt = new Date();
    const { messageId, conversationId } = await this.transactions.run(async (tx) => {
      await this.repository.lockOwner(tx, bot.ownerId);
      await this.repository.releaseInFlight(reservationId, tx);
      const conversationId = await this.repository.conversationFor(tx, conversation);
      if (input.visitor) await this.repository.setVisitorIdentity(tx, conversationId, input.visitor);
      const [, assistantId] = await this.repository.logMessages(tx, conversationId, bot.ownerId, [
        { role: 'user', content: input.prompt, createdAt: receivedAt },
        {
          role: 'assistant',
          content: result.text,
          model: tier,
          tokens,
          costCents: price,
          createdAt: new Date(),
          unanswered,
          citations: citations.map(storedCitation),
        },
      ]);
      await this.ledger.chargeAnsweredMessage(tx, {
        ownerId: bot.ownerId,
        botId: bot.id,
        messageId: assistantId,
        modelTier: tier,
        upstreamModel: result.upstreamModel,
        priceCents: price,
        promptTokens: result.usage.promptTokens,
        completionTokens: result.usage.completionTokens,
        at: chargedAt,
      });
      return { messageId: assistantId, conversationId };
    });
    // Committed: the alert check sees this charge, and runs in the background (never fails the answer).
    this.alerts.afterSpend(bot.ownerId, bot.id, chargedAt);
    if (unanswered) {
      // Queued in the background: a webhook problem never fails the answer (docs/product.md#webhooks).
      this.webhooks.notify(bot.ownerId, 'conversation.unanswered', {
        botId: bot.id,
        botName: bot.name,
        conversationId,
        messageId,
        question: input.prompt,
        answer: result.text,
      });
    }
    return { message: result.text, messageId, costCents: price, citations, ...(unanswered ? { unanswered } : {}) };
  }

  /**
   * The bot's API key (from the owner's own server) skips the origin check; a wrong key is refused.
   * The system account's bots (the landing page's demo bot, paid by the house) with no domain of
   * their own answer only on the product's own site, so nobody can embed them elsewhere.
   */
  private checkCaller(bot: BotEntity, caller: ChatCaller, ownerIsSystem: boolean): boolean {
    if (caller.authorization !== undefined && caller.authorization !== '') {
      // Capped before the regex: no bot key is that long, and the work stays bounded.
      const bearer =
        caller.authorization.length <= HEADER_MAX_CHARS.authorization
          ? /^Bearer\s+(\S+)\s*$/i.exec(caller.authorization)?.[1]
          : undefined;
      if (bearer && sameSecret(bearer, bot.apiKey)) return true;
      throw new AppError(HttpStatus.UNAUTHORIZED, 'INVALID_API_KEY', REFUSALS.INVALID_API_KEY);
    }
    if (!isOriginAllowed(this.domainOf(bot, ownerIsSystem), caller.origin, caller.pageUrl)) {
      throw AppError.forbidden(REFUSALS.DOMAIN_NOT_ALLOWED, 'DOMAIN_NOT_ALLOWED');
    }
    return false;
  }

  /** The site a bot may be used on: its owner's choice; the product's own for the house bots without one. */
  private domainOf(bot: BotEntity, ownerIsSystem: boolean): string {
    return ownerIsSystem && !bot.allowedDomain.trim() ? this.ownHost : bot.allowedDomain;
  }

  /**
   * Releases a message's in-flight reservation (and the budget it held). When the database is
   * away, the release is retried until it succeeds or the reservation would have expired anyway,
   * so once the database is back the visitor is not refused "one message at a time" for minutes.
   */
  private async release(reservationId: string, deadline = Date.now() + CHAT_IN_FLIGHT_TTL_MS): Promise<void> {
    try {
      await this.repository.releaseInFlight(reservationId);
      this.pendingReleases.delete(reservationId);
    } catch (error) {
      if (Date.now() + RELEASE_RETRY_MS >= deadline) {
        this.pendingReleases.delete(reservationId);
        this.logger.error(`Could not release chat reservation ${reservationId}: ${describeError(error)}`);
        return;
      }
      const retry = setTimeout(() => void this.release(reservationId, deadline), RELEASE_RETRY_MS);
      retry.unref();
      this.pendingReleases.set(reservationId, retry);
    }
  }

  onApplicationShutdown(): void {
    for (const retry of this.pendingReleases.values()) clearTimeout(retry);
    this.pendingReleases.clear();
  }

  private async retrieve(botId: number, question: string): Promise<{ passages: Passage[]; nothingRelevant: boolean }> {
    try {
      return await this.chunks.searchForAnswer(botId, question, CHAT_LIMITS.retrievalPassages);
    } catch (error) {
      // An answer from the prompt alone beats no answer: log it and carry on (unflagged: the
      // search failed, not the knowledge).
      this.logger.error(`Bot ${botId}: document search failed: ${describeError(error)}`);
      return { passages: [], nothingRelevant: false };
    }
  }

  /**
   * A handed-off conversation's messages are never charged, so a daily cap bounds what a stranger
   * can store in it (docs/product.md#quotas): 429 past it, nothing written. The visitor's
   * in-flight lock is held, so two of their messages cannot both take the last place.
   */
  private async assertHandoffRoom(botId: number, visitorId: string, at: Date): Promise<void> {
    const cap = this.quotas.handoffMessagesPerConversationPerDay;
    const sent = await this.repository.handoffMessagesSince(botId, visitorId, startOfUtcDay(at), cap);
    if (sent < cap) return;
    throw new AppError(HttpStatus.TOO_MANY_REQUESTS, 'HANDOFF_LIMIT_REACHED', handoffLimitSentence(cap), {
      'Retry-After': String(secondsToNextUtcDay(at)),
    });
  }

  /** Logs the visitor's message alone (no answer, no charge) and frees their in-flight lock. */
  private async logForPerson(
    conversation: ConversationKey,
    input: ChatRequestDto,
    reservationId: string,
    at: Date,
  ): Promise<void> {
    await this.transactions.run(async (tx) => {
      await this.repository.releaseInFlight(reservationId, tx);
      const conversationId = await this.repository.conversationFor(tx, conversation);
      if (input.visitor) await this.repository.setVisitorIdentity(tx, conversationId, input.visitor);
      await this.repository.logMessages(tx, conversationId, conversation.ownerId, [
        { role: 'user', content: input.prompt, createdAt: at },
      ]);
    });
  }

  /** The visitor's identity (`input.visitor`) is deliberately not stored here: only a message that was accepted stores it. */
  private async logRefusal(conversation: ConversationKey, prompt: string, said: string, at: Date): Promise<void> {
    try {
      await this.transactions.run(async (tx) => {
        const conversationId = await this.repository.conversationFor(tx, conversation);
        await this.repository.logMessages(tx, conversationId, conversation.ownerId, [
          { role: 'user', content: prompt, createdAt: at },
          { role: 'error', content: said, createdAt: new Date() },
        ]);
      });
    } catch (error) {
      this.logger.error(`Could not log a refused message: ${describeError(error)}`);
    }
  }
}

/** The visitor's sentence past the daily cap of a handed-off conversation. */
export function handoffLimitSentence(cap: number): string {
  return `This conversation takes at most ${cap} messages a day while a person handles it. They will read what you sent; please write again tomorrow.`;
}

/** How often a reservation the database could not release is tried again. */
const RELEASE_RETRY_MS = 2_000;

/**
 * The passage the model quoted, when it says which (the offline model); else every source among
 * the passages the model was given, best first, each source and page once.
 */
export function citationsOf(passages: Passage[], quoted: number | null | undefined): Citation[] {
  if (quoted === null) return [];
  const given = quoted === undefined ? passages.slice(0, CHAT_LIMITS.retrievalPassages) : [passages[quoted]];
  const seen = new Set<string>();
  const citations: Citation[] = [];
  for (const passage of given) {
    const citation = passage?.citation;
    if (!citation) continue;
    const key = `${citation.sourceId}:${citation.page ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    citations.push({ sourceId: citation.sourceId, name: citation.name, page: citation.page, url: citation.url });
  }
  return citations;
}

/** Citations as stored with the answer: absent page and address are left out. */
function storedCitation(citation: Citation): StoredCitation {
  return {
    sourceId: citation.sourceId,
    name: citation.name,
    ...(citation.page !== null ? { page: citation.page } : {}),
    ...(citation.url !== null ? { url: citation.url } : {}),
  };
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
 * The visitor on the API-key path: the owner's server relays its own visitors and names them with
 * `X-Visitor-Id` (the owner pays, so the owner may choose); prefixed so an owner's ids never meet
 * the ids the server issues to widget visitors. Without a usable id, each message is a new visitor.
 */
export function apiVisitorId(given: string | undefined): string {
  const id = given && given.length <= HEADER_MAX_CHARS.visitorId ? given.trim() : '';
  return `api-${id && CHAT_LIMITS.visitorIdPattern.test(id) ? id : randomBytes(16).toString('base64url')}`;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
