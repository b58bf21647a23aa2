import http from 'node:http';
import https from 'node:https';
import {
  ACTION_LIMITS,
  ACTION_SECRET_MASK,
  type ActionMethod,
  type ActionParametersSchema,
  type ActionRequestView,
  type ActionRunResult,
  type ActionVisitorMatch,
} from '@botsmith/contract';
import {
  AddressNotAllowedError,
  createGuardedAgents,
  type GuardedAgents,
  type Connector,
  type Resolver,
} from '../../common/outbound/guarded-agent.js';
import { VISITOR_KEY } from './action-definition.js';
import { filterAnswer, resolvePointer } from './json-pointer.js';

/** An action as the runner needs it: its header values opened. */
export interface RunnableAction {
  name: string;
  parameters: ActionParametersSchema;
  method: ActionMethod;
  url: string;
  headers: Array<{ name: string; value: string }>;
  visitorFields: string[];
  requiresVerifiedVisitor: boolean;
  timeoutMs: number;
  answerFields: string[];
  /** The owner check: the answer must belong to the visitor; null: none. */
  visitorMatch: ActionVisitorMatch | null;
}

/** Who the action runs for. `verified`: the owner's server vouched for them (docs/product.md#verified-visitors). */
export interface ActionVisitor {
  verified: boolean;
  sub?: string;
  email?: string;
  attributes?: Record<string, string | number | boolean>;
}

export type ParameterValue = string | number | boolean;

export interface ActionRunnerOptions {
  allowPrivate: boolean;
  /** Tests: a stub resolver and connect hook (common/outbound/guarded-agent.ts). */
  resolve?: Resolver;
  connect?: Connector;
  userAgent?: string;
}

/** The request to make: `headers` holds the real values; `view` is what may be shown. */
export interface BuiltRequest {
  method: ActionMethod;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  view: ActionRequestView;
}

export const NEEDS_VERIFIED_VISITOR = 'This action needs a signed-in (verified) visitor.';
/**
 * The API answered, but not about this visitor (the owner check): nothing of the answer is used.
 * Not a failure of the API: the chat tells the visitor it found nothing for their account.
 */
export const NOT_THE_VISITORS = 'The answer does not belong to this visitor.';
/** Said alike of a name that does not resolve and of one that resolves to a refused address. */
export const UNREACHABLE = 'Could not reach the API: the address could not be reached.';
const NAME_LOOKUP_FAILURES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);
const ERROR_MAX_CHARS = 300;

/**
 * Checks parameters against the action's schema: every one known, of its type, within its length
 * or list, the required ones present. Returns the values or the sentence saying what is wrong;
 * nothing is sent for parameters that fail (the model is told, the API never sees them).
 */
export function validateParameters(
  schema: ActionParametersSchema,
  raw: unknown,
): { values: Record<string, ParameterValue> } | { error: string } {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return { error: 'The parameters must be an object.' };
  // No prototype: a parameter named "constructor" or "toString" is only ever the visitor's value.
  const values = Object.create(null) as Record<string, ParameterValue>;
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const property = Object.prototype.hasOwnProperty.call(schema.properties, name)
      ? schema.properties[name]
      : undefined;
    if (!property) return { error: `Unknown parameter "${name.slice(0, 64)}".` };
    if (value === undefined || value === null) continue;
    switch (property.type) {
      case 'string': {
        if (typeof value !== 'string') return { error: `"${name}" must be a string.` };
        const max = property.maxLength ?? ACTION_LIMITS.stringMaxChars;
        if (value.length > max) return { error: `"${name}" can be at most ${max} characters.` };
        if (property.enum && !property.enum.includes(value)) {
          return { error: `"${name}" must be one of: ${property.enum.join(', ')}.` };
        }
        break;
      }
      case 'integer':
        if (typeof value !== 'number' || !Number.isSafeInteger(value))
          return { error: `"${name}" must be a whole number.` };
        break;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value)) return { error: `"${name}" must be a number.` };
        break;
      case 'boolean':
        if (typeof value !== 'boolean') return { error: `"${name}" must be true or false.` };
        break;
    }
    values[name] = value;
  }
  for (const name of schema.required ?? []) {
    if (!Object.prototype.hasOwnProperty.call(values, name)) return { error: `"${name}" is required.` };
  }
  return { values };
}

