import { ApiResponse } from '@nestjs/swagger';

/** Small builders for the JSON schemas of success answers (the error answers come from ApiErrors). */
export type JsonSchema = Record<string, unknown>;

export const str = (description?: string): JsonSchema => ({ type: 'string', ...(description ? { description } : {}) });
export const int = (description?: string): JsonSchema => ({ type: 'integer', ...(description ? { description } : {}) });
export const num = (description?: string): JsonSchema => ({ type: 'number', ...(description ? { description } : {}) });
export const bool = (description?: string): JsonSchema => ({
  type: 'boolean',
  ...(description ? { description } : {}),
});
export const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, nullable: true });
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** An object whose listed properties are all present. */
export function obj(properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return { type: 'object', required: Object.keys(properties), properties, ...(description ? { description } : {}) };
}

/** `{message}`: the confirmation sentence many calls answer. */
export const MESSAGE = obj({ message: str('A sentence to show.') });

/** Documents a route's success answer: its status, what it means, and its JSON body (if any). */
export function ApiAnswer(status: number, description: string, schema?: JsonSchema): MethodDecorator {
  return ApiResponse({ status, description, ...(schema ? { schema } : {}) });
}

/** A success answer that is a file download rather than JSON. */
export function ApiFileAnswer(contentType: string, description: string): MethodDecorator {
  return ApiResponse({
    status: 200,
    description,
    content: { [contentType]: { schema: { type: 'string', format: 'binary' } } },
  });
}
