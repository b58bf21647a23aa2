import {
  NEEDS_VERIFIED_VISITOR,
  NOT_THE_VISITORS,
  type ActionVisitor,
  type RunnableAction,
} from '../actions/action-runner.js';
import type { ActionRow } from '../actions/action.js';
import type { ActionsService } from '../actions/actions.service.js';
import type { LoggedActionCall } from '../conversations/conversation-log.js';
import type { LlmToolCall, LlmToolResult, LlmTools } from './llm/llm.port.js';
import type { VerifiedVisitor } from './visitor-identity.js';

/** Calls of the bot's actions one message may make, whatever the model asks (docs/product.md#actions). */
export const ACTION_CALLS_PER_MESSAGE = 3;

/** What the visitor is told (through the model) when an action needs them signed in. */
export const SIGN_IN_NEEDED =
  'I can look that up for you once you are signed in. Please sign in on this website and ask again.';

/** What the visitor is told (through the model) when the owner's API failed or could not be reached. */
export function unreachableSentence(subject: string): string {
  return `I could not reach the ${subject} system just now. Please try again in a little while.`;
}

/**
 * What the visitor is told (through the model) when the API's answer belongs to someone else (the
 * action's owner check): the same as for a record that does not exist, so a visitor guessing
 * numbers learns nothing, not even that the number is taken.
 */
export function notFoundForVisitorSentence(subject: string): string {
  return `I could not find that ${subject} for your account.`;
}

/** Words of an action's name that say what it does to its subject, not what the subject is. */
const VERB_WORDS = new Set([
  'get',
  'fetch',
  'find',
  'lookup',
  'look',
  'up',
  'check',
  'read',
  'list',
  'search',
  'create',
  'open',
  'make',
  'book',
  'schedule',
  'send',
  'submit',
  'status',
  'state',
  'info',
  'details',
  'by',
  'for',
]);

/**
 * The action's name made readable as the thing it checks: 'order_status' → 'order',
 * 'create_support_ticket' → 'support ticket', 'book_meeting' → 'meeting'. The widget shows it in
 * the visitor's language ("Checking your order…"); a name of verbs only is shown whole.
 */
export function actionSubject(name: string): string {
  const words = name
    .toLowerCase()
    .split(/[_\s-]+/)
    .filter(Boolean);
  const subject = words.filter((word) => !VERB_WORDS.has(word));
  return (subject.length > 0 ? subject : words).join(' ');
}

export interface TurnActionsOptions {
  rows: readonly ActionRow[];
  actions: Pick<ActionsService, 'runnable' | 'runner'>;
  /** The verified visitor, when the owner's server vouched for them; else anonymous. */
  verified: VerifiedVisitor | undefined;
  /** Told when an action starts (the widget's "Checking your order…" line). */
  onStart(subject: string): void;
  now?: () => Date;
}

/**
 * The bot's actions for one message: what the model is offered, and each call it makes, checked
 * and run (the runner validates the parameters against the schema, refuses an unverified visitor
 * when the action needs a verified one, and calls the owner's API through the SSRF guard). Never
 * throws: a refusal or failure goes back to the model as a sentence it may tell the visitor.
 * Parameters refused by the schema are explained to the model once per action; a second invalid
 * call of it is told to stop (they never reach the owner's API either way). Every call is kept (`calls`) to be logged with the answer.
 */
export class TurnActions {
  readonly calls: LoggedActionCall[] = [];
  private readonly toldInvalid = new Set<string>();
  private readonly runnable = new Map<string, RunnableAction | null>();

  constructor(private readonly options: TurnActionsOptions) {}

  /** Whether a call gave the model an answer from the owner's API. */
  get answeredFromAction(): boolean {
    return this.calls.some((call) => call.error === null);
  }

  /** The calls that reached the owner's API (or tried to) and failed: `action.failed` events. */
  get failedCalls(): LoggedActionCall[] {
    return this.calls.filter((call) => call.failed === true);
  }