/**
 * The request for validated `values`: placeholders in the path take their parameter, URL-encoded
 * (a value that would be a "." or ".." segment is refused: the URL parser would climb the path);
 * the other parameters go to the query (GET) or a JSON body (POST), with the visitor's fields under
 * "visitor" (`visitor.sub=` in a query; a `visitor` object in a body).
 */
export function buildRequest(
  action: RunnableAction,
  values: Record<string, ParameterValue>,
  visitor: ActionVisitor | null,
  userAgent = 'Botsmith-Actions/1.0',
): BuiltRequest | { error: string } {
  const inPath = new Set<string>();
  let pathError: string | null = null;
  const filled = action.url.replace(/\{([^{}]*)\}/g, (_match, name: string) => {
    inPath.add(name);
    const value = values[name];
    const text = value === undefined ? '' : String(value);
    if (text === '' || text === '.' || text === '..') pathError ??= `"${name}" cannot be empty, "." or "..".`;
    return encodeURIComponent(text);
  });
  if (pathError) return { error: pathError };
  const url = new URL(filled);
  const rest = Object.entries(values).filter(([name]) => !inPath.has(name));
  const sent: Record<string, ParameterValue> = {};
  for (const field of action.visitorFields) {
    const value = field === 'sub' ? visitor?.sub : field === 'email' ? visitor?.email : visitor?.attributes?.[field];
    if (value !== undefined) sent[field] = value;
  }
  const headers: Record<string, string> = { 'User-Agent': userAgent, Accept: 'application/json' };
  const shownHeaders: Record<string, string> = { ...headers };
  let body: string | null = null;
  if (action.method === 'GET') {
    for (const [name, value] of rest) url.searchParams.append(name, String(value));
    for (const [field, value] of Object.entries(sent))
      url.searchParams.append(`${VISITOR_KEY}.${field}`, String(value));
  } else {
    const json: Record<string, unknown> = Object.fromEntries(rest);
    if (Object.keys(sent).length > 0) json[VISITOR_KEY] = sent;
    body = JSON.stringify(json);
    headers['Content-Type'] = shownHeaders['Content-Type'] = 'application/json';
  }
  for (const header of action.headers) {
    headers[header.name] = header.value;
    shownHeaders[header.name] = ACTION_SECRET_MASK;
  }
  return {
    method: action.method,
    url: url.toString(),
    headers,
    body,
    view: { method: action.method, url: url.toString(), headers: shownHeaders, body },
  };
}

/**
 * Runs actions (docs/product.md#actions): validates the parameters, builds the request, and makes
 * it through the guarded agents exactly as webhooks do: the name is resolved and every address
 * checked (private, loopback and metadata refused unless `allowPrivate`; metadata always), the
 * socket connects to the address checked, redirects are not followed. The answer is read up to
 * ACTION_LIMITS.responseMaxBytes, parsed as JSON and filtered to the action's answer fields.
 * Never throws: every failure is a result with an `error` sentence.
 */
export class ActionRunner {
  private readonly agents: GuardedAgents;

  constructor(private readonly options: ActionRunnerOptions) {
    const guard = {
      allowPrivate: options.allowPrivate,
      resolve: options.resolve,
      connect: options.connect,
      connectTimeoutMs: ACTION_LIMITS.timeoutMsMax,
    };
    this.agents = createGuardedAgents(guard);
  }

