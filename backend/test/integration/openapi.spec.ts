import fs from 'node:fs';
import path from 'node:path';
import { CONTRACT_SCHEMAS } from '../../src/common/openapi/contract-schemas.generated.js';
import { isCrossOriginPath } from '../../src/common/origin.guard.js';
import { apiRoutesOf } from '../support/hostile-input.mjs';
import { inlineRefs } from '../support/openapi-refs.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The API reference is generated from the code (docs/architecture.md#api-reference): this spec
 * reads /api/openapi.json from the running app and holds it to the routes Nest registered, so a
 * route added without its documentation, or documented without its error codes, fails here.
 */
interface ErrorSchema {
  properties?: { code?: { enum?: string[] } };
}
interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema?: ErrorSchema }> }>;
  security?: Record<string, string[]>[];
  tags?: string[];
  summary?: string;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
}

/** The reference's own routes (the document itself and Swagger UI's page and script). */
const REFERENCE_ROUTE = /^GET \/api\/(openapi\.json|docs(\/.*)?)$/;
const UNSAFE = new Set(['post', 'put', 'patch', 'delete']);
const SOURCE = path.resolve(import.meta.dirname, '../../src');

let t: TestApp;
let document: Document;
let registered: string[];

beforeAll(async () => {
  t = await startTestApp();
  const response = await t.http().get('/api/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  document = response.body as Document;
  registered = apiRoutesOf(t.app.getHttpAdapter().getInstance()).filter((route) => !REFERENCE_ROUTE.test(route));
});

afterAll(async () => {
  await t?.close();
});

/** `POST /api/bots/:id` as the document writes it: method and `/api/bots/{id}`. */
function documented(route: string): { method: string; path: string; operation?: Operation } {
  const [method, template] = route.split(' ');
  const path = template.replace(/:(\w+)/g, '{$1}');
  return { method: method.toLowerCase(), path, operation: document.paths[path]?.[method.toLowerCase()] };
}

function operations(): { route: string; method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      route: `${method.toUpperCase()} ${path}`,
      method,
      path,
      operation,
    })),
  );
}

/** The codes an operation documents for `status`, from its `{error, code}` schema's enum. */
function codesOf(operation: Operation, status: number): string[] {
  return operation.responses[String(status)]?.content?.['application/json']?.schema?.properties?.code?.enum ?? [];
}

