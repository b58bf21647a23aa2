import { isIP } from 'node:net';
import {
  ACTION_LIMITS,
  ACTION_METHODS,
  ACTION_VISITOR_MATCH_FIELDS,
  type ActionMethod,
  type ActionParameterSchema,
  type ActionParametersSchema,
  type ActionVisitorMatch,
  type ActionVisitorMatchField,
} from '@botsmith/contract';
import { addressRefusal, hostnameRefusal, STANDARD_PORTS } from '../../common/outbound/address-policy.js';
import { parsePointer } from './json-pointer.js';

/**
 * The rules of an action's definition (docs/product.md#actions). Everything an owner types is
 * checked here, strictly: the model reads the schema and the runner trusts it, so anything the
 * runner does not understand is refused with a sentence that names it rather than ignored.
 */

/** A definition refused: the sentence is shown to the owner as is. */
export class ActionDefinitionError extends Error {}

const NAME = /^[a-z][a-z0-9_]*$/;
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
/** RFC 7230 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII and spaces/tabs (no CR, LF or NUL: a header cannot be split into two). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\uffff]*$/;
/** Headers the HTTP client sets itself, or that change how the connection or body is read. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);
const PLACEHOLDER = /\{([^{}]*)\}/g;
/** The key the visitor's fields are sent under; no parameter may take it. */
export const VISITOR_KEY = 'visitor';

export function checkName(name: string): string {
  if (name.length === 0 || name.length > ACTION_LIMITS.nameMaxChars || !NAME.test(name)) {
    throw new ActionDefinitionError(
      `The name must be snake_case (lower-case letters, digits and _, starting with a letter), at most ${ACTION_LIMITS.nameMaxChars} characters.`,
    );
  }
  return name;
}

function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** What the model reads to choose the action: required, one paragraph at most. */
export function checkDescription(raw: string): string {
  const description = raw.trim();
  if (description.length === 0 || description.length > ACTION_LIMITS.descriptionMaxChars) {
    throw new ActionDefinitionError(
      `Describe what the action does in at most ${ACTION_LIMITS.descriptionMaxChars} characters.`,
    );
  }
  return description;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: string[], where: string): void {
  const extra = Object.keys(value).filter((key) => !allowed.includes(key));
  if (extra.length > 0) {
    throw new ActionDefinitionError(`${where}: "${extra[0]}" is not supported (allowed: ${allowed.join(', ')}).`);
  }
}

/** The parameters' schema, as stored: refused unless it is an object of scalar properties. */
export function checkParametersSchema(raw: unknown): ActionParametersSchema {
  if (!isPlainObject(raw)) throw new ActionDefinitionError('"parameters" must be a JSON Schema object.');
  onlyKeys(raw, ['type', 'properties', 'required'], '"parameters"');
  if (raw.type !== 'object') throw new ActionDefinitionError('"parameters" must have "type": "object".');
  const rawProperties = raw.properties ?? {};
  if (!isPlainObject(rawProperties)) throw new ActionDefinitionError('"parameters.properties" must be an object.');
  const names = Object.keys(rawProperties);
  if (names.length > ACTION_LIMITS.parametersMax) {
    throw new ActionDefinitionError(`An action can have at most ${ACTION_LIMITS.parametersMax} parameters.`);
  }
  const properties: Record<string, ActionParameterSchema> = {};
  for (const name of names) {
    if (!PARAMETER_NAME.test(name) || name.length > ACTION_LIMITS.nameMaxChars) {
      throw new ActionDefinitionError(
        `Parameter names use letters, digits and _, start with a letter and have at most ${ACTION_LIMITS.nameMaxChars} characters.`,
      );
    }
    if (name === VISITOR_KEY) throw new ActionDefinitionError(`"${VISITOR_KEY}" is reserved for the visitor's fields.`);
    properties[name] = checkParameter(name, rawProperties[name]);
  }
  const schema: ActionParametersSchema = { type: 'object', properties };
  if (raw.required !== undefined) {
    if (!Array.isArray(raw.required) || !raw.required.every((entry) => typeof entry === 'string')) {
      throw new ActionDefinitionError('"parameters.required" must be a list of parameter names.');
    }
    const required = [...new Set(raw.required)];
    const unknown = required.find((entry) => !hasOwn(properties, entry));
    if (unknown !== undefined) {
      throw new ActionDefinitionError(
        `"parameters.required" names "${unknown.slice(0, 64)}", which is not a parameter.`,
      );
    }
    schema.required = required;
  }
  return schema;
}

