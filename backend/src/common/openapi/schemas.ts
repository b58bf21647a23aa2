import { ApiResponse, type OpenAPIObject } from '@nestjs/swagger';
import { CONTRACT_SCHEMAS } from './contract-schemas.generated.js';

/**
 * Success answers in the OpenAPI document: their schemas are generated from the contract's types
 * (contract-schemas.generated.ts), never written here; the error answers come from ApiErrors.
 */
export type JsonSchema = Record<string, unknown>;

/** An object whose listed properties are all present. */
export function obj(properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return { type: 'object', required: Object.keys(properties), properties, ...(description ? { description } : {}) };
}

/** A contract type that ApiAnswer may name, for a route that writes its answer itself (`@Res()`). */
export type ContractAnswerType = keyof typeof CONTRACT_SCHEMAS.types;

/**
 * The JSON schema of a route's success answer, or undefined when it has no body: generated from the
 * method's return type (`Promise<MeResponse>`) or from the contract type it names, never written by
 * hand (backend/scripts/contract-schemas.mjs; docs/architecture.md#api-reference).
 */
export function answerSchema(controller: string, method: string, type?: ContractAnswerType): JsonSchema | undefined {
  if (type) return CONTRACT_SCHEMAS.types[type];
  return (CONTRACT_SCHEMAS.routes as Record<string, JsonSchema>)[`${controller}.${method}`];
}

/**
 * Documents a route's success answer: its status, what it means, and its JSON body, whose schema
 * comes from what the method returns (a contract type), or from `type`, the contract type of the
 * body a route writes itself (a streamed or `@Res()` answer). A route returning nothing has no body.
 */
export function ApiAnswer(status: number, description: string, type?: ContractAnswerType): MethodDecorator {
  return (target, key, descriptor) => {
    const schema = answerSchema((target as { constructor: { name: string } }).constructor.name, String(key), type);
    ApiResponse({ status, description, ...(schema ? { schema } : {}) })(target, key, descriptor);
  };
}

/**
 * The document with the contract's shapes that the answers reference
 * (`$ref: '#/components/schemas/BotResponse'`), each written once. A request DTO of the same name
 * would make one of the two wrong, so a shared name fails the document rather than overwrite one.
 */
export function withContractSchemas(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const shared = Object.keys(CONTRACT_SCHEMAS.schemas).filter((name) => name in schemas);
  if (shared.length > 0) throw new Error(`OpenAPI schemas named by both a DTO and the contract: ${shared.join(', ')}`);
  const contract = CONTRACT_SCHEMAS.schemas as Record<string, JsonSchema> as typeof schemas;
  return { ...document, components: { ...document.components, schemas: { ...schemas, ...contract } } };
}

/** A success answer that is a file download rather than JSON. */
export function ApiFileAnswer(contentType: string, description: string): MethodDecorator {
  return ApiResponse({
    status: 200,
    description,
    content: { [contentType]: { schema: { type: 'string', format: 'binary' } } },
  });
}
