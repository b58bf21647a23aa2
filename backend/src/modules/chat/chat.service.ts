import { ActionsService } from '../actions/actions.service.js';
import { HttpStatus, Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { periodStartFor } from '../../common/billing-period.js';
import { describeError } from '../../common/error-description.js';
import { startOfUtcDay } from '../../common/utc-day.js';
import {
  CHAT_IN_FLIGHT_TTL_MS,
  CHAT_LIMITS,
  HEADER_MAX_CHARS,
  priceOf,
  type ModelTier,
} from '../../common/constants.js';
import type { BotEntity } from '../bots/bot.entity.js';
import { BudgetAlertsService } from '../usage/budget-alerts.service.js';
import { UsageLedgerService, type OwnerBillingRow } from '../usage/usage-ledger.service.js';
import { ConversationLog, type ConversationKey } from '../conversations/conversation-log.js';
import type { StoredCitation } from '../conversations/message.entity.js';
import { ChatRepository, type BudgetDecision, type HeldMessage } from './chat.repository.js';
import { ServableBots } from './servable-bots.js';
import type { ChatRequestDto } from './chat.dto.js';
import { isOriginAllowed, storablePageUrl } from './domain-match.js';
import {
  LLM,
  LlmError,
  type Citation,
  type LlmMessage,
  type LlmPort,
  type LlmResult,
  type LlmUsage,
  type Passage,
} from './llm/llm.port.js';
import { LinkFilter, linkPolicy, reduceLinks, type LinkPolicy } from './answer-links.js';
import { buildModelInput, saysCannotAnswer } from './prompt-builder.js';
import { ChatRateLimiter } from './rate-limit/chat-rate-limiter.js';
import { TurnActions } from './turn-actions.js';
import { VisitorTokens } from './visitor-token.js';
import { verifiedVisitorId, verifyIdentity, type IdentityProof, type VerifiedVisitor } from './visitor-identity.js';
import { IdentitySecretBox } from '../bots/identity-secret.js';
import type { Pipeline } from '../../database/pipeline.js';
import { StatementRunner } from '../../database/statement.js';
import { TransactionRunner } from '../../database/transaction.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';

/** Where passages come from (full-text search over all of the bot's sources, with their citations). */
export const CHUNK_SEARCH = Symbol('CHUNK_SEARCH');
export interface ChunkSearch {
  /**
   * `nothingRelevant`: the bot has knowledge, but none of it is about the question. `sourceSites`:
   * the addresses of the bot's website sources, the sites its answers may link to (read with the
   * passages, docs/decisions/0016-chat-path-cost.md).
   */
  searchForAnswer(botId: number, query: string, limit: number, pipeline?: Pipeline): Promise<Retrieved>;
}

/** What retrieval found for a question (ChunkSearch.searchForAnswer). */
export interface Retrieved {
  passages: Passage[];
  nothingRelevant: boolean;
  sourceSites: string[];
}

/** What the HTTP layer knows about the caller. */
export interface ChatCaller {
  origin?: string;
  pageUrl?: string;
  /** The widget's visitor token (`X-Visitor-Token`), issued by this server. */
  visitorToken?: string;
  /** `X-Visitor-Id`: honoured only from the owner's own server (with the bot's API key). */
  visitorId?: string;
  /**
   * The owner's server's word for who the visitor is (docs/product.md#verified-visitors): the chat
   * body's `visitor.token` or `visitor.userId` + `userHash`, else the widget's `X-Visitor-Identity`
   * header (every visitor route), else a JWT in `X-Visitor-Token` (the API-key path).
   */
  identity?: IdentityProof;
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
  /** An action started (the widget's "Checking your order…" line): what it checks. */
  action(subject: string): void;
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
 * One chat message on its way through the engine (docs/architecture.md#one-chat-message): the
 * steps admit → gate → compose → complete → record each take the turn the step before returned
 * and return it grown by what they decided, so what a step may use is written in its type.
 */
export interface Turn {
  readonly input: ChatRequestDto;
  readonly receivedAt: Date;
  readonly bot: BotEntity;
  /** The system account's bot (the landing page's demo bot, paid by the house). */
  readonly houseBot: boolean;
  /** The owner's billing row, read as the lock was taken: gate decides from it whether the owner can be served. */
  readonly owner: OwnerBillingRow;
  readonly visitor: VisitorOf;
  /** The conversation the turn is logged in. */
  readonly conversation: ConversationKey;
  /** The visitor's in-flight reservation (chat_reservations): one message at a time, and the budget it holds. */
  readonly reservationId: string;
  /** The bot has actions the model may call (docs/product.md#actions). */
  readonly hasActions: boolean;
  /**
   * The webhook event types the owner's endpoints take, as the lock was taken: the answer's events
   * are queued only for these (an endpoint added while the message is answered gets the next ones).
   */
  readonly webhookEvents: readonly string[];
  /** A person handles the conversation (docs/product.md#owner-replies): the bot stays quiet. */
  readonly handedOff: boolean;
  /**
   * The question's passages, asked for with the lock (one round trip, hold); compose awaits them.
   * Never rejects (retrieve); a refused turn leaves it unread.
   */
  readonly retrieval: Promise<Retrieved>;
  /**
   * For a bot with a monthly budget (and only then), the reservation of the message's price made
   * with the lock (one round trip); gate decides from it once the owner's billing state allowed
   * the message.
   */
  readonly budget?: BudgetDecision;
}

/** gate: the tier the message is answered with (the budget reserved its price) and that price. */
export interface GatedTurn extends Turn {
  readonly tier: ModelTier;
  readonly priceCents: number;
}

/** compose: the passages found, what the model is given and the links the answer may carry. */
export interface ComposedTurn extends GatedTurn {
  readonly passages: Passage[];
  /** The bot has knowledge, but none of it is about the question. */
  readonly nothingRelevant: boolean;
  readonly modelInput: LlmMessage[];
  readonly links: LinkPolicy;
}

/** complete: the model's answer, its links checked, and what it cost in tokens. */
export interface CompletedTurn extends ComposedTurn {
  readonly text: string;
  readonly usage: LlmUsage;
  readonly upstreamModel: string;
  readonly citations: Citation[];
  /**
   * Flagged unanswered: the answer says it cannot answer, or nothing relevant was found and no
   * action answered either.
   */
  readonly unanswered: boolean;
  /** The calls the model made to the bot's actions, logged with the answer. */
  readonly actionCalls: TurnActions['calls'];
  /** Those that reached (or tried to reach) the owner's API and failed: `action.failed` events. */
  readonly failedActionCalls: TurnActions['calls'];
}

/** Who is calling, as every visitor route resolves it (resolveCaller). */
export interface ResolvedCaller {
  bot: BotEntity;
  houseBot: boolean;
  /** The bot row's version the checks were made against (ServableBots). */
  botVersion: string;
  visitor: VisitorOf;
  /** The page the conversation may record (storablePageUrl). */
  pageUrl: string | null;
}

/** What hold found: the copy of the bot was out of date, or the lock and what was read with it. */
type HeldTurn =
  | { current: false }
  | (Extract<HeldMessage, { current: true }> & {
      reservationId: string;
      handedOff: boolean;
      budget: BudgetDecision | undefined;
      retrieval: Promise<Retrieved>;
    });

/** The visitor and, from a browser, the visitor token to send back (none on the API-key path). */
export interface VisitorOf {
  id: string;
  token: string | undefined;
  /** Who the owner's server says the visitor is; then `id` follows its `sub`. */
  verified?: VerifiedVisitor;
  /** An identity proof came and was refused: the visitor is anonymous (counted for the owner). */
  identityRefused?: boolean;
}

/**
 * The chat engine. One message is one `Turn` through five steps, for the JSON and the streamed
 * answer alike:
 * - admit: the bot (404), the caller (origin 403 or the bot's API key 401), the rate limits (429)
 *   and the visitor's one message in flight (409);
 * - gate: the owner's payment state and the bot's monthly budget (402), the budget's price reserved;
 * - compose: the bot's passages for the question, the model's input and the links it may carry;
 * - complete: the model answers (streamed to the sink), its links checked;
 * - record: the turn is logged in the conversation (conversations/, ConversationLog) and charged
 *   in ONE statement. A refused, failed or aborted message is never charged.
 * A conversation a person handles (docs/product.md#owner-replies) leaves after admit: the message
 * is logged for them and the bot stays quiet.
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
    private readonly servableBots: ServableBots,
    private readonly log: ConversationLog,
    private readonly transactions: TransactionRunner,
    private readonly statements: StatementRunner,
    private readonly ledger: UsageLedgerService,
    private readonly alerts: BudgetAlertsService,
    private readonly rateLimiter: ChatRateLimiter,
    private readonly visitors: VisitorTokens,
    @Inject(LLM) private readonly llm: LlmPort,
    @Inject(CHUNK_SEARCH) private readonly chunks: ChunkSearch,
    private readonly webhooks: WebhooksService,
    private readonly identitySecrets: IdentitySecretBox,
    private readonly actions: ActionsService,
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
   * the page the conversation may record (storablePageUrl). The first part of admit.
   */
  async resolveCaller(botId: number, caller: ChatCaller, read: 'fresh' | 'cached' = 'fresh'): Promise<ResolvedCaller> {
    const found = read === 'cached' ? await this.servableBots.cached(botId) : await this.servableBots.fresh(botId);
    if (!found) throw AppError.notFound(REFUSALS.BOT_NOT_FOUND, 'BOT_NOT_FOUND');
    const { bot, ownerIsSystem: houseBot, version: botVersion } = found;
    const viaApiKey = this.checkCaller(bot, caller, houseBot);
    // From a browser, the visitor is who the server's token says (or a new one); from the owner's
    // own server, who the owner says.
    const proof = caller.identity ?? identityInHeader(caller.visitorToken);
    const anonymous: VisitorOf = viaApiKey
      ? { id: apiVisitorId(caller.visitorId), token: undefined }
      : this.visitors.resolve(caller.visitorToken, botId, caller.ip);
    // A verified visitor is the same visitor on every device and network: the conversation, the
    // limits and the lock follow `sub`. A refused proof is never an error: the visitor is anonymous.
    const verified = proof
      ? verifyIdentity(proof, this.identitySecrets.open(bot.identitySecret, bot.id), bot.id)
      : null;
    const visitor: VisitorOf = verified
      ? { id: verifiedVisitorId(bot.id, verified.sub), token: anonymous.token, verified }
      : { ...anonymous, ...(proof ? { identityRefused: true } : {}) };
    const pageUrl = storablePageUrl(this.domainOf(bot, houseBot), caller.origin, caller.pageUrl);
    return { bot, houseBot, botVersion, visitor, pageUrl };
  }

  /** One message, admit → gate → compose → complete → record; throws AppError for a refusal (nothing charged). */
  async answer(input: ChatRequestDto, caller: ChatCaller, sink: AnswerSink, signal: AbortSignal): Promise<ChatAnswer> {
    const turn = await this.admit(input, caller);
    const lockKey = inFlightKey(turn.bot.id, turn.visitor.id);
    try {
      // A person handles this conversation: the message is theirs to read, the bot stays quiet,
      // and nothing is charged, so the owner's billing state and the bot's budget do not apply.
      if (turn.handedOff) return await this.forPerson(turn, sink);
      const gated = await this.gate(turn);
      const composed = await this.compose(gated);
      const completed = await this.complete(composed, sink, signal);
      return await this.record(completed);
    } catch (error) {
      // Refused, failed or aborted: the lock and any budget reservation go; nothing was charged.
      await this.release(turn.reservationId);
      throw error;
    } finally {
      this.inFlight.delete(lockKey);
    }
  }

  /**
   * admit: who is calling (resolveCaller, from this instance's copy of the bot), the rate limits,
   * then the visitor's lock (hold). Writes nothing the caller can multiply: a refusal here stores
   * no message. When the lock's statement finds the copy out of date, the bot is read again and
   * the caller checked anew against it before the lock is taken.
   */
  private async admit(input: ChatRequestDto, caller: ChatCaller): Promise<Turn> {
    const receivedAt = new Date();
    let resolved = await this.resolveCaller(input.botId, caller, 'cached');
    await this.rateLimiter.hit(resolved.bot.id, resolved.visitor.id, caller.ip);
    let held: HeldTurn;
    try {
      held = await this.hold(resolved, resolved.botVersion, receivedAt, input.prompt);
      if (!held.current) {
        this.servableBots.forget(resolved.bot.id);
        resolved = await this.resolveCaller(input.botId, caller, 'fresh');
        // As fresh as a read can be: the lock is taken while the bot and its owner exist.
        held = await this.hold(resolved, null, receivedAt, input.prompt);
        if (!held.current) throw AppError.notFound(REFUSALS.BOT_NOT_FOUND, 'BOT_NOT_FOUND');
      }
    } finally {
      // Counted past the rate limits, so a flood of bad tokens writes no more than the limits
      // allow; and against the bot the lock found current (a copy from before the owner made or
      // rotated the identity secret judges a proof by the old one), whether or not the lock was taken.
      if (resolved.visitor.identityRefused) await this.countIdentityRefusal(resolved.bot.id, receivedAt);
    }
    const { bot, houseBot, visitor, pageUrl } = resolved;
    const { reservationId, owner, hasActions, webhookEvents, handedOff, budget, retrieval } = held;
    const conversation = { ownerId: bot.ownerId, botId: bot.id, botName: bot.name, visitorId: visitor.id, pageUrl };
    return {
      input,
      receivedAt,
      bot,
      houseBot,
      owner,
      visitor,
      conversation,
      reservationId,
      hasActions,
      webhookEvents,
      handedOff,
      budget,
      retrieval,
    };
  }

  /**
   * The visitor's lock: this instance's set first, then, in one round trip, the reservation row
   * every instance sees (taken only while the bot row is still `version`, when one is given),
   * with the owner's billing row and whether a person handles the conversation, read on the
   * statement's snapshot, which is as fresh as the lock. 409 while another message is in flight.
   * For a bot with a monthly budget, the message's price is reserved in the same round trip. The
   * passages for `question` are asked for in that round trip too (a pipeline: the two statements
   * are independent), once this instance's set let the message through, so a refusal by the set
   * costs no search; a refusal by the statement leaves the search unread.
   */
  private async hold(
    resolved: ResolvedCaller,
    version: string | null,
    receivedAt: Date,
    question: string,
  ): Promise<HeldTurn> {
    const { bot, visitor } = resolved;
    const lockKey = inFlightKey(bot.id, visitor.id);
    if (this.inFlight.has(lockKey)) throw inFlightRefusal();
    this.inFlight.add(lockKey);
    try {
      const statement = this.statements.begin();
      const held = this.repository.holdIn(statement, {
        botId: bot.id,
        visitorId: visitor.id,
        ttlMs: CHAT_IN_FLIGHT_TTL_MS,
        version,
      });
      const handoff = this.log.isHandedOffIn(statement, bot.id, visitor.id);
      const pipeline = this.statements.beginPipeline();
      const holding =
        bot.usageLimitDollars > 0
          ? this.repository.runHoldingBudget(
              statement,
              held.reservationId,
              bot.id,
              periodStartFor(receivedAt),
              pipeline,
            )
          : this.statements.runPipelined(statement, pipeline).then((row) => ({ row, budget: undefined }));
      const retrieval = this.retrieve(bot.id, question, pipeline);
      const { row, budget } = await holding;
      const found = held.read(row);
      if (!found.current) {
        this.inFlight.delete(lockKey);
        return found;
      }
      if (!found.reservationId) throw inFlightRefusal();
      return { ...found, reservationId: found.reservationId, handedOff: handoff.read(row), budget, retrieval };
    } catch (error) {
      this.inFlight.delete(lockKey);
      throw error;
    }
  }

  /**
   * gate: the owner may be billed (decided from the billing row read with the bot, so no query of
   * its own) and the bot's budget has room; reserves the message's price.
   */
  private async gate(turn: Turn): Promise<GatedTurn> {
    const { bot } = turn;
    const billing = this.ledger.billingStateOf(turn.owner);
    if (!billing.canServe) {
      const code = billing.code ?? 'PAYMENT_FAILED';
      return this.refuse(
        turn,
        new AppError(HttpStatus.PAYMENT_REQUIRED, code, REFUSALS.UNAVAILABLE),
        REFUSALS.UNAVAILABLE,
      );
    }
    // A bot without a budget (admit reserved nothing for it).
    const decision = turn.budget;
    if (!decision) return { ...turn, tier: bot.model, priceCents: priceOf(bot.model) };
    if (!decision.reserved) {
      if (decision.reason === 'GONE') throw AppError.notFound(REFUSALS.BOT_NOT_FOUND, 'BOT_NOT_FOUND');
      // A budget lowered below what was spent is reached without any charge: tell the owner too.
      this.alerts.afterSpend(bot.ownerId, bot.id, turn.receivedAt);
      return this.refuse(
        turn,
        new AppError(HttpStatus.PAYMENT_REQUIRED, 'BOT_BUDGET_REACHED', REFUSALS.BOT_BUDGET_REACHED),
        REFUSALS.BOT_BUDGET_REACHED,
      );
    }
    return { ...turn, tier: decision.tier, priceCents: priceOf(decision.tier) };
  }

  /** compose: the bot's passages for the question, the model's input, and the links the answer may carry. */
  private async compose(turn: GatedTurn): Promise<ComposedTurn> {
    const { bot, input } = turn;
    const { passages, nothingRelevant, sourceSites } = await turn.retrieval;
    const modelInput = buildModelInput({
      botName: bot.name,
      botPrompt: bot.prompt,
      passages,
      history: (input.chatHistory ?? []).map((h) => ({ role: h.role, content: h.content })),
      question: input.prompt,
      visitor: turn.visitor.verified,
    });
    const links = this.linkPolicyFor(bot, turn.houseBot, passages, sourceSites);
    return { ...turn, passages, nothingRelevant, modelInput, links };
  }

  /**
   * complete: the model answers, streamed to the sink once every protection passed. Links are
   * checked as the answer streams: none the policy refuses reaches the visitor. A model failure
   * is a refusal (502, 504), logged in the conversation.
   */
  private async complete(turn: ComposedTurn, sink: AnswerSink, signal: AbortSignal): Promise<CompletedTurn> {
    const { bot, input, passages } = turn;
    const checkedLinks = new LinkFilter(turn.links);
    sink.start(turn.visitor.token);
    // The bot's actions, read only for a bot that has some (findServableBot says so).
    const actions = turn.hasActions
      ? new TurnActions({
          rows: await this.actions.forBot(bot.id),
          actions: this.actions,
          verified: turn.visitor.verified,
          onStart: (subject) => sink.action(subject),
        })
      : null;
    let result: LlmResult;
    try {
      result = await this.llm.complete(
        {
          tier: turn.tier,
          messages: turn.modelInput,
          maxTokens: bot.maxTokens,
          temperature: bot.temperature,
          signal,
          // The house demo bot's prompt is the product's own public description of itself: a
          // retrieval model may quote it. An owner's prompt is never handed to one.
          grounding: {
            botName: bot.name,
            passages,
            question: input.prompt,
            publicText: turn.houseBot ? bot.prompt : undefined,
          },
          tools: actions?.tools(),
        },
        (text) => {
          const checked = checkedLinks.push(text);
          if (checked) sink.token(checked);
        },
      );
      const rest = checkedLinks.end();
      if (rest) sink.token(rest);
    } catch (error) {
      const llmError =
        error instanceof LlmError ? error : new LlmError('UPSTREAM_FAILED', String(error), { cause: error });
      if (llmError.code !== 'ABORTED') this.logger.warn(`Bot ${bot.id}: ${llmError.message}`);
      const status = llmError.code === 'UPSTREAM_TIMEOUT' ? HttpStatus.GATEWAY_TIMEOUT : HttpStatus.BAD_GATEWAY;
      const sentence = REFUSALS[llmError.code];
      return this.refuse(turn, new AppError(status, llmError.code, sentence), sentence);
    }
    const text = reduceLinks(result.text, turn.links);
    return {
      ...turn,
      text,
      usage: result.usage,
      upstreamModel: result.upstreamModel,
      citations: citationsOf(passages, result.quotedPassage),
      // An answer an action gave is an answer, even when no passage was about the question.
      unanswered: (turn.nothingRelevant && !actions?.answeredFromAction) || saysCannotAnswer(text),
      actionCalls: actions?.calls ?? [],
      failedActionCalls: actions?.failedCalls ?? [],
    };
  }

  /**
   * record: the question and the answer are logged in the visitor's conversation and charged in
   * ONE statement, which frees the visitor's lock; then, in the background, the budget alerts
   * and, for an unanswered question, the owner's webhook.
   */
  private async record(turn: CompletedTurn): Promise<ChatAnswer> {
    const { bot, input } = turn;
    const chargedAt = new Date();
    // The fair meter (docs/product.md#the-fair-meter): an answer the bot could not give costs nothing.
    const costCents = turn.unanswered ? 0 : turn.priceCents;
    // One statement (docs/decisions/0016-chat-path-cost.md): the owner's row locked and the price
    // taken from its credits first, then the turn logged, the visitor's lock and budget reservation
    // released, and exactly one ledger row written for the answer. Atomic without a transaction; a
    // deadlock with a background job's rollup rows leaves nothing behind, so it is simply run again.
    const statement = this.statements.begin();
    const ownerLock = this.ledger.lockOwnerIn(statement, bot.ownerId, costCents);
    const logged = this.log.recordIn(
      statement,
      {
        conversation: turn.conversation,
        visitor: loggedVisitor(turn),
        messages: [
          { role: 'user', content: input.prompt, createdAt: turn.receivedAt },
          {
            role: 'assistant',
            content: turn.text,
            model: turn.tier,
            tokens: turn.usage.promptTokens + turn.usage.completionTokens,
            costCents,
            createdAt: new Date(),
            unanswered: turn.unanswered,
            citations: turn.citations.map(storedCitation),
          },
        ],
        actionCalls: turn.actionCalls,
      },
      ownerLock.spend.done,
    );
    this.repository.releaseInFlightIn(statement, turn.reservationId);
    const usage = {
      botId: bot.id,
      messageId: logged.answerId,
      modelTier: turn.tier,
      upstreamModel: turn.upstreamModel,
      promptTokens: turn.usage.promptTokens,
      completionTokens: turn.usage.completionTokens,
      at: chargedAt,
    };
    const charge = turn.unanswered
      ? this.ledger.recordUnchargedAnswerIn(statement, ownerLock, usage, 'unanswered')
      : this.ledger.chargeIn(statement, ownerLock, usage);
    const row = await this.statements.runRetryingDeadlocks(statement);
    charge.read(row);
    const { conversationId, messageIds } = logged.read(row);
    const messageId = messageIds[1];
    // Committed: the alert check sees this charge, and runs in the background (never fails the answer).
    if (!turn.unanswered) this.alerts.afterSpend(bot.ownerId, bot.id, chargedAt);
    if (turn.unanswered && turn.webhookEvents.includes('conversation.unanswered')) {
      // Queued in the background: a webhook problem never fails the answer (docs/product.md#webhooks).
      this.webhooks.notify(bot.ownerId, 'conversation.unanswered', {
        botId: bot.id,
        botName: bot.name,
        conversationId,
        messageId,
        question: input.prompt,
        answer: turn.text,
      });
    }
    for (const call of turn.webhookEvents.includes('action.failed') ? turn.failedActionCalls : []) {
      this.webhooks.notify(bot.ownerId, 'action.failed', {
        botId: bot.id,
        botName: bot.name,
        conversationId,
        messageId,
        action: call.actionName,
        status: call.status,
        durationMs: call.durationMs,
        error: call.error,
      });
    }
    return {
      message: turn.text,
      messageId,
      costCents,
      citations: turn.citations,
      ...(turn.unanswered ? { unanswered: true as const } : {}),
    };
  }

  /**
   * A handed-off conversation: within its daily cap, the visitor's message is logged alone (no
   * answer, no charge) and their lock freed in the same transaction.
   */
  private async forPerson(turn: Turn, sink: AnswerSink): Promise<ChatAnswer> {
    await this.assertHandoffRoom(turn.bot.id, turn.visitor.id, turn.receivedAt);
    await this.transactions.run(async (tx) => {
      await this.repository.releaseInFlight(turn.reservationId, tx);
      await this.log.record(tx, {
        conversation: turn.conversation,
        visitor: loggedVisitor(turn),
        messages: [{ role: 'user', content: turn.input.prompt, createdAt: turn.receivedAt }],
      });
    });
    sink.start(turn.visitor.token);
    return { message: '', messageId: null, costCents: 0, citations: [], handoff: true };
  }

  /**
   * A refusal past the rate limits (402) or a model failure: logged in the conversation as the
   * visitor's message and what they were told, then thrown. The visitor's identity is deliberately
   * not stored: only a message that was accepted stores it.
   */
  private async refuse(turn: Turn, refusal: AppError, said: string): Promise<never> {
    try {
      await this.transactions.run((tx) =>
        this.log.record(tx, {
          conversation: turn.conversation,
          messages: [
            { role: 'user', content: turn.input.prompt, createdAt: turn.receivedAt },
            { role: 'error', content: said, createdAt: new Date() },
          ],
        }),
      );
    } catch (error) {
      this.logger.error(`Could not log a refused message: ${describeError(error)}`);
    }
    throw refusal;
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
  /** One more refused identity proof for the bot today; a failure to count never stops the message. */
  private async countIdentityRefusal(botId: number, at: Date): Promise<void> {
    try {
      await this.repository.countIdentityRefusal(botId, startOfUtcDay(at));
    } catch (error) {
      this.logger.warn(`Could not count a refused identity proof for bot ${botId}: ${describeError(error)}`);
    }
  }

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

  /**
   * The links an answer may carry (answer-links.ts): the bot's domain (the product's own for the
   * house bots), its website sources' sites, and addresses the owner wrote in the prompt and in the
   * written answers and corrections the model is given. The sites come with the passages: when
   * retrieval failed there are none, so fewer links are kept, never more.
   */
  private linkPolicyFor(bot: BotEntity, houseBot: boolean, passages: Passage[], sourceSites: string[]): LinkPolicy {
    return linkPolicy({
      allowedDomain: this.domainOf(bot, houseBot),
      sourceSites,
      ownerTexts: [bot.prompt, ...passages.filter((p) => p.ownerWritten).map((p) => p.content)],
    });
  }

  private async retrieve(botId: number, question: string, pipeline: Pipeline): Promise<Retrieved> {
    try {
      return await this.chunks.searchForAnswer(botId, question, CHAT_LIMITS.retrievalPassages, pipeline);
    } catch (error) {
      // An answer from the prompt alone beats no answer: log it and carry on (unflagged: the
      // search failed, not the knowledge).
      this.logger.error(`Bot ${botId}: document search failed: ${describeError(error)}`);
      return { passages: [], nothingRelevant: false, sourceSites: [] };
    }
  }

  /**
   * A handed-off conversation's messages are never charged, so a daily cap bounds what a stranger
   * can store in it (docs/product.md#quotas): 429 past it, nothing written. The visitor's
   * in-flight lock is held, so two of their messages cannot both take the last place.
   */
  private async assertHandoffRoom(botId: number, visitorId: string, at: Date): Promise<void> {
    const cap = this.quotas.handoffMessagesPerConversationPerDay;
    const sent = await this.log.handoffMessagesSince(botId, visitorId, startOfUtcDay(at), cap);
    if (sent < cap) return;
    throw AppError.dailyLimit('HANDOFF_LIMIT_REACHED', handoffLimitSentence(cap), at);
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

/** The in-flight lock's key on this instance. */
/**
 * Who the turn's visitor is, for the owner's inbox: for a verified visitor the token's name and
 * e-mail (else those given beside a userHash), marked verified; otherwise what the page says.
 */
function loggedVisitor(turn: Turn): { name?: string; email?: string; verified: boolean } {
  const given = turn.input.visitor;
  const verified = turn.visitor.verified;
  return {
    name: verified?.name ?? given?.name,
    email: verified?.email ?? given?.email,
    verified: verified !== undefined,
  };
}

/** A JWT in `X-Visitor-Token` (the API-key path's way to send one; a widget's own token is `v1.…`). */
function identityInHeader(visitorToken: string | undefined): IdentityProof | undefined {
  return visitorToken && visitorToken.split('.').length === 3 && !visitorToken.startsWith('v1.')
    ? { token: visitorToken }
    : undefined;
}

function inFlightKey(botId: number, visitorId: string): string {
  return `${botId}:${visitorId}`;
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
