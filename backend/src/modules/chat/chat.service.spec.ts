import type { ActionsService } from '../actions/actions.service.js';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { failureOf } from '../../../test/support/failure.js';
import { AppError } from '../../common/app-error.js';
import type { AppConfig } from '../../config/config.js';
import type { StatementRunner } from '../../database/statement.js';
import type { TransactionRunner } from '../../database/transaction.js';
import type { BotEntity } from '../bots/bot.entity.js';
import { IdentitySecretBox } from '../bots/identity-secret.js';
import type { BudgetAlertsService } from '../usage/budget-alerts.service.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import type { OwnerBillingState, UsageLedgerService } from '../usage/usage-ledger.service.js';
import type { ConversationLog } from '../conversations/conversation-log.js';
import type { BudgetDecision, ChatRepository } from './chat.repository.js';
import type { LlmPort } from './llm/llm.port.js';
import type { ChatRateLimiter } from './rate-limit/chat-rate-limiter.js';
import type { VisitorTokens } from './visitor-token.js';
import type { ChatRequestDto } from './chat.dto.js';
import { ServableBots } from './servable-bots.js';
import { ChatService, type ChatCaller, type ChunkSearch } from './chat.service.js';

/**
 * The chat engine's own rules, on fakes of its ports: who may call a bot (the API key, or the
 * page's origin against the bot's domain; the house demo bot only on the product's own site) and
 * which payment and budget states refuse a message before the model is asked (docs/product.md).
 */

const API_KEY = 'bsk_live_0123456789abcdef';

function botWith(overrides: Partial<BotEntity> = {}): BotEntity {
  return {
    id: 7,
    ownerId: 3,
    name: 'Cafe helper',
    prompt: 'You answer questions about the cafe.',
    model: 'gpt-4o',
    usageLimitDollars: 0,
    apiKey: API_KEY,
    allowedDomain: 'cafe.example',
    maxTokens: 256,
    temperature: 0.2,
    ...overrides,
  } as BotEntity;
}

interface Setup {
  bot?: BotEntity | null;
  ownerIsSystem?: boolean;
  billing?: OwnerBillingState;
  budget?: BudgetDecision;
  /** The search found nothing relevant in a bot with knowledge: the answer is flagged unanswered. */
  nothingRelevant?: boolean;
}

