import compression from 'compression';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { withContractSchemas } from './common/openapi/schemas.js';
import { SECURITY } from './common/openapi/security.js';
import { describeValidatedClasses } from './common/openapi/validator-schemas.js';
import { SESSION_COOKIE } from './modules/auth/sessions.js';

/** Where the API reference is served (under the global prefix `api`). */
export const OPENAPI_JSON_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs';

/**
 * The OpenAPI document of every route, built from the controllers' decorators and the DTOs' rules,
 * with the contract's shapes that the answers reference.
 */
export function buildOpenApiDocument(app: NestExpressApplication): OpenAPIObject {
  describeValidatedClasses();
  const config = new DocumentBuilder()
    .setTitle('Botsmith API')
    .setDescription(
      [
        'Every route of the Botsmith server. Errors are always `{error, code}`: a sentence a person can act on',
        'and a stable code (each route lists its codes by status). The dashboard uses the session cookie',
        `(\`${SESSION_COOKIE}\`, set by POST /api/auth/login); state-changing calls with the cookie must come from`,
        "the product's own site (`Origin`). The owner's own server calls POST /api/chat with a bot's API key",
        '(`Authorization: Bearer <apiKey>`): see docs/chat-api.md in the repository.',
      ].join(' '),
    )
    .setVersion('1')
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, SECURITY.session)
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key',
        description: "A bot's API key (Deploy tab, or POST /api/bots/{id}/api-key).",
      },
      SECURITY.botApiKey,
    )
    .build();
  return withContractSchemas(SwaggerModule.createDocument(app, config, { ignoreGlobalPrefix: false }));
}

/**
 * Serves the document at /api/openapi.json and Swagger UI at /api/docs (its scripts and styles
 * are files of swagger-ui-dist served from /api/docs/, so the site's CSP needs no exception).
 * Served in production too: it describes only what the public API already answers, and holds
 * no secret. The document is built on the first request, not at start.
 */
export function mountApiReference(app: NestExpressApplication): void {
  let document: OpenAPIObject | undefined;
  // Swagger UI's bundle is 1.5 MB; the rest of /api is never compressed (server-sent chat events).
  app.use(API_DOCS_PATH, compression());
  SwaggerModule.setup('docs', app, () => (document ??= buildOpenApiDocument(app)), {
    useGlobalPrefix: true,
    jsonDocumentUrl: 'openapi.json',
    raw: ['json'],
    customSiteTitle: 'Botsmith API reference',
  });
}