  async run(action: RunnableAction, parameters: unknown, visitor: ActionVisitor | null): Promise<ActionRunResult> {
    const started = performance.now();
    const refused = (error: string): ActionRunResult => ({
      request: null,
      status: null,
      durationMs: 0,
      answer: null,
      truncated: false,
      error,
    });
    if (action.requiresVerifiedVisitor && !visitor?.verified) return refused(NEEDS_VERIFIED_VISITOR);
    const checked = validateParameters(action.parameters, parameters);
    if ('error' in checked) return refused(checked.error);
    const built = buildRequest(action, checked.values, visitor, this.options.userAgent);
    if ('error' in built) return refused(built.error);
    const outcome = await this.send(built, action.timeoutMs);
    const durationMs = Math.round(performance.now() - started);
    const base = { request: built.view, status: outcome.status, durationMs };
    if ('error' in outcome) return { ...base, answer: null, truncated: false, error: outcome.error };
    // Checked on the whole answer before any filtering, so no field of another person's record
    // (not even one the model may see) leaves the runner.
    if (action.visitorMatch && !belongsTo(outcome.json, action.visitorMatch, visitor)) {
      return { ...base, answer: null, truncated: false, error: NOT_THE_VISITORS };
    }
    const filtered = filterAnswer(outcome.json, action.answerFields);
    return { ...base, answer: JSON.stringify(filtered.answer), truncated: filtered.truncated, error: null };
  }

  private send(
    built: BuiltRequest,
    timeoutMs: number,
  ): Promise<{ status: number; json: unknown } | { status: number | null; error: string }> {
    const target = new URL(built.url);
    const secure = target.protocol === 'https:';
    if (!secure && target.protocol !== 'http:') return Promise.resolve({ status: null, error: 'Unsupported address.' });
    const headers = { ...built.headers };
    if (built.body !== null) headers['Content-Length'] = String(Buffer.byteLength(built.body));
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: { status: number; json: unknown } | { status: number | null; error: string }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        resolve(result);
      };
      const request = (secure ? https : http).request(target, {
        method: built.method,
        headers,
        agent: secure ? this.agents.https : this.agents.http,
      });
      const timer = setTimeout(() => {
        finish({ status: null, error: `No answer within ${timeoutMs / 1000} s.` });
      }, timeoutMs);
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          finish({ status, error: `The API answered with a redirect (HTTP ${status}), which is not followed.` });
          return;
        }
        if (status < 200 || status >= 300) {
          finish({ status, error: `The API answered HTTP ${status}.` });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > ACTION_LIMITS.responseMaxBytes) {
            finish({ status, error: `The answer is larger than ${ACTION_LIMITS.responseMaxBytes / 1024} KB.` });
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          try {
            finish({ status, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
          } catch {
            finish({ status, error: 'The answer is not JSON.' });
          }
        });
        response.on('error', (error: Error) => finish({ status, error: describe(error) }));
      });
      request.on('error', (error: Error) => finish({ status: null, error: describe(error) }));
      request.end(built.body ?? undefined);
    });
  }

  destroy(): void {
    this.agents.destroy();
  }
}

/**
 * Whether the value `match.pointer` names in the answer is the verified visitor's e-mail (trimmed,
 * any case: stores keep what the customer typed) or `sub` (exactly). A missing value, a value
 * that is not text or a number, or a visitor without that field never matches.
 */
export function belongsTo(answer: unknown, match: ActionVisitorMatch, visitor: ActionVisitor | null): boolean {
  if (!visitor?.verified) return false;
  const found = resolvePointer(answer, match.pointer);
  const value = typeof found === 'string' ? found : typeof found === 'number' ? String(found) : null;
  if (value === null) return false;
  if (match.field === 'email') {
    const email = visitor.email?.trim().toLowerCase();
    return email !== undefined && email !== '' && value.trim().toLowerCase() === email;
  }
  return visitor.sub !== undefined && visitor.sub !== '' && value === visitor.sub;
}

/**
 * The error sentence. As for webhooks, a name that resolves to a refused address reads exactly
 * like a name that does not resolve, so an owner cannot probe which internal names exist.
 */
function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  let text: string;
  if (error instanceof AddressNotAllowedError) {
    text = error.resolvedFromName ? UNREACHABLE : `Refused: the address is not allowed (${error.reason}).`;
  } else if (code !== undefined && NAME_LOOKUP_FAILURES.has(code)) {
    text = UNREACHABLE;
  } else {
    text = `Could not reach the API: ${error.message}`;
  }
  return text.slice(0, ERROR_MAX_CHARS);
}
