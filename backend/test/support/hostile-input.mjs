// Hostile requests for every API route: the property-based spec (test/integration/hostile-input.spec.ts)
// and the 20,000-case bench (bench/fuzz.mjs) share this file, so both send the same kinds of
// requests. Plain JavaScript (typed by hostile-input.d.mts) because the bench runs on bare Node.
import http from 'node:http';
import fc from 'fast-check';

const SIXTEEN_KB = 16_000;

/** Strings crafted against PostgreSQL, JSON, URL, e-mail and regex parsers. */
export const HOSTILE_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(1000),
  '\ud800',
  'x\udc00y',
  'ok\ud83d',
  '\ud83d\ude00',
  '\u202eevil',
  '\ufeffbom',
  '\uffff\ufffe',
  '\u2028\u2029',
  '\r\n\t\v\f\b',
  '%00',
  '%E0%A4%A',
  '../../etc/passwd',
  "'; DROP TABLE bots;--",
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '1e400',
  '-1',
  '2147483648',
  '99999999999999999999999',
  'null',
  'true',
  '👩‍👩‍👧‍👦'.repeat(500),
  '.'.repeat(SIXTEEN_KB),
  `a${'.'.repeat(SIXTEEN_KB)}x`,
  'a'.repeat(16_384),
  ' '.repeat(SIXTEEN_KB),
  `linear-gradient(${' '.repeat(SIXTEEN_KB)}x`,
  `a@${'a.'.repeat(SIXTEEN_KB / 2)}`,
  `${'a'.repeat(SIXTEEN_KB)}@example.com`,
  `https://${'.'.repeat(4000)}x`,
  'linear-gradient(to right, #fff, #000)',
  'https://example.com',
  'owner@example.com',
  'a\ud800@example.com',
  'ana@example.com\udc00',
  'ana\u0000@example.com',
];

const trickyChar = fc.constantFrom(
  '\u0000',
  '\ud800',
  '\udfff',
  'a',
  'Z',
  '.',
  ' ',
  '-',
  '@',
  '%',
  '\\',
  '"',
  "'",
  '<',
  '\n',
  '\u202e',
  '𝕏',
  'é',
  '#',
  '(',
  ',',
);

/** Any string: the corpus, strings of tricky characters (lone surrogates included), any Unicode. */
export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 3, arbitrary: fc.string({ unit: trickyChar, maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: trickyChar, minLength: 200, maxLength: 3000 }) },
);

/** JSON number tokens, including ones JavaScript cannot hold exactly. */
const numberText = fc.oneof(
  fc.constantFrom('0', '-0', '1', '-1', '1.5', '1e400', '-1e400', '1e-400', '2147483648', '9007199254740993'),
  fc.constantFrom('123456789012345678901234567890', '0.1e1', '1E2', '99999999999', '-2147483649', '3.14159265358979'),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);

/** Objects or arrays nested past any sane limit (the body limit is 320 KB). */
const deepText = fc
  .tuple(fc.constantFrom(33, 64, 500, 5000, 40_000), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', 'then'];

function keyArbitrary(fields) {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
    { weight: 3, arbitrary: fields.length > 0 ? fc.constantFrom(...fields) : fc.constant('a') },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'a.b', '$where', '0', '[]', 'role', 'content') },
    { weight: 2, arbitrary: hostileString.filter((s) => s.length < 200) },
  );
}