function isSessionOnly(operation: Operation): boolean {
  return (operation.security ?? []).length > 0 && operation.security!.every((s) => 'session' in s);
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3 with the session cookie and the bot API key as security schemes', () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['botApiKey', 'session']);
  });

  it('documents every route Nest registered, with its method, and nothing else', () => {
    expect(registered.length).toBeGreaterThan(40);
    expect(registered.filter((route) => !documented(route).operation)).toEqual([]);
    const known = new Set(registered.map((route) => `${route.split(' ')[0]} ${documented(route).path}`));
    expect(
      operations()
        .filter(({ route }) => !known.has(route))
        .map(({ route }) => route),
    ).toEqual([]);
  });

  it('gives every route a summary, a tag, a success answer and its error answers with codes', () => {
    const problems: string[] = [];
    for (const { route, operation } of operations()) {
      if (!operation.summary) problems.push(`${route}: no summary`);
      if (!operation.tags?.length) problems.push(`${route}: no tag`);
      const statuses = Object.keys(operation.responses).map(Number);
      if (!statuses.some((s) => s >= 200 && s < 300)) problems.push(`${route}: no success answer`);
      const errors = statuses.filter((s) => s >= 400);
      if (errors.length === 0) problems.push(`${route}: no error answer`);
      for (const status of errors) {
        if (codesOf(operation, status).length === 0) problems.push(`${route}: ${status} lists no code`);
      }
      for (const status of [500, 503]) {
        if (codesOf(operation, status).length === 0) problems.push(`${route}: no ${status}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("lists the codes that each route's body, ids, session and Origin check can answer", () => {
    const problems: string[] = [];
    const need = (route: string, operation: Operation, status: number, code: string) => {
      if (!codesOf(operation, status).includes(code)) problems.push(`${route}: ${status} ${code} missing`);
    };
    for (const { route, method, path, operation } of operations()) {
      const content = operation.requestBody?.content ?? {};
      if ('application/json' in content) {
        for (const code of ['INVALID_JSON', 'VALIDATION_FAILED']) need(route, operation, 400, code);
      }
      if ('multipart/form-data' in content) need(route, operation, 400, 'FILE_REQUIRED');
      for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
        const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name);
        if (!parameter) problems.push(`${route}: path parameter ${name} undocumented`);
        else if (name !== 'token') need(route, operation, 400, 'INVALID_ID');
      }
      if (isSessionOnly(operation)) need(route, operation, 401, 'UNAUTHORIZED');
      if (UNSAFE.has(method) && !isCrossOriginPath(path)) need(route, operation, 403, 'ORIGIN_NOT_ALLOWED');
    }
    expect(problems).toEqual([]);
  });

  it('says which routes need the session cookie: those answer 401 without one, the others never do', async () => {
    const wrong: string[] = [];
    for (const { route, method, path, operation } of operations()) {
      const url = path.replace(/\{token\}/g, 'x'.repeat(43)).replace(/\{\w+\}/g, '1');
      const response = await t.http()[method as 'get'](url).set('Origin', t.origin);
      const refused = response.status === 401 && response.body.code === 'UNAUTHORIZED';
      if (refused !== isSessionOnly(operation)) wrong.push(`${route}: ${response.status} ${response.body.code}`);
    }
    expect(wrong).toEqual([]);
  });

  it('lists every error code that an AppError in the server names, on some route', () => {
    const documentedCodes = new Set(
      operations().flatMap(({ operation }) =>
        Object.keys(operation.responses).flatMap((status) => codesOf(operation, Number(status))),
      ),
    );
    const thrown = new Map<string, string>();
    const visit = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) visit(file);
        else if (file.endsWith('.ts') && !file.endsWith('.spec.ts')) {
          const text = fs.readFileSync(file, 'utf8');
          // `new AppError(status, 'CODE', …)` and `AppError.notFound(message, 'CODE')`: a code is an argument.
          for (const call of text.matchAll(/AppError(?:\.\w+)?\(([\s\S]*?)\);?\n/g)) {
            for (const [, code] of call[1].matchAll(/[(,]\s*'([A-Z][A-Z_]{2,})'\s*(?=[,)]|$)/g)) {
              thrown.set(code, path.relative(SOURCE, file));
            }
          }
        }
      }
    };
    visit(SOURCE);
    expect(thrown.size).toBeGreaterThan(30);
    expect(
      [...thrown].filter(([code]) => !documentedCodes.has(code)).map(([code, file]) => `${code} (${file})`),
    ).toEqual([]);
  });

  it('documents the chat call with the bot API key and its refusals', () => {
    const chat = document.paths['/api/chat'].post;
    expect(chat.security).toEqual(expect.arrayContaining([{}, { botApiKey: [] }]));
    expect(codesOf(chat, 401)).toEqual(['INVALID_API_KEY']);
    expect(codesOf(chat, 403)).toEqual(['DOMAIN_NOT_ALLOWED']);
    expect(codesOf(chat, 402)).toEqual(
      expect.arrayContaining(['OUT_OF_CREDITS', 'PAYMENT_FAILED', 'BOT_BUDGET_REACHED']),
    );
  });

  it('describes request bodies from their validation rules', () => {
    const schemas = (document.components as unknown as { schemas: Record<string, Record<string, unknown>> }).schemas;
    expect(schemas.ChatRequestDto).toMatchObject({
      required: expect.arrayContaining(['botId', 'prompt']),
      properties: { botId: { type: 'integer', minimum: 1 }, prompt: { type: 'string', minLength: 1 } },
    });
    expect(schemas.UpdateBotDto.required ?? []).toEqual([]);
    expect(schemas.UpdateBotDto).toMatchObject({
      properties: {
        model: { enum: ['gpt-3.5-turbo', 'gpt-4-turbo', 'gpt-4o', 'gpt-4o-mini'] },
        bubbleColor: { description: expect.stringContaining('linear-gradient') },
      },
    });
  });

  it('documents each JSON answer with the schema generated from its contract type, none written by hand', () => {
    // Compared with every $ref inlined, from the document's schemas and from the generated ones.
    const generated = [...Object.values(CONTRACT_SCHEMAS.routes), ...Object.values(CONTRACT_SCHEMAS.types)].map((s) =>
      JSON.stringify(inlineRefs(s, CONTRACT_SCHEMAS.schemas)),
    );
    const answers = operations().flatMap(({ route, operation }) =>
      Object.entries(operation.responses)
        .filter(([status]) => Number(status) >= 200 && Number(status) < 300)
        .flatMap(([status, response]) =>
          Object.entries(response.content ?? {})
            .filter(([type]) => type === 'application/json')
            .map(([, content]) => ({
              answer: `${route} ${status}`,
              schema: JSON.stringify(inlineRefs(content.schema, document.components.schemas)),
            })),
        ),
    );
    expect(answers.length).toBeGreaterThan(50);
    expect(answers.filter(({ schema }) => !generated.includes(schema)).map(({ answer }) => answer)).toEqual([]);
    const chat = document.paths['/api/chat'].post.responses['200'].content!;
    expect(inlineRefs(chat['application/json'].schema, document.components.schemas)).toEqual(
      inlineRefs(CONTRACT_SCHEMAS.types.ChatAnswerResponse, CONTRACT_SCHEMAS.schemas),
    );
    expect(chat['text/event-stream']).toBeDefined();
  });

  it('writes each contract shape once, in components.schemas, and every $ref names one there', () => {
    expect(document.paths['/api/user/me'].get.responses['200'].content!['application/json'].schema).toEqual({
      $ref: '#/components/schemas/MeResponse',
    });
    expect(document.components.schemas).toMatchObject(CONTRACT_SCHEMAS.schemas);
    const references = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]*)"/g)].map((m) => m[1]);
    expect(references.length).toBeGreaterThan(50);
    expect(
      references.filter((ref) => !(ref.replace('#/components/schemas/', '') in document.components.schemas)),
    ).toEqual([]);
  });
});

describe('the reference page at /api/docs', () => {
  it('is Swagger UI under the strict CSP: its scripts and styles are files served from /api/docs/', async () => {
    const page = await t.http().get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script>/);
    const assets = [...page.text.matchAll(/(?:src|href)="\.\/docs\/([\w.-]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets).toEqual(expect.arrayContaining(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-init.js']));
    for (const asset of assets) {
      const response = await t.http().get(`/api/docs/${asset}`);
      expect([asset, response.status]).toEqual([asset, 200]);
    }
    const bundle = await t.http().get('/api/docs/swagger-ui-bundle.js').set('Accept-Encoding', 'gzip');
    expect(bundle.headers['content-encoding']).toBe('gzip');
    const init = await t.http().get('/api/docs/swagger-ui-init.js');
    expect(init.text).toContain('"/api/chat"');
  });
});