/** A ChatService over in-memory fakes that record what the service asked of them. */
function chatServiceWith(setup: Setup = {}) {
  const calls = {
    logged: [] as { role: string; content: string }[][],
    released: [] as string[],
    charged: 0,
    notCharged: 0,
    modelAsked: 0,
    budgetReserved: 0,
    alerts: 0,
    started: 0,
    /** The system message of each model call. */
    systems: [] as string[],
  };
  const bot = setup.bot === undefined ? botWith() : setup.bot;
  const repository = {
    findServableBot: async () => (bot ? { bot, ownerIsSystem: setup.ownerIsSystem ?? false, version: '1' } : null),
    holdIn: () => ({
      reservationId: 'reservation-1',
      read: () => ({
        current: true,
        reservationId: 'reservation-1',
        owner: { isSystem: setup.ownerIsSystem ?? false },
        hasActions: false,
        webhookEvents: [],
      }),
    }),
    countIdentityRefusal: async () => undefined,
    releaseInFlight: async (id: string) => {
      calls.released.push(id);
    },
    releaseInFlightIn: (_statement: unknown, id: string) => {
      calls.released.push(id);
    },
    // The reservation made with the lock, in the same round trip (a bot with a budget).
    runHoldingBudget: async () => {
      calls.budgetReserved += 1;
      return { row: {}, budget: setup.budget ?? { reserved: true, tier: bot?.model ?? 'gpt-4o' } };
    },
  };
  const log = {
    // No conversation is handed to a person here (test/integration/owner-replies.spec.ts covers it).
    isHandedOffIn: () => ({ read: () => false }),
    record: async (_tx: unknown, turn: { messages: { role: string; content: string }[] }) => {
      calls.logged.push(turn.messages.map(({ role, content }) => ({ role, content })));
      return { conversationId: 11, messageIds: turn.messages.map((_row, index) => 100 + index) };
    },
    recordIn: (_statement: unknown, turn: { messages: { role: string; content: string }[] }) => {
      calls.logged.push(turn.messages.map(({ role, content }) => ({ role, content })));
      return {
        answerId: {},
        read: () => ({ conversationId: 11, messageIds: turn.messages.map((_row, index) => 100 + index) }),
      };
    },
  };
  // Statements: the parts above are the fakes; running one answers an empty row.
  const statements = {
    begin: () => ({}),
    beginPipeline: () => ({}),
    run: async () => ({}),
    runPipelined: async () => ({}),
    runRetryingDeadlocks: async () => ({}),
  };
  const run = async <T>(work: (tx: never) => Promise<T>) => work({} as never);
  const transactions = { run, runRetryingDeadlocks: run };
  const ledger = {
    billingStateOf: () => setup.billing ?? { canServe: true },
    lockOwnerIn: () => ({ spend: { done: {} } }),
    chargeIn: () => ({
      read: () => {
        calls.charged += 1;
        return { usageEventId: 1, creditsCents: 0, billableCents: 0 };
      },
    }),
    recordUnchargedAnswerIn: () => ({
      read: () => {
        calls.notCharged += 1;
        return { usageEventId: 1, creditsCents: 0, billableCents: 0 };
      },
    }),
  };
  const alerts = {
    afterSpend: () => {
      calls.alerts += 1;
    },
  };
  const rateLimiter = { hit: async () => undefined };
  const visitors = { resolve: () => ({ id: 'visitor-1', token: 'token-1' }) };
  const llm: LlmPort = {
    complete: async (request, onToken) => {
      calls.modelAsked += 1;
      calls.systems.push(request.messages[0].content);
      onToken('Open at eight.');
      return { text: 'Open at eight.', usage: { promptTokens: 10, completionTokens: 4 }, upstreamModel: 'gpt-4o' };
    },
  } as LlmPort;
  const webhooks = { notify: () => undefined };
  const chunks: ChunkSearch = {
    searchForAnswer: async () => ({ passages: [], nothingRelevant: setup.nothingRelevant ?? false, sourceSites: [] }),
  };

  const service = new ChatService(
    { publicUrl: 'https://botsmith.example' } as AppConfig,
    repository as unknown as ChatRepository,
    new ServableBots(repository as unknown as ChatRepository),
    log as unknown as ConversationLog,
    transactions as unknown as TransactionRunner,
    statements as unknown as StatementRunner,
    ledger as unknown as UsageLedgerService,
    alerts as unknown as BudgetAlertsService,
    rateLimiter as unknown as ChatRateLimiter,
    visitors as unknown as VisitorTokens,
    llm,
    chunks,
    webhooks as unknown as WebhooksService,
    new IdentitySecretBox('a session secret for the unit tests only'),
    { forBot: () => Promise.resolve([]) } as unknown as ActionsService,
  );
  const ask = (caller: Partial<ChatCaller>, visitor?: ChatRequestDto['visitor']) =>
    service.answer(
      { botId: 7, prompt: 'When do you open?', ...(visitor ? { visitor } : {}) },
      { ip: '203.0.113.9', ...caller },
      {
        start: () => {
          calls.started += 1;
        },
        token: () => undefined,
        action: () => undefined,
      },
      new AbortController().signal,
    );
  return { ask, calls };
}

/** The `{error, code}` body and status of the refusal `promise` ends with. */
async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; code: string; error: string }> {
  const refusal = await failureOf(promise, AppError);
  return { status: refusal.getStatus(), ...(refusal.getResponse() as { error: string; code: string }) };
}

