/**
 * Actions (docs/product.md#actions): HTTP calls a bot may make to its owner's API for a visitor
 * ("Look up the status of an order by its number"), each described for the model by a name, a
 * description and a small JSON Schema of its parameters.
 */

export const ACTION_LIMITS = {
  /** Actions per bot. */
  perBot: 10,
  nameMaxChars: 64,
  descriptionMaxChars: 1000,
  urlMaxChars: 2048,
  /** Parameters per action. */
  parametersMax: 20,
  parameterDescriptionMaxChars: 300,
  /** The largest `maxLength` a string parameter may declare; also a string's length when none is declared. */
  stringMaxChars: 1000,
  enumValuesMax: 50,
  enumValueMaxChars: 100,
  headersMax: 10,
  headerNameMaxChars: 100,
  headerValueMaxChars: 4000,
  /** Visitor fields an action may send (sub, email, attribute names). */
  visitorFieldsMax: 22,
  /** Fields of the answer the model may see. */
  answerFieldsMax: 20,
  pointerMaxChars: 300,
  timeoutMsDefault: 8000,
  timeoutMsMin: 1000,
  timeoutMsMax: 15000,
  /** The filtered answer, as JSON, in bytes: what reaches the model at most. */
  answerMaxBytes: 4096,
  /** The API's answer is not read past this many bytes. */
  responseMaxBytes: 256 * 1024,
  /** Test runs per owner per minute (each one is a request to the owner's API). */
  testsPerMinute: 10,
} as const;

export const ACTION_METHODS = ['GET', 'POST'] as const;
export type ActionMethod = (typeof ACTION_METHODS)[number];

/** What responses show in place of a header's value: the value itself is never sent back. */
export const ACTION_SECRET_MASK = '••••';

export type ActionParameterType = 'string' | 'number' | 'integer' | 'boolean';

/** One parameter: a scalar, or a string out of a list (`enum`). */
export interface ActionParameterSchema {
  type: ActionParameterType;
  description?: string;
  /** Strings only. */
  maxLength?: number;
  /** Strings only: the values allowed. */
  enum?: string[];
}

/** The parameters, as a small JSON Schema: an object of scalar properties. */
export interface ActionParametersSchema {
  type: 'object';
  properties: Record<string, ActionParameterSchema>;
  required?: string[];
}

/** The verified visitor's fields an answer can be matched against (ActionVisitorMatch). */
export const ACTION_VISITOR_MATCH_FIELDS = ['email', 'sub'] as const;
export type ActionVisitorMatchField = (typeof ACTION_VISITOR_MATCH_FIELDS)[number];

/**
 * The owner check ("The answer must belong to the visitor"): `pointer` (RFC 6901) names a value in
 * the API's whole JSON answer that must equal the verified visitor's `email` (trimmed, any case)
 * or `sub` (exactly); otherwise nothing of the answer is used. Needs `requiresVerifiedVisitor`.
 */
export interface ActionVisitorMatch {
  pointer: string;
  field: ActionVisitorMatchField;
}

/** A header as a response shows it: its value is always ACTION_SECRET_MASK. */
export interface ActionHeaderView {
  name: string;
  value: string;
}

export interface BotAction {
  id: number;
  name: string;
  description: string;
  parameters: ActionParametersSchema;
  method: ActionMethod;
  /** https URL; `{parameter}` placeholders in its path. */
  url: string;
  headers: ActionHeaderView[];
  /** Visitor fields sent with each call: `sub`, `email`, or an attribute's name. */
  visitorFields: string[];
  requiresVerifiedVisitor: boolean;
  timeoutMs: number;
  /** JSON pointers (RFC 6901) into the answer: only these fields reach the model. */
  answerFields: string[];
  /** The owner check, or null when the answer is not matched to the visitor. */
  visitorMatch: ActionVisitorMatch | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/bots/{id}/actions */
export interface ActionsResponse {
  actions: BotAction[];
}

/** POST /api/bots/{id}/actions, PUT /api/bots/{id}/actions/{actionId} */
export interface ActionResponse {
  action: BotAction;
}

/**
 * A header to store. On PUT, a header without a value (or with ACTION_SECRET_MASK) keeps the value
 * stored under that name; a header left out is removed.
 */
export interface ActionHeaderInput {
  name: string;
  value?: string;
}

/** POST /api/bots/{id}/actions and PUT /api/bots/{id}/actions/{actionId} (the whole action). */
export interface SaveActionRequest {
  name: string;
  description: string;
  parameters: ActionParametersSchema;
  method: ActionMethod;
  url: string;
  headers?: ActionHeaderInput[];
  visitorFields?: string[];
  requiresVerifiedVisitor?: boolean;
  timeoutMs?: number;
  answerFields: string[];
  /** The owner check; left out or null: none. Refused unless the action requires a verified visitor. */
  visitorMatch?: ActionVisitorMatch | null;
}

/** The visitor a test run acts for (treated as verified: the owner vouches for it). */
export interface ActionTestVisitor {
  sub?: string;
  email?: string;
  name?: string;
  attributes?: Record<string, string | number | boolean>;
}

/** POST /api/bots/{id}/actions/{actionId}/test */
export interface ActionTestRequest {
  parameters: Record<string, unknown>;
  visitor?: ActionTestVisitor;
}

/** The request an action made (or would have made), header values masked. */
export interface ActionRequestView {
  method: ActionMethod;
  url: string;
  headers: Record<string, string>;
  /** The JSON body (POST), else null. */
  body: string | null;
}

/** How one run went: the answer's filtered fields when it succeeded, else an error sentence. */
export interface ActionRunResult {
  /** Null when the run was refused before any request (invalid parameters, no verified visitor). */
  request: ActionRequestView | null;
  /** The API's HTTP status; null when it did not answer. */
  status: number | null;
  durationMs: number;
  /**
   * The filtered answer as JSON text (what the model reads): an object of the answer fields found,
   * keyed by pointer, at most ACTION_LIMITS.answerMaxBytes; null on error.
   */
  answer: string | null;
  /** Whether the filtered answer was cut to fit. */
  truncated: boolean;
  error: string | null;
}

/** POST /api/bots/{id}/actions/{actionId}/test */
export interface ActionTestResponse {
  result: ActionRunResult;
}

/** The Actions tab's counters cover this many days (docs/product.md#actions). */
export const ACTION_STATS_DAYS = 30;

/** One action's calls over the last ACTION_STATS_DAYS days. */
export interface ActionStats {
  actionId: number;
  calls: number;
  failures: number;
  /** The 95th percentile of the calls' durations in ms; null without calls. */
  p95Ms: number | null;
}

/** GET /api/bots/{id}/actions/stats: one entry per action of the bot, in the list's order. */
export interface ActionStatsResponse {
  days: number;
  stats: ActionStats[];
}