  tools(): LlmTools {
    return {
      list: this.options.rows.map((row) => ({
        name: row.name,
        description: row.description,
        parameters: row.parameters as unknown as Record<string, unknown>,
      })),
      maxCalls: ACTION_CALLS_PER_MESSAGE,
      call: (call) => this.call(call),
    };
  }

  private async call(call: LlmToolCall): Promise<LlmToolResult> {
    const now = this.options.now ?? (() => new Date());
    const row = this.options.rows.find((r) => r.name === call.name);
    if (!row) return { ok: false, error: `There is no action named "${call.name.slice(0, 64)}".` };
    const subject = actionSubject(row.name);

    let parameters: unknown;
    try {
      parameters = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    } catch {
      parameters = undefined;
    }
    const logged = (fields: Partial<LoggedActionCall>): LoggedActionCall => {
      const entry: LoggedActionCall = {
        actionId: row.id,
        actionName: row.name,
        parameters:
          parameters !== null && typeof parameters === 'object' && !Array.isArray(parameters)
            ? (parameters as Record<string, unknown>)
            : { raw: call.arguments.slice(0, 1000) },
        status: null,
        durationMs: 0,
        answer: null,
        error: null,
        failed: false,
        createdAt: now(),
        ...fields,
      };
      this.calls.push(entry);
      return entry;
    };

    if (parameters === undefined) return this.invalid(row, logged, 'The parameters are not valid JSON.');

    let runnable = this.runnable.get(row.name);
    if (runnable === undefined) {
      runnable = this.options.actions.runnable(row);
      this.runnable.set(row.name, runnable);
    }
    if (!runnable) {
      // A header's value no longer opens (the encryption key changed): the owner must enter it again.
      logged({ error: "A header's value could not be read.", failed: true });
      return { ok: false, error: unreachableSentence(subject) };
    }

    if (!(runnable.requiresVerifiedVisitor && !this.options.verified)) this.options.onStart(subject);
    const result = await this.options.actions.runner.run(runnable, parameters, visitorFor(this.options.verified));
    if (result.request === null) {
      // Refused before any request: the visitor is not verified, or the parameters broke the schema.
      if (result.error === NEEDS_VERIFIED_VISITOR) {
        logged({ error: NEEDS_VERIFIED_VISITOR });
        return { ok: false, error: SIGN_IN_NEEDED };
      }
      return this.invalid(row, logged, result.error ?? 'The parameters were refused.');
    }
    // Another person's record is not a failure of the owner's API: logged, but no action.failed.
    const notTheirs = result.error === NOT_THE_VISITORS;
    const entry = logged({
      status: result.status,
      durationMs: result.durationMs,
      answer: result.answer,
      error: result.error,
      failed: result.error !== null && !notTheirs,
    });
    if (notTheirs) return { ok: false, error: notFoundForVisitorSentence(subject) };
    if (result.error !== null || result.answer === null) return { ok: false, error: unreachableSentence(subject) };
    return { ok: true, data: JSON.parse(entry.answer as string) as unknown };
  }

  private invalid(
    row: ActionRow,
    logged: (fields: Partial<LoggedActionCall>) => LoggedActionCall,
    reason: string,
  ): LlmToolResult {
    logged({ error: `Invalid parameters: ${reason}` });
    // The model is told what was wrong once per action; a second invalid call ends its tries.
    if (this.toldInvalid.has(row.name)) {
      return { ok: false, error: `Do not call ${row.name} again for this message; answer without it.` };
    }
    this.toldInvalid.add(row.name);
    return { ok: false, error: `${reason} Check the parameters against the action's schema.` };
  }
}

function visitorFor(verified: VerifiedVisitor | undefined): ActionVisitor {
  if (!verified) return { verified: false };
  return { verified: true, sub: verified.sub, email: verified.email, attributes: verified.attributes };
}