describe('ChatService: {{visitor.*}} in the owner prompt', () => {
  const box = new IdentitySecretBox('a session secret for the unit tests only');
  const secret = 'idsec_unit-test-secret';
  const jwt = (claims: Record<string, unknown>, key = secret) => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const signed = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
    return `${signed}.${createHmac('sha256', key).update(signed).digest('base64url')}`;
  };
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const bot = botWith({
    prompt: 'Greet {{visitor.name}} on the {{visitor.plan}} plan.',
    identitySecret: box.seal(secret, 7),
  });

  it("fills them from the verified visitor's claims; an unsigned or refused identity leaves them empty", async () => {
    const { ask, calls } = chatServiceWith({ bot });
    const origin = { origin: 'https://cafe.example' };
    // The controller passes the body's proof on as the caller's identity (withBodyProof).
    const good = jwt({ sub: 'c-1', name: 'Ana', plan: 'pro', exp });
    await ask({ ...origin, identity: { token: good } }, { token: good });
    await ask(origin, { name: 'Mallory', email: 'm@example.com' });
    const forged = jwt({ sub: 'c-1', name: 'Ana', plan: 'pro', exp }, 'idsec_guessed');
    await ask({ ...origin, identity: { token: forged } }, { token: forged, name: 'Ana' });
    await ask(origin);
    const owners = calls.systems.map((system) => system.split('\n\n')[1]);
    expect(owners).toEqual([
      'Instructions from the website owner:\nGreet Ana on the pro plan.',
      'Instructions from the website owner:\nGreet  on the  plan.',
      'Instructions from the website owner:\nGreet  on the  plan.',
      'Instructions from the website owner:\nGreet  on the  plan.',
    ]);
  });
});

describe('ChatService: who may call a bot', () => {
  it('answers a page on the bot’s domain, and refuses any other origin with DOMAIN_NOT_ALLOWED', async () => {
    const { ask } = chatServiceWith();
    expect((await ask({ origin: 'https://cafe.example' })).message).toBe('Open at eight.');
    expect(await refusalOf(ask({ origin: 'https://elsewhere.example' }))).toEqual({
      status: 403,
      code: 'DOMAIN_NOT_ALLOWED',
      error: 'This chatbot is not allowed on this website.',
    });
    expect((await refusalOf(ask({}))).code).toBe('DOMAIN_NOT_ALLOWED');
  });

  it('lets the bot’s API key skip the origin check, with or without an origin', async () => {
    const { ask } = chatServiceWith();
    expect((await ask({ authorization: `Bearer ${API_KEY}` })).message).toBe('Open at eight.');
    expect((await ask({ authorization: `bearer   ${API_KEY}  `, origin: 'https://elsewhere.example' })).message).toBe(
      'Open at eight.',
    );
  });

  it.each([
    ['another key', 'Bearer bsk_live_not-this-bots-key'],
    ['the key without the Bearer scheme', API_KEY],
    ['a Basic credential', `Basic ${API_KEY}`],
    ['two tokens', `Bearer ${API_KEY} extra`],
    ['a header longer than any key', `Bearer ${API_KEY}${'x'.repeat(10_000)}`],
  ])('refuses %s with INVALID_API_KEY, even from the bot’s own domain', async (_name, authorization) => {
    const { ask, calls } = chatServiceWith();
    expect(await refusalOf(ask({ authorization, origin: 'https://cafe.example' }))).toEqual({
      status: 401,
      code: 'INVALID_API_KEY',
      error: 'The API key does not belong to this bot.',
    });
    expect(calls.modelAsked).toBe(0);
    expect(calls.logged).toEqual([]);
  });

  it('answers the house demo bot (no domain of its own) only on the product’s own site', async () => {
    const { ask } = chatServiceWith({ bot: botWith({ allowedDomain: '' }), ownerIsSystem: true });
    expect((await ask({ origin: 'https://botsmith.example' })).message).toBe('Open at eight.');
    expect((await refusalOf(ask({ origin: 'https://copycat.example' }))).code).toBe('DOMAIN_NOT_ALLOWED');
    expect((await refusalOf(ask({}))).code).toBe('DOMAIN_NOT_ALLOWED');
  });

  it('answers an owner’s bot without a domain on any site: only the house bot is kept home', async () => {
    const { ask } = chatServiceWith({ bot: botWith({ allowedDomain: '' }), ownerIsSystem: false });
    expect((await ask({ origin: 'https://copycat.example' })).message).toBe('Open at eight.');
  });

  it('refuses an unknown bot with BOT_NOT_FOUND before any caller check', async () => {
    const { ask } = chatServiceWith({ bot: null });
    expect(await refusalOf(ask({ authorization: 'Bearer wrong' }))).toEqual({
      status: 404,
      code: 'BOT_NOT_FOUND',
      error: 'This chatbot does not exist.',
    });
  });
});