function checkParameter(name: string, raw: unknown): ActionParameterSchema {
  const where = `Parameter "${name}"`;
  if (!isPlainObject(raw)) throw new ActionDefinitionError(`${where} must be an object with a "type".`);
  onlyKeys(raw, ['type', 'description', 'maxLength', 'enum'], where);
  const type = raw.type;
  if (type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean') {
    throw new ActionDefinitionError(`${where}: "type" must be string, number, integer or boolean.`);
  }
  const parameter: ActionParameterSchema = { type };
  if (raw.description !== undefined) {
    if (typeof raw.description !== 'string' || raw.description.length > ACTION_LIMITS.parameterDescriptionMaxChars) {
      throw new ActionDefinitionError(
        `${where}: "description" must be text of at most ${ACTION_LIMITS.parameterDescriptionMaxChars} characters.`,
      );
    }
    parameter.description = raw.description;
  }
  if (raw.maxLength !== undefined) {
    if (type !== 'string') throw new ActionDefinitionError(`${where}: "maxLength" applies to strings only.`);
    const max = raw.maxLength;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > ACTION_LIMITS.stringMaxChars) {
      throw new ActionDefinitionError(
        `${where}: "maxLength" must be a whole number from 1 to ${ACTION_LIMITS.stringMaxChars}.`,
      );
    }
    parameter.maxLength = max;
  }
  if (raw.enum !== undefined) {
    if (type !== 'string') throw new ActionDefinitionError(`${where}: "enum" applies to strings only.`);
    const values = raw.enum;
    if (
      !Array.isArray(values) ||
      values.length === 0 ||
      values.length > ACTION_LIMITS.enumValuesMax ||
      !values.every((v) => typeof v === 'string' && v.length > 0 && v.length <= ACTION_LIMITS.enumValueMaxChars) ||
      new Set(values).size !== values.length
    ) {
      throw new ActionDefinitionError(
        `${where}: "enum" must list 1 to ${ACTION_LIMITS.enumValuesMax} different strings of at most ${ACTION_LIMITS.enumValueMaxChars} characters.`,
      );
    }
    parameter.enum = values as string[];
  }
  return parameter;
}

export function checkMethod(method: unknown): ActionMethod {
  if (!ACTION_METHODS.includes(method as ActionMethod)) {
    throw new ActionDefinitionError(`"method" must be ${ACTION_METHODS.join(' or ')}.`);
  }
  return method as ActionMethod;
}

/** The placeholders of a URL template, in order. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]);
}

/**
 * The URL template, as stored: https (http too when private addresses are allowed), no
 * credentials, a host that is not plainly private, a standard port, and `{parameter}` placeholders
 * only in the path, each naming a parameter. The host is resolved and checked again at each call.
 */