/** Text of any JSON value, built as text so that tokens such as 1e400 or "__proto__" keys survive. */
export function jsonText(fields = []) {
  const keys = keyArbitrary(fields);
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth: 4 },
      { weight: 4, arbitrary: hostileString.map((s) => JSON.stringify(s)) },
      { weight: 2, arbitrary: numberText },
      { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null') },
      { weight: 1, arbitrary: deepText },
      { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`) },
      {
        weight: 2,
        arbitrary: fc
          .array(fc.tuple(keys, tie('value')), { maxLength: 4 })
          .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
      },
    ),
  }));
  return value;
}

// Plausible values per field, so that one hostile field at a time reaches the database behind valid ones.
const gradient = fc.constantFrom('linear-gradient(to right, #2ecc71, #27ae60)', 'linear-gradient(135deg, #fff, #000)');
const SAMPLES = {
  email: fc.constantFrom('fuzz-a@example.com', 'FUZZ-B@example.com', ' fuzz-c@example.com '),
  password: fc.constantFrom('Secret!pass1', 'Another!Pass2', 'short'),
  name: fc.constantFrom('Sales', 'Support team', 'Ünïcødé'),
  botName: fc.constantFrom('Support Bot', 'Sales helper'),
  customGreeting: fc.constantFrom('Hello!', ''),
  model: fc.constantFrom('gpt-3.5-turbo', 'gpt-4o', 'gpt-4o-mini', 'gpt-4-turbo'),
  categoryId: fc.constantFrom(null, 'ID'),
  allowedDomain: fc.constantFrom('example.com', ''),
  bubbleColor: gradient,
  bubbleTextColor: gradient,
  bannerColor: gradient,
  bannerTextColor: gradient,
  sendButtonColor: gradient,
  sendArrowColor: gradient,
  placeholderTextColor: gradient,
  widgetBubbleColor: gradient,
  assistantBubbleColor: gradient,
  assistantBubbleTextColor: gradient,
  widgetBackgroundColor: gradient,
  bubbleIcon: fc.constantFrom('', '/uploads/icons/a.png'),
  bubbleBorderRadius: fc.constantFrom('12px', '50%', '0'),
  chatWindowBorderRadius: fc.constantFrom('12px', '0'),
  bannerDisclaimer: fc.constantFrom('AI answers may be wrong.'),
  placeholderText: fc.constantFrom('Ask me anything'),
  animation: fc.constantFrom('none', 'glow'),
  widgetPosition: fc.constantFrom('left', 'right'),
  prompt: fc.constantFrom('When do you open?', 'You are a helpful bot.'),
  maxTokens: fc.constantFrom(300, 2000),
  temperature: fc.constantFrom(0.3, 2),
  usageLimitDollars: fc.constantFrom(0, 10, '5'),
  spendAlertDollars: fc.constantFrom(0, 20, 100),
  conversationRetentionDays: fc.constantFrom(30, 90, 365, null),
  agentName: fc.constantFrom('Support', 'Ana at Acme'),
  content: fc.constantFrom('Hello, a person here.', 'Your order left today.'),
  // Loopback only: the fuzzed app refuses private addresses, so no crawl leaves the machine.
  url: fc.constantFrom('http://127.0.0.1:9/', 'https://localhost/docs'),
  maxPages: fc.constantFrom(1, 50, 500),
  text: fc.constantFrom('We open at nine.', 'Refunds take 30 days when the parcel is unopened.'),
  question: fc.constantFrom('When do you open?', 'Do you ship abroad?'),
  answer: fc.constantFrom('We open at eight.', 'We ship to every country in Europe.'),
  botId: fc.constantFrom('ID'),
  visitor: fc.constantFrom({}, { name: 'Ana Lima' }, { name: 'Ana Lima', email: 'ana@example.com' }),
  leadCapture: fc.constantFrom({ enabled: false }, { enabled: true, fields: ['email'], notifyEmails: [] }),
  enabled: fc.constantFrom(true, false),
  fields: fc.constantFrom(['email'], ['name', 'email', 'phone', 'message']),
  offerWhen: fc.constantFrom(['cap'], ['request', 'unanswered']),
  notifyEmails: fc.constantFrom([], ['fuzz-notify@example.com']),
  thankYouText: fc.constantFrom('Thanks!', ''),
  // Actions: the fuzzed app refuses loopback URLs (no ACTIONS_ALLOW_PRIVATE), so no action it
  // saves can send a request anywhere.
  description: fc.constantFrom('Look up an order by its number'),
  parameters: fc.constantFrom(
    { type: 'object', properties: {} },
    { type: 'object', properties: { order_id: { type: 'string', maxLength: 20 } }, required: ['order_id'] },
    { order_id: '1042' },
  ),
  method: fc.constantFrom('GET', 'POST'),
  headers: fc.constantFrom([], [{ name: 'X-Api-Key', value: 'sk_fuzz' }], [{ name: 'X-Api-Key' }]),
  visitorFields: fc.constantFrom([], ['sub', 'email']),
  requiresVerifiedVisitor: fc.constantFrom(true, false),
  timeoutMs: fc.constantFrom(1000, 8000, 15000),
  answerFields: fc.constantFrom(['/status'], ['']),
  chatHistory: fc.constantFrom(
    [],
    [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello!' },
    ],
  ),
};

/**
 * Fields whose value is an object with fields of its own: their hostile values include objects
 * built like a body (valid samples with one hostile field), so a hostile value reaches a nested
 * field's own checks (`visitor.email`) behind valid siblings.
 */
const NESTED_FIELDS = {
  visitor: ['name', 'email'],
  leadCapture: ['enabled', 'fields', 'offerWhen', 'notifyEmails', 'thankYouText'],
};

const UPDATE_BOT_FIELDS = [
  'name',
  'customGreeting',
  'model',
  'categoryId',
  'allowedDomain',
  'bubbleColor',
  'bubbleTextColor',
  'bubbleIcon',
  'bubbleBorderRadius',
  'chatWindowBorderRadius',
  'bannerColor',
  'sendButtonColor',
  'sendArrowColor',
  'bannerTextColor',
  'bannerDisclaimer',
  'placeholderText',
  'placeholderTextColor',
  'widgetBubbleColor',
  'assistantBubbleColor',
  'assistantBubbleTextColor',
  'widgetBackgroundColor',
  'animation',
  'widgetPosition',
  'prompt',
  'maxTokens',
  'temperature',
  'usageLimitDollars',
  'leadCapture',
];

/** The fields of an action (POST /api/bots/:id/actions, PUT …/:actionId). */
const ACTION_FIELDS = [
  'name',
  'description',
  'parameters',
  'method',
  'url',
  'headers',
  'visitorFields',
  'requiresVerifiedVisitor',
  'timeoutMs',
  'answerFields',
];

/**
 * Every API route and how to fuzz it. `fields`: the body's fields (valid samples mixed with hostile
 * values); `query`: its query parameters (the same mix, as a query string); `session`: 'owner' sends the paid owner's cookie (so guarded routes reach their DTOs),
 * 'none' sends none (auth routes, and routes that would end the owner's session); `ids`: 'doomed'
 * draws the owner's own ids from a pool that may be deleted. A route the app registers that is
 * missing here fails the spec, so new routes get fuzzed with their fields; an entry for a route
 * not (yet) registered is skipped.
 */
export const FUZZ_ROUTES = {
  'GET /api/health': {},
  'GET /api/user/me': {},
  'GET /api/user/settings': {},
  'PUT /api/user/settings': {
    fields: ['spendAlertDollars', 'conversationRetentionDays', 'agentName', 'timeZone', 'monthlyReport'],
  },
  'POST /api/auth/signup': { session: 'none', fields: ['email', 'password'] },
  'GET /api/auth/verify-email/:token': { session: 'none' },
  'POST /api/auth/verify-email/:token': { session: 'none', fields: ['password'] },
  'POST /api/auth/login': { session: 'none', fields: ['email', 'password'] },
  'POST /api/auth/logout': { session: 'none' },
  'POST /api/auth/forgot-password': { session: 'none', fields: ['email'] },
  'POST /api/auth/reset-password/:token': { session: 'none', fields: ['password'] },
  'DELETE /api/auth/delete-account': { session: 'none' },
  'GET /api/categories': {},
  'POST /api/categories': { fields: ['name'] },
  'DELETE /api/categories/:id': { ids: 'doomed' },
  'GET /api/bots': {},
  'POST /api/bots': { fields: ['botName'] },
  'GET /api/bots/:id': {},
  'PUT /api/bots/:id': { fields: UPDATE_BOT_FIELDS },
  'POST /api/bots/:id/api-key': {},
  'GET /api/bots/:id/identity': {},
  'POST /api/bots/:id/identity-secret': {},
  'DELETE /api/bots/:id': { ids: 'doomed' },
  'POST /api/upload/icon/:botId': {},
  'POST /api/upload/update-document/:botId': {},
  'GET /api/bots/:id/sources': {},
  'POST /api/bots/:id/sources/text': { fields: ['name', 'text'] },
  'POST /api/bots/:id/sources/files': {},
  'POST /api/bots/:id/sources/website': { fields: ['url', 'maxPages', 'refreshSchedule'] },
  'POST /api/bots/:id/sources/:sourceId/refresh': {},
  'PATCH /api/bots/:id/sources/:sourceId': { fields: ['refreshSchedule'] },
  'DELETE /api/bots/:id/sources/:sourceId': {},
  'GET /api/bots/:id/sources/:sourceId/pages': { query: ['cursor'] },
  'GET /api/bots/:id/sources/:sourceId/text': {},
  'PUT /api/bots/:id/sources/:sourceId/text': { fields: ['name', 'text'] },
  'POST /api/bots/:id/corrections': { fields: ['question', 'answer'] },
  'PUT /api/bots/:id/corrections/:sourceId': { fields: ['question', 'answer'] },
  'GET /api/bots/:id/questions': { query: ['filter', 'period'] },
  'GET /api/user/usage': {},
  'GET /api/user/usage-history': {},
  'GET /api/bots/:id/usage': {},
  'GET /api/bots/:id/usage-history': {},
  'GET /api/user/logs/download': {},
  'GET /api/user/usage-forecast': {},
  'GET /api/analytics': { query: ['botId', 'from', 'to', 'groupBy', 'timeZone'] },
  'GET /api/conversations': { query: ['q', 'cursor', 'limit', 'from', 'to', 'botId', 'filter'] },
  'GET /api/conversations/export': { query: ['q', 'from', 'to', 'botId', 'filter'] },
  'GET /api/conversations/waiting-count': {},
  'GET /api/onboarding': {},
  'GET /api/conversations/:id': {},
  'DELETE /api/conversations/:id': { ids: 'doomed' },
  'GET /api/bots/:id/actions': {},
  'GET /api/bots/:id/actions/stats': {},
  'POST /api/bots/:id/actions': { fields: ACTION_FIELDS },
  'PUT /api/bots/:id/actions/:actionId': { fields: ACTION_FIELDS },
  'DELETE /api/bots/:id/actions/:actionId': {},
  'POST /api/bots/:id/actions/:actionId/test': { fields: ['parameters', 'visitor'] },
  'GET /api/webhooks': {},
  'POST /api/webhooks': { fields: ['url', 'events'] },
  'DELETE /api/webhooks/:id': { ids: 'doomed' },
  'POST /api/webhooks/:id/test': {},
  'POST /api/webhooks/:id/enable': {},
  'GET /api/webhooks/:id/deliveries': {},
  'POST /api/conversations/:id/reply': { fields: ['content'] },
  'POST /api/conversations/:id/handback': {},
  'GET /api/leads': { query: ['botId', 'cursor'] },
  'GET /api/leads/export': { query: ['botId'] },
  'DELETE /api/leads/:id': { ids: 'doomed' },
  'GET /api/bots/:id/notify-emails': {},
  'POST /api/bots/:id/notify-emails/resend': { fields: ['email'] },
  'GET /api/mail/usage': {},
  'GET /api/mail/confirm/:token': { session: 'none' },
  'POST /api/mail/confirm/:token': { session: 'none' },
  'POST /api/auth/create-stripe-customer': {},
  'GET /api/auth/has-payment-method': {},
  'POST /api/auth/create-payment-method-session': {},
  'POST /api/auth/create-stripe-subscription': {},
  'GET /api/subscription': {},
  'GET /api/billing': {},
  'POST /api/billing/portal': {},
  'POST /api/billing/webhook': { session: 'none' },
  'POST /api/chat': { session: 'none', fields: ['botId', 'prompt', 'chatHistory', 'model', 'visitor'] },
  'POST /api/chat/feedback': { session: 'none', fields: ['botId', 'messageId', 'rating', 'comment'] },
  'DELETE /api/chat/conversations/current': { session: 'none', fields: ['botId'] },
  'GET /api/chat/conversations/current/messages': { session: 'none', query: ['botId', 'after'] },
  'GET /api/chat/conversations/current/events': { session: 'none', query: ['botId', 'after'] },
  'POST /api/chat/lead': { session: 'none', fields: ['botId', 'name', 'email', 'phone', 'message'] },
  'GET /api/widget/bots/:id': { session: 'none' },
  // The API reference (SwaggerModule): the document, Swagger UI's page and its generated script.
  'GET /api/openapi.json': { session: 'none' },
  'GET /api/docs': { session: 'none' },
  'GET /api/docs/': { session: 'none' },
  'GET /api/docs/index.html': { session: 'none' },
  'GET /api/docs/swagger-ui-init.js': { session: 'none' },
  'GET /api/docs/docs/swagger-ui-init.js': { session: 'none' },
  'GET /api/docs/LICENSE': { session: 'none' },
};

/** `METHOD /path` of every route under /api the Express app has registered (Nest registers each there). */
export function apiRoutesOf(expressApp) {
  const routes = [];
  for (const layer of expressApp.router.stack) {
    const route = layer.route;
    if (!route || typeof route.path !== 'string' || !route.path.startsWith('/api/')) continue;
    for (const [method, on] of Object.entries(route.methods)) {
      if (on && method !== '_all') routes.push(`${method.toUpperCase()} ${route.path}`);
    }
  }
  return [...new Set(routes)];
}

/** Percent-encodes the UTF-8 bytes of `text` (lone surrogates become U+FFFD, as a browser would send). */
function pathSegment(text) {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A cursor as the server issues them (`<time with microseconds>~<id>`, base64url). */
const cursorOf = (text) => Buffer.from(text, 'utf8').toString('base64url');

/** Plausible values of each query parameter (as text), for the owner routes' filters and pages. */
const QUERY_SAMPLES = {
  q: fc.constantFrom(
    'refund',
    '"opening hours"',
    '-spam refund',
    'refund or parcel',
    'the',
    '-'.repeat(200),
    '- '.repeat(100),
  ),
  cursor: fc.oneof(
    fc.constantFrom(cursorOf('2026-11-25T08:30:00.000000Z~1'), cursorOf('2026-02-30T08:30:00.000000Z~1')),
    fc.constantFrom(cursorOf('9999-12-31T23:59:59.999999Z~2147483647'), cursorOf('0000-01-01T00:00:00.000000Z~1')),
    fc.nat({ max: 2_147_483_647 }).map((id) => cursorOf(`2026-11-25T08:30:00.000000Z~${id}`)),
    hostileString.filter((t) => t.length < 140).map((t) => cursorOf(`2026-11-25T08:30:00.000000Z~${t}`)),
    hostileString.filter((t) => t.length < 140).map(cursorOf),
  ),
  limit: fc.constantFrom('1', '25', '100', '101', '0', '999', '1e2', '-1', '01'),
  from: fc.constantFrom('2026-11-25', '2026-11-25T08:30:00Z', '2026-02-30', '1970-01-01', '0001-01-01', '9999-12-31'),
  to: fc.constantFrom(
    '2026-11-26',
    '2026-11-25T08:30:00.123456+14:00',
    '2026-13-01',
    '2026-11-25T25:61:61Z',
    '275760-09-13',
  ),
  filter: fc.constantFrom('all', 'unanswered', 'negative'),
  period: fc.constantFrom('7d', '30d', '90d'),
  groupBy: fc.constantFrom('day', 'week', 'month'),
  timeZone: fc.constantFrom('UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/St_Johns', 'Etc/GMT+12', 'Mars/Base'),
  after: fc.constantFrom('0', '1', '2147483647', '2147483648'),
  botId: fc.constantFrom('ID'),
};

/** Raw query text that is not a clean encoding: cut escapes, NUL, separators, brackets. */
const rawQueryValue = fc.constantFrom(
  '%',
  '%E0%A4%A',
  '%00',
  '%ZZ',
  '%C0%80',
  '%ED%A0%80',
  '+',
  '&',
  '=',
  '%26%3D',
  '[]',
);

function queryValue(name, context) {
  const sample = QUERY_SAMPLES[name] ?? fc.constant('x');
  const valid =
    name === 'botId'
      ? fc.oneof(
          fc.constantFrom(...context.ownIds.slice(0, 2)).map(String),
          fc.constantFrom(...context.otherIds).map(String),
        )
      : sample;
  return fc.oneof(
    { weight: 4, arbitrary: valid.map(pathSegment) },
    { weight: 3, arbitrary: hostileString.filter((t) => t.length < 4000).map(pathSegment) },
    { weight: 1, arbitrary: rawQueryValue },
  );
}

/**
 * A query string over `names`: each parameter absent, once, twice (an array), with brackets
 * (`q[a]=`, `q[]=`) or bare; mostly valid samples with hostile values among them.
 */
function queryString(names, context) {
  const param = (name) =>
    fc.oneof(
      { weight: 6, arbitrary: queryValue(name, context).map((v) => [`${name}=${v}`]) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(queryValue(name, context), queryValue(name, context))
          .map(([a, b]) => [`${name}=${a}`, `${name}=${b}`]),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom('[]', '[a]', '[__proto__]', '[0]'), queryValue(name, context))
          .map(([b, v]) => [`${name}${b}=${v}`]),
      },
      { weight: 1, arbitrary: fc.constant([name]) },
    );
  return fc
    .tuple(...names.map((name) => fc.option(param(name), { nil: undefined, freq: 2 })))
    .map((parts) => parts.flatMap((part) => part ?? []).join('&'));
}

const rawSegment = fc.constantFrom('%', '%E0%A4%A', '%00', '..', '%2F', '%2e%2e', '0', '-1', '1e3', '01', '1.5', '%20');

function idArbitrary(context, doomed) {
  const own = doomed ? context.doomedIds : context.ownIds;
  const any = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...own).map(String) },
    { weight: 2, arbitrary: fc.constantFrom(...context.otherIds).map(String) },
    { weight: 1, arbitrary: rawSegment },
    { weight: 1, arbitrary: fc.constantFrom('2147483647', '2147483648', '99999999999', '1') },
    { weight: 2, arbitrary: hostileString.filter((s) => s.length < 400).map(pathSegment) },
  );
  if (!doomed) return any;
  // A route that deletes never names the owner's kept ids (the other routes need them), in any spelling.
  const kept = new Set(context.ownIds.map(String));
  return any.filter((segment) => !/^\d+$/.test(segment) || !kept.has(String(Number(segment))));
}

function validValue(field, context) {
  const sample = SAMPLES[field];
  const valid = sample
    ? sample.map((v) => (v === 'ID' ? String(context.ownIds[0]) : JSON.stringify(v)))
    : fc.constant('"x"');
  if (field !== 'botId' && field !== 'categoryId') return valid;
  return fc.oneof(valid, fc.constantFrom(...context.ownIds, ...context.otherIds, 1).map(String));
}

function objectText(fields, values, extra) {
  const parts = [];
  values.forEach((v, i) => {
    if (v !== undefined) parts.push(`${JSON.stringify(fields[i])}:${v}`);
  });
  if (extra) parts.push(`${JSON.stringify(extra[0])}:${extra[1]}`);
  return `{${parts.join(',')}}`;
}

/** An address around hostile text: it passes a quick look for "@" and reaches the address checks. */
const hostileAddress = hostileString
  .filter((s) => s.length < 300)
  .chain((s) => fc.constantFrom(`${s}@example.com`, `ana@${s}`, `a${s}b@example.com`, `${s}`))
  .map((s) => JSON.stringify(s));

/**
 * A hostile value for `field` (JSON text): any JSON value; for an e-mail field also addresses
 * around hostile text; for a field holding an object (NESTED_FIELDS) also that object built like a
 * body, with one hostile field among valid ones.
 */
function hostileValue(field, hostile, context, depth) {
  const nested = NESTED_FIELDS[field];
  if (nested && depth < 2) return fc.oneof(hostile, objectBody(nested, context, depth + 1));
  if (field === 'email' || field === 'notifyEmails') {
    return fc.oneof(hostile, field === 'email' ? hostileAddress : hostileAddress.map((a) => `[${a}]`));
  }
  return hostile;
}

/**
 * A body for a route with fields. Mostly valid samples with exactly one hostile field, so the
 * hostile value passes every other check and reaches the service and the database; sometimes all
 * valid (the success path), sometimes any mix plus an extra hostile key.
 */
function objectBody(fields, context, depth = 0) {
  if (fields.length === 0) return jsonText(fields);
  const hostile = jsonText(fields);
  const hostileOf = (field) => hostileValue(field, hostile, context, depth);
  const valid = fc.tuple(...fields.map((f) => fc.option(validValue(f, context), { nil: undefined, freq: 3 })));
  const mixed = fc.tuple(
    ...fields.map((f) => fc.option(fc.oneof(validValue(f, context), hostileOf(f)), { nil: undefined, freq: 3 })),
  );
  const extra = fc.tuple(keyArbitrary(fields), hostile);
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.tuple(valid, fc.nat(fields.length - 1)).chain(([values, index]) =>
        hostileOf(fields[index]).map((value) => {
          const copy = [...values];
          copy[index] = value;
          return objectText(fields, copy);
        }),
      ),
    },
    { weight: 2, arbitrary: valid.map((values) => objectText(fields, values)) },
    { weight: 2, arbitrary: fc.tuple(mixed, extra).map(([values, more]) => objectText(fields, values, more)) },
  );
}

const malformedJson = fc.constantFrom(
  '{',
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  '\ufeff{}',
  '{"a":1}{"b":2}',
  'nul',
  '[1,2',
  '"\\ud800"',
  '{"a":"\\u00"}',
  '{"a":"\\x00"}',
  'NaN',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":01}',
  '',
  '   ',
  '"just a string"',
  '42',
  'null',
  '[]',
  '{"a":"b","a":"c"}',
);

const formBody = fc.constantFrom(
  'email=a%40b.co&password=Secret!pass1',
  'email[constructor]=1',
  '__proto__[polluted]=1',
  'botName[]=a&botName[]=b',
  'name=%00',
  `a${'[b]'.repeat(40)}=1`,
  'name[constructor][prototype]=1',
  'botName=%F0%9F%98%80',
);

const invalidUtf8 = fc.constantFrom(
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
  Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
);

const CONTENT_TYPES = [
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'text/plain',
  'application/xml',
  'application/vnd.api+json',
  'multipart/form-data; boundary=----x',
  'application/json; boundary=x; charset=utf-8',
];

/** Header values (printable ASCII only: HTTP cannot carry anything else as text). */
const hostileHeader = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXT.filter((s) => /^[\x20-\x7e]*$/.test(s) && s.length < 8000)),
  fc.string({ unit: fc.constantFrom('a', '.', ' ', ':', '/', '%', ',', ';', '='), maxLength: 60 }),
);

/**
 * One request against `route` (a FUZZ_ROUTES key, or any `METHOD /path` for a route not in the
 * table). `context`: `{ origin, ownIds, doomedIds, otherIds, ownerCookie }`.
 */
export function requestArbitrary(route, context) {
  const entry = FUZZ_ROUTES[route] ?? {};
  const fields = entry.fields ?? [];
  const [method, template] = route.split(' ');
  const params = template.split('/').filter((s) => s.startsWith(':'));
  const paramValues = fc.tuple(
    ...params.map((p) =>
      p === ':token'
        ? fc.oneof(
            fc
              .base64String({ minLength: 44, maxLength: 44 })
              .map((s) => s.slice(0, 43).replace(/\+/g, '-').replace(/\//g, '_')),
            hostileString.filter((s) => s.length < 400).map(pathSegment),
          )
        : idArbitrary(context, entry.ids === 'doomed'),
    ),
  );
  const json = objectBody(fields, context);
  const body = fc.oneof(
    { weight: 12, arbitrary: json.map((text) => ({ type: 'application/json', body: text })) },
    { weight: 3, arbitrary: jsonText(fields).map((text) => ({ type: 'application/json', body: text })) },
    { weight: 2, arbitrary: malformedJson.map((text) => ({ type: 'application/json', body: text })) },
    { weight: 1, arbitrary: invalidUtf8.map((bytes) => ({ type: 'application/json', body: bytes })) },
    { weight: 1, arbitrary: formBody.map((text) => ({ type: 'application/x-www-form-urlencoded', body: text })) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...CONTENT_TYPES), json).map(([type, text]) => ({ type, body: text })),
    },
    { weight: 1, arbitrary: fc.constant({ type: undefined, body: undefined }) },
  );
  const ownerSession = entry.session !== 'none';
  const headers = fc.record({
    origin: fc.oneof(
      { weight: 8, arbitrary: fc.constant(context.origin) },
      { weight: 1, arbitrary: hostileHeader },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    // Routes marked session 'none' never get the owner's cookie: logout or delete-account would end it.
    cookie: ownerSession
      ? fc.oneof(
          { weight: 9, arbitrary: fc.constant(context.ownerCookie) },
          { weight: 1, arbitrary: fc.constant(undefined) },
        )
      : fc.constant(undefined),
    pageUrl: fc.option(hostileHeader, { freq: 4 }),
    visitorId: fc.option(hostileHeader, { freq: 4 }),
    visitorToken: fc.option(
      fc.oneof(
        hostileHeader,
        hostileHeader.map((s) => `v1.${s}.${s}`),
      ),
      { freq: 4 },
    ),
    authorization: fc.option(
      hostileHeader.map((s) => `Bearer ${s}`),
      { freq: 6 },
    ),
  });
  const query = entry.query ? fc.option(queryString(entry.query, context), { nil: '', freq: 6 }) : fc.constant('');
  return fc.tuple(paramValues, body, headers, query).map(([values, { type, body: payload }, h, search]) => {
    let i = 0;
    const path =
      template
        .split('/')
        .map((s) => (s.startsWith(':') ? values[i++] : s))
        .join('/') + (search ? `?${search}` : '');
    const headerValues = {};
    if (type) headerValues['Content-Type'] = type;
    if (h.origin !== undefined) headerValues.Origin = h.origin;
    if (h.cookie) headerValues.Cookie = h.cookie;
    if (h.pageUrl) headerValues['X-Page-Url'] = h.pageUrl;
    if (h.visitorId) headerValues['X-Visitor-Id'] = h.visitorId;
    if (h.visitorToken) headerValues['X-Visitor-Token'] = h.visitorToken;
    if (h.authorization) headerValues.Authorization = h.authorization;
    return { route, method, path, headers: headerValues, body: payload };
  });
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** Sends one generated request to `base` (`http://127.0.0.1:port`); resolves with status, type and body text. */
export function sendRequest(base, request) {
  const url = new URL(base);
  const payload =
    request.body === undefined
      ? undefined
      : Buffer.isBuffer(request.body)
        ? request.body
        : Buffer.from(request.body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        agent: keepAlive,
        headers: { ...request.headers, ...(payload ? { 'Content-Length': String(payload.length) } : {}) },
      },
      (res) => {
        const contentType = String(res.headers['content-type'] ?? '');
        // A stream that opened (the agent messages' events, with a valid query) never ends by
        // itself: its status and type are the answer.
        if (contentType.includes('text/event-stream')) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, contentType, text: '' });
          return;
        }
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Null when the answer is acceptable (below 500; an error is `{error, code}` JSON), else what is wrong. */
export function answerProblem(answer) {
  if (answer.status >= 500) return `status ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (answer.status < 400) return null;
  if (!answer.contentType.includes('application/json'))
    return `status ${answer.status} without a JSON body (${answer.contentType})`;
  let body;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `status ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`;
  }
  if (typeof body?.error !== 'string' || body.error === '' || typeof body?.code !== 'string' || body.code === '') {
    return `status ${answer.status} without {error, code}: ${answer.text.slice(0, 200)}`;
  }
  return null;
}

/** A generated request, shortened for a failure message. */
export function describeRequest(request) {
  const body =
    request.body === undefined
      ? ''
      : Buffer.isBuffer(request.body)
        ? `<bytes ${request.body.toString('hex')}>`
        : request.body;
  const short = (s) => (s.length > 300 ? `${s.slice(0, 300)}… (${s.length} chars)` : s);
  return `${request.method} ${short(request.path)} ${JSON.stringify(request.headers, (k, v) => (typeof v === 'string' ? short(v) : v))} ${short(JSON.stringify(body))}`;
}
