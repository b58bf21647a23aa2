import {
  ACTION_LIMITS,
  ACTION_SECRET_MASK,
  ACTION_STATS_DAYS,
  type ActionStatsResponse,
  type ActionHeaderInput,
  type ActionRunResult,
  type ActionTestRequest,
  type BotAction,
  type SaveActionRequest,
} from '@botsmith/contract';
import { HttpStatus, Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { sessionSecret } from '../../config/session-secret.js';
import { BotsService } from '../bots/bots.service.js';
import { SecretBox } from '../bots/identity-secret.js';
import type { ActionFields, ActionRow, StoredHeader } from './action.js';
import {
  ActionDefinitionError,
  checkAnswerFields,
  checkDescription,
  checkHeaderName,
  checkHeaderValue,
  checkMethod,
  checkName,
  checkParametersSchema,
  checkTimeout,
  checkUrlTemplate,
  checkVisitorFields,
  checkVisitorMatch,
} from './action-definition.js';
import { ActionRunner, type ActionVisitor, type RunnableAction } from './action-runner.js';
import { ActionsRepository } from './actions.repository.js';

const NOT_FOUND = 'Action not found.';
const VISITOR_TEXT_MAX_CHARS = 254;
const VISITOR_ATTRIBUTES_MAX = 20;

/**
 * A bot's actions (docs/product.md#actions): stored with their header values sealed, shown back
 * with those values masked, and run once on the owner's request (`test`). The chat will run them
 * through the same ActionRunner (`runner`).
 */
@Injectable()
export class ActionsService implements OnApplicationShutdown {
  readonly runner: ActionRunner;
  private box?: SecretBox;
  /** Test runs per owner in the current minute (each is a request to the owner's API). */
  private readonly testCounts = new Map<number, { windowStart: number; count: number }>();

  constructor(
    private readonly repository: ActionsRepository,
    private readonly bots: BotsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.runner = new ActionRunner({
      allowPrivate: config.actions.allowPrivate,
      userAgent: `Botsmith-Actions/1.0 (+${config.publicUrl})`,
    });
  }

  onApplicationShutdown(): void {
    this.runner.destroy();
  }

  async list(ownerId: number, botId: number): Promise<BotAction[]> {
    await this.bots.assertOwned(ownerId, botId);
    return (await this.repository.list(botId)).map(view);
  }

  /** Calls, failures and p95 time of each action over the last ACTION_STATS_DAYS days. */
  async stats(ownerId: number, botId: number): Promise<ActionStatsResponse> {
    await this.bots.assertOwned(ownerId, botId);
    const since = new Date(Date.now() - ACTION_STATS_DAYS * 24 * 60 * 60 * 1000);
    return { days: ACTION_STATS_DAYS, stats: await this.repository.stats(botId, since) };
  }

  async create(ownerId: number, botId: number, request: SaveActionRequest): Promise<BotAction> {
    const definition = this.definition(request);
    const row = await this.bots.withLockedBot(ownerId, botId, async (tx) => {
      if ((await this.repository.count(tx, botId)) >= ACTION_LIMITS.perBot) {
        throw AppError.conflict(
          `A bot can have at most ${ACTION_LIMITS.perBot} actions. Delete one to add another.`,
          'ACTION_LIMIT_REACHED',
        );
      }
      if (await this.repository.nameTaken(tx, botId, definition.name, null)) throw nameTaken(definition.name);
      const headers = this.sealHeaders(botId, request.headers, []);
      return this.repository.insert(tx, botId, { ...definition, headers });
    });
    return view(row);
  }

  /** Replaces the action; a header given without a value keeps the value stored under its name. */
  async update(ownerId: number, botId: number, id: number, request: SaveActionRequest): Promise<BotAction> {
    const definition = this.definition(request);
    const row = await this.bots.withLockedBot(ownerId, botId, async (tx) => {
      const current = await this.repository.find(botId, id, tx);
      if (!current) throw AppError.notFound(NOT_FOUND, 'ACTION_NOT_FOUND');
      if (await this.repository.nameTaken(tx, botId, definition.name, id)) throw nameTaken(definition.name);
      const headers = this.sealHeaders(botId, request.headers, current.headers);
      return (await this.repository.update(tx, botId, id, { ...definition, headers }))!;
    });
    return view(row);
  }

  async delete(ownerId: number, botId: number, id: number): Promise<void> {
    await this.bots.assertOwned(ownerId, botId);
    if (!(await this.repository.delete(botId, id))) throw AppError.notFound(NOT_FOUND, 'ACTION_NOT_FOUND');
  }

  /** The bot's actions, for the chat engine (no owner check: the chat found the bot itself). */
  forBot(botId: number): Promise<ActionRow[]> {
    return this.repository.list(botId);
  }

  /** Runs the action once for the owner, with the visitor they describe (taken as verified). */
  async test(ownerId: number, botId: number, id: number, request: ActionTestRequest): Promise<ActionRunResult> {
    await this.bots.assertOwned(ownerId, botId);
    const row = await this.repository.find(botId, id);
    if (!row) throw AppError.notFound(NOT_FOUND, 'ACTION_NOT_FOUND');
    const visitor = testVisitor(request.visitor);
    this.countTest(ownerId);
    const runnable = this.runnable(row);
    if (!runnable) {
      return {
        request: null,
        status: null,
        durationMs: 0,
        answer: null,
        truncated: false,
        error: "A header's value could not be read (the encryption key changed). Enter the header's value again.",
      };
    }
    return this.runner.run(runnable, request.parameters, visitor);
  }

  /** The action with its header values opened; null when one does not open (another key). */
  runnable(row: ActionRow): RunnableAction | null {
    const headers: RunnableAction['headers'] = [];
    for (const header of row.headers) {
      const value = this.secretBox().open(header.sealed, boundTo(row.botId, header.name));
      if (value === null) return null;
      headers.push({ name: header.name, value });
    }
    return {
      name: row.name,
      parameters: row.parameters,
      method: row.method,
      url: row.url,
      headers,
      visitorFields: row.visitorFields,
      requiresVerifiedVisitor: row.requiresVerifiedVisitor,
      timeoutMs: row.timeoutMs,
      answerFields: row.answerFields,
      visitorMatch: row.visitorMatch,
    };
  }

  private definition(request: SaveActionRequest): Omit<ActionFields, 'headers'> {
    try {
      const parameters = checkParametersSchema(request.parameters);
      const requiresVerifiedVisitor = request.requiresVerifiedVisitor ?? true;
      return {
        name: checkName(request.name),
        description: checkDescription(request.description),
        parameters,
        method: checkMethod(request.method),
        url: checkUrlTemplate(request.url, parameters, this.config.actions.allowPrivate),
        visitorFields: checkVisitorFields(request.visitorFields),
        requiresVerifiedVisitor,
        timeoutMs: checkTimeout(request.timeoutMs),
        answerFields: checkAnswerFields(request.answerFields),
        visitorMatch: checkVisitorMatch(request.visitorMatch, requiresVerifiedVisitor),
      };
    } catch (error) {
      throw invalid(error);
    }
  }

  private sealHeaders(botId: number, given: ActionHeaderInput[] | undefined, current: StoredHeader[]): StoredHeader[] {
    const sealed: StoredHeader[] = [];
    const seen = new Set<string>();
    try {
      for (const entry of given ?? []) {
        if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
          throw new ActionDefinitionError('Each header is an object {name, value}.');
        }
        const name = checkHeaderName(entry.name);
        const key = name.toLowerCase();
        if (seen.has(key)) throw new ActionDefinitionError(`The header "${name}" is given twice.`);
        seen.add(key);
        const value: unknown = entry.value;
        if (value === undefined || value === null || value === '' || value === ACTION_SECRET_MASK) {
          const kept = current.find((header) => header.name.toLowerCase() === key);
          if (!kept) throw new ActionDefinitionError(`Enter the value of the header "${name}".`);
          // Same name, same bot: the sealed value opens under the new spelling of the name too.
          sealed.push({ name, sealed: kept.sealed });
          continue;
        }
        if (typeof value !== 'string') throw new ActionDefinitionError(`The value of "${name}" must be text.`);
        sealed.push({ name, sealed: this.secretBox().seal(checkHeaderValue(name, value), boundTo(botId, name)) });
      }
    } catch (error) {
      throw invalid(error);
    }
    return sealed;
  }

  private secretBox(): SecretBox {
    this.box ??= new SecretBox(this.config.actions.encryptionKey ?? sessionSecret(this.config), 'action-headers');
    return this.box;
  }

  private countTest(ownerId: number, nowMs: number = Date.now()): void {
    const entry = this.testCounts.get(ownerId);
    if (!entry || nowMs - entry.windowStart >= 60_000) {
      this.testCounts.set(ownerId, { windowStart: nowMs, count: 1 });
      return;
    }
    if (entry.count >= ACTION_LIMITS.testsPerMinute) {
      const retryAfter = Math.max(1, Math.ceil((entry.windowStart + 60_000 - nowMs) / 1000));
      throw new AppError(HttpStatus.TOO_MANY_REQUESTS, 'RATE_LIMITED', 'Too many test runs. Please wait a minute.', {
        'Retry-After': String(retryAfter),
      });
    }
    entry.count += 1;
  }
}