export function checkUrlTemplate(raw: string, schema: ActionParametersSchema, allowPrivate: boolean): string {
  const template = raw.trim();
  if (template.length === 0 || template.length > ACTION_LIMITS.urlMaxChars) {
    throw new ActionDefinitionError(
      `Enter the URL (at most ${ACTION_LIMITS.urlMaxChars} characters), starting with https://.`,
    );
  }
  const names = placeholders(template);
  for (const name of names) {
    if (!hasOwn(schema.properties, name)) {
      throw new ActionDefinitionError(`The URL's placeholder {${name.slice(0, 64)}} names no parameter.`);
    }
    if (!(schema.required ?? []).includes(name)) {
      throw new ActionDefinitionError(`The URL's placeholder {${name}} must name a required parameter.`);
    }
  }
  // Braces left after the placeholders (an unclosed "{order") would reach the path as they are.
  if (/[{}]/.test(template.replace(PLACEHOLDER, ''))) {
    throw new ActionDefinitionError('The URL has an unmatched { or }.');
  }
  // Placeholders fill path segments only: a parameter must not choose the host, nor add query keys.
  const schemeEnd = template.indexOf('://');
  const pathStart = schemeEnd === -1 ? -1 : template.slice(schemeEnd + 3).search(/[/?#]/);
  const authority = pathStart === -1 ? template : template.slice(0, schemeEnd + 3 + pathStart);
  const queryStart = template.search(/[?#]/);
  if (/[{}]/.test(authority) || (queryStart !== -1 && /[{}]/.test(template.slice(queryStart)))) {
    throw new ActionDefinitionError("Placeholders may only be in the URL's path.");
  }
  let url: URL;
  try {
    url = new URL(template.replace(PLACEHOLDER, 'x'));
  } catch {
    throw new ActionDefinitionError('Enter the full URL of your API, starting with https://.');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new ActionDefinitionError('Action URLs must use https://.');
  }
  if (!url.hostname || url.username || url.password) {
    throw new ActionDefinitionError('Enter the full URL of your API, without a user name or password.');
  }
  if (url.hash) throw new ActionDefinitionError('The URL cannot have a #fragment.');
  const rule = { allowPrivate };
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  const refusal = isIP(bare) !== 0 ? addressRefusal(bare, rule) : hostnameRefusal(bare, rule);
  if (refusal) throw new ActionDefinitionError('This URL points to a private network and cannot be called.');
  if (!allowPrivate && !STANDARD_PORTS.has(url.port)) {
    throw new ActionDefinitionError('Action URLs must use the standard port (443).');
  }
  return template;
}

export function checkHeaderName(name: unknown): string {
  if (
    typeof name !== 'string' ||
    name.length === 0 ||
    name.length > ACTION_LIMITS.headerNameMaxChars ||
    !HEADER_NAME.test(name)
  ) {
    throw new ActionDefinitionError('Header names use letters, digits and - (e.g. Authorization, X-Api-Key).');
  }
  if (RESERVED_HEADERS.has(name.toLowerCase())) {
    throw new ActionDefinitionError(`The header "${name}" is set by Botsmith and cannot be given.`);
  }
  return name;
}

export function checkHeaderValue(name: string, value: string): string {
  if (value.length === 0 || value.length > ACTION_LIMITS.headerValueMaxChars || !HEADER_VALUE.test(value)) {
    throw new ActionDefinitionError(
      `The value of "${name}" must be 1 to ${ACTION_LIMITS.headerValueMaxChars} characters on one line.`,
    );
  }
  return value;
}

export function checkVisitorFields(raw: unknown): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > ACTION_LIMITS.visitorFieldsMax) {
    throw new ActionDefinitionError(
      `"visitorFields" must list at most ${ACTION_LIMITS.visitorFieldsMax} fields: sub, email or attribute names.`,
    );
  }
  for (const field of raw) {
    if (typeof field !== 'string' || field.length > ACTION_LIMITS.nameMaxChars || !PARAMETER_NAME.test(field)) {
      throw new ActionDefinitionError('Each visitor field is sub, email or an attribute name (letters, digits, _).');
    }
  }
  return [...new Set(raw as string[])];
}

export function checkTimeout(raw: unknown): number {
  if (raw === undefined) return ACTION_LIMITS.timeoutMsDefault;
  if (
    typeof raw !== 'number' ||
    !Number.isInteger(raw) ||
    raw < ACTION_LIMITS.timeoutMsMin ||
    raw > ACTION_LIMITS.timeoutMsMax
  ) {
    throw new ActionDefinitionError(
      `"timeoutMs" must be a whole number of milliseconds from ${ACTION_LIMITS.timeoutMsMin} to ${ACTION_LIMITS.timeoutMsMax}.`,
    );
  }
  return raw;
}

export function checkAnswerFields(raw: unknown): string[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > ACTION_LIMITS.answerFieldsMax) {
    throw new ActionDefinitionError(
      `"answerFields" must list 1 to ${ACTION_LIMITS.answerFieldsMax} JSON pointers (e.g. /status; "" is the whole answer).`,
    );
  }
  for (const pointer of raw) {
    if (
      typeof pointer !== 'string' ||
      pointer.length > ACTION_LIMITS.pointerMaxChars ||
      parsePointer(pointer) === null
    ) {
      throw new ActionDefinitionError(
        `Each answer field is a JSON pointer of at most ${ACTION_LIMITS.pointerMaxChars} characters, like /order/status.`,
      );
    }
  }
  return [...new Set(raw as string[])];
}

export const VISITOR_MATCH_NEEDS_VERIFIED =
  'The answer can only be matched to a verified visitor: turn on "Only for verified visitors" to check it.';

/**
 * The owner check (`visitorMatch`): a pointer into the API's whole answer (the answer fields' rules)
 * and the verified visitor's field it must equal. It only means something for a visitor the
 * owner's server vouched for, so an action that runs for anyone cannot have one.
 */
export function checkVisitorMatch(raw: unknown, requiresVerifiedVisitor: boolean): ActionVisitorMatch | null {
  if (raw === undefined || raw === null) return null;
  if (!isPlainObject(raw)) {
    throw new ActionDefinitionError('"visitorMatch" must be {"pointer": "/email", "field": "email" or "sub"} or null.');
  }
  onlyKeys(raw, ['pointer', 'field'], '"visitorMatch"');
  const { pointer, field } = raw;
  if (
    typeof pointer !== 'string' ||
    pointer === '' ||
    pointer.length > ACTION_LIMITS.pointerMaxChars ||
    parsePointer(pointer) === null
  ) {
    throw new ActionDefinitionError(
      `"visitorMatch.pointer" must be a JSON pointer of at most ${ACTION_LIMITS.pointerMaxChars} characters into the answer, like /billing/email.`,
    );
  }
  if (!ACTION_VISITOR_MATCH_FIELDS.includes(field as ActionVisitorMatchField)) {
    throw new ActionDefinitionError(`"visitorMatch.field" must be ${ACTION_VISITOR_MATCH_FIELDS.join(' or ')}.`);
  }
  if (!requiresVerifiedVisitor) throw new ActionDefinitionError(VISITOR_MATCH_NEEDS_VERIFIED);
  return { pointer, field: field as ActionVisitorMatchField };
}