describe('ChatService: payment and budget refusals', () => {
  const fromDomain = { origin: 'https://cafe.example' };
  const unavailable = 'This chatbot is not available right now. Please try again later.';

  it.each(['PAYMENT_FAILED', 'SETUP_REQUIRED', 'OUT_OF_CREDITS'] as const)(
    'refuses with 402 %s when the owner cannot be served, logs what the visitor was told, charges nothing',
    async (code) => {
      const { ask, calls } = chatServiceWith({ billing: { canServe: false, code } });
      expect(await refusalOf(ask(fromDomain))).toEqual({ status: 402, code, error: unavailable });
      expect(calls.logged).toEqual([
        [
          { role: 'user', content: 'When do you open?' },
          { role: 'error', content: unavailable },
        ],
      ]);
      expect(calls.modelAsked).toBe(0);
      expect(calls.charged).toBe(0);
      expect(calls.released).toEqual(['reservation-1']);
    },
  );

  it('refuses with PAYMENT_FAILED when the billing state gives no code', async () => {
    const { ask } = chatServiceWith({ billing: { canServe: false } });
    expect((await refusalOf(ask(fromDomain))).code).toBe('PAYMENT_FAILED');
  });

  it('refuses with 402 BOT_BUDGET_REACHED when the monthly budget has no room, and tells the owner', async () => {
    const { ask, calls } = chatServiceWith({
      bot: botWith({ usageLimitDollars: 1 }),
      budget: { reserved: false, reason: 'BUDGET', limitCents: 100 },
    });
    const said = 'This chatbot has reached its monthly limit. Please try again later.';
    expect(await refusalOf(ask(fromDomain))).toEqual({ status: 402, code: 'BOT_BUDGET_REACHED', error: said });
    expect(calls.logged).toEqual([
      [
        { role: 'user', content: 'When do you open?' },
        { role: 'error', content: said },
      ],
    ]);
    expect(calls.alerts).toBe(1);
    expect(calls.modelAsked).toBe(0);
    expect(calls.charged).toBe(0);
    expect(calls.released).toEqual(['reservation-1']);
  });

  it('answers BOT_NOT_FOUND when the bot went away during the budget check, and logs nothing', async () => {
    const { ask, calls } = chatServiceWith({
      bot: botWith({ usageLimitDollars: 1 }),
      budget: { reserved: false, reason: 'GONE', limitCents: 0 },
    });
    expect((await refusalOf(ask(fromDomain))).code).toBe('BOT_NOT_FOUND');
    expect(calls.logged).toEqual([]);
    expect(calls.charged).toBe(0);
  });

  it('skips the budget check for a bot without a budget, and charges the tier the budget reserved', async () => {
    const unlimited = chatServiceWith();
    expect((await unlimited.ask(fromDomain)).costCents).toBe(5);
    expect(unlimited.calls.budgetReserved).toBe(0);

    const limited = chatServiceWith({
      bot: botWith({ usageLimitDollars: 5, model: 'gpt-4o' }),
      budget: { reserved: true, tier: 'gpt-3.5-turbo' },
    });
    expect((await limited.ask(fromDomain)).costCents).toBe(3);
    expect(limited.calls.budgetReserved).toBe(1);
    expect(limited.calls.charged).toBe(1);
  });
});

describe('ChatService: the fair meter', () => {
  const fromDomain = { origin: 'https://cafe.example' };

  it('records an unanswered answer without charging it: 0 cents, no charge, no budget alert', async () => {
    const { ask, calls } = chatServiceWith({ nothingRelevant: true });
    const answer = await ask(fromDomain);
    expect(answer).toMatchObject({ costCents: 0, unanswered: true });
    expect(calls).toMatchObject({ charged: 0, notCharged: 1, alerts: 0 });
  });

  it('charges an answered one at its tier, once', async () => {
    const { ask, calls } = chatServiceWith();
    expect((await ask(fromDomain)).costCents).toBe(5);
    expect(calls).toMatchObject({ charged: 1, notCharged: 0, alerts: 1 });
  });
});
