const PREFIX = '#/components/schemas/';

/**
 * A JSON schema with every `$ref: '#/components/schemas/<name>'` replaced by that schema, so a test
 * compares answers as a client reads them, however the document shares its shapes. A reference
 * with keywords beside it sits in a one-member `allOf` (OpenAPI 3.0 ignores a `$ref`'s siblings):
 * that is merged back into one schema. A shape that contains itself keeps its inner reference.
 */
export function inlineRefs(schema: unknown, schemas: Record<string, unknown>, within: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlineRefs(item, schemas, within));
  if (schema === null || typeof schema !== 'object') return schema;
  const { $ref } = schema as { $ref?: unknown };
  if (typeof $ref === 'string') {
    const name = $ref.startsWith(PREFIX) ? $ref.slice(PREFIX.length) : undefined;
    if (name === undefined || !(name in schemas)) throw new Error(`unresolved $ref ${$ref}`);
    return within.includes(name) ? schema : inlineRefs(schemas[name], schemas, [...within, name]);
  }
  const { allOf, ...keywords } = schema as { allOf?: unknown };
  if (Array.isArray(allOf) && allOf.length === 1 && Object.keys(keywords).length > 0) {
    return {
      ...(inlineRefs(allOf[0], schemas, within) as object),
      ...(inlineRefs(keywords, schemas, within) as object),
    };
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inlineRefs(value, schemas, within)]));
}