/** A sealed header value opens only for its bot and header name. */
function boundTo(botId: number, headerName: string): string {
  return `action-header:${botId}:${headerName.toLowerCase()}`;
}

function nameTaken(name: string): AppError {
  return AppError.conflict(`This bot already has an action named ${name}.`, 'ACTION_NAME_TAKEN');
}

function invalid(error: unknown): unknown {
  return error instanceof ActionDefinitionError ? AppError.badRequest(error.message, 'ACTION_INVALID') : error;
}

/** What a response shows of an action: every header value masked. */
export function view(row: ActionRow): BotAction {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    parameters: row.parameters,
    method: row.method,
    url: row.url,
    headers: row.headers.map((header) => ({ name: header.name, value: ACTION_SECRET_MASK })),
    visitorFields: row.visitorFields,
    requiresVerifiedVisitor: row.requiresVerifiedVisitor,
    timeoutMs: row.timeoutMs,
    answerFields: row.answerFields,
    visitorMatch: row.visitorMatch,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function testVisitor(raw: unknown): ActionVisitor {
  const refuse = (message: string): AppError => AppError.badRequest(message, 'ACTION_INVALID');
  if (raw === undefined || raw === null) return { verified: true, attributes: {} };
  if (typeof raw !== 'object' || Array.isArray(raw)) throw refuse('"visitor" must be an object.');
  const given = raw as Record<string, unknown>;
  const extra = Object.keys(given).find((key) => !['sub', 'email', 'name', 'attributes'].includes(key));
  if (extra !== undefined)
    throw refuse(`"visitor.${extra.slice(0, 64)}" is not supported (sub, email, name, attributes).`);
  const visitor: ActionVisitor = { verified: true, attributes: {} };
  for (const key of ['sub', 'email'] as const) {
    const value = given[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > VISITOR_TEXT_MAX_CHARS) {
      throw refuse(`"visitor.${key}" must be text of at most ${VISITOR_TEXT_MAX_CHARS} characters.`);
    }
    visitor[key] = value;
  }
  if (given.name !== undefined && (typeof given.name !== 'string' || given.name.length > VISITOR_TEXT_MAX_CHARS)) {
    throw refuse(`"visitor.name" must be text of at most ${VISITOR_TEXT_MAX_CHARS} characters.`);
  }
  if (given.attributes !== undefined) {
    const attributes = given.attributes;
    if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) {
      throw refuse('"visitor.attributes" must be an object.');
    }
    const entries = Object.entries(attributes);
    if (entries.length > VISITOR_ATTRIBUTES_MAX) {
      throw refuse(`"visitor.attributes" can hold at most ${VISITOR_ATTRIBUTES_MAX} values.`);
    }
    for (const [key, value] of entries) {
      const scalar =
        (typeof value === 'string' && value.length <= VISITOR_TEXT_MAX_CHARS) ||
        typeof value === 'boolean' ||
        (typeof value === 'number' && Number.isFinite(value));
      if (!scalar) throw refuse('Each visitor attribute is a short text, a number or true/false.');
      visitor.attributes![key] = value;
    }
  }
  return visitor;
}
