import { ApiProperty, DECORATORS } from '@nestjs/swagger';
import { getMetadataStorage, type ValidationArguments } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata.js';

type Schema = Record<string, unknown>;

const described = new WeakSet<object>();

function messageOf(meta: ValidationMetadata, property: string): string | undefined {
  const args = { property, constraints: meta.constraints, value: undefined } as unknown as ValidationArguments;
  if (typeof meta.message === 'string') return meta.message;
  if (typeof meta.message === 'function') return meta.message(args);
  if (!meta.constraintCls) return undefined;
  const instance = new (meta.constraintCls as new () => { defaultMessage?(a: ValidationArguments): string })();
  return instance.defaultMessage?.(args);
}

/** One property's schema from its class-validator rules (the rules are the contract). */
function schemaOf(property: string, metas: ValidationMetadata[]): { schema: Schema; required: boolean } {
  const schema: Schema = {};
  const notes: string[] = [];
  let required = true;
  for (const meta of metas) {
    if (meta.type === 'conditionalValidation') {
      required = false;
      continue;
    }
    const [first] = (meta.constraints ?? []) as unknown[];
    switch (meta.name ?? '') {
      case 'isString':
        schema.type = 'string';
        break;
      case 'isInt':
        schema.type = 'integer';
        break;
      case 'isNumber':
        schema.type ??= 'number';
        break;
      case 'isEmail':
        schema.type = 'string';
        schema.format = 'email';
        break;
      case 'isNotEmpty':
        schema.minLength = 1;
        break;
      case 'maxLength':
        schema.maxLength = first;
        break;
      case 'min':
        schema.minimum = first;
        break;
      case 'max':
        schema.maximum = first;
        break;
      case 'isIn':
        schema.enum = first;
        schema.type ??= typeof (first as unknown[])[0] === 'number' ? 'number' : 'string';
        break;
      case 'matches':
        schema.type = 'string';
        schema.pattern = (first as RegExp).source;
        break;
      case 'isArray':
        schema.type = 'array';
        break;
      case 'arrayMaxSize':
        schema.maxItems = first;
        break;
      default:
        // A rule of our own (gradient, radius, domain, total length): its message says what it wants.
        if (meta.type === 'customValidation') {
          const message = messageOf(meta, property);
          if (message) notes.push(message);
        }
    }
  }
  if (schema.type === 'integer' && schema.enum === undefined) delete schema.minLength;
  if (schema.type === undefined && schema.maxLength !== undefined) schema.type = 'string';
  if (schema.type === undefined) schema.type = 'string';
  if (notes.length > 0) schema.description = notes.join(' ');
  return { schema, required };
}

/**
 * Gives every DTO class that class-validator knows its OpenAPI properties, derived from its
 * validation rules (type, limits, enum, pattern, optional). An explicit `@ApiProperty` on a
 * property wins over the derived one (for nested types, nullable fields and descriptions).
 * Idempotent; runs when the OpenAPI document is built.
 */
export function describeValidatedClasses(): void {
  const storage = getMetadataStorage();
  // class-validator keeps its rules by class; it has no public list of the classes themselves.
  type Target = abstract new (...args: never[]) => object;
  const byTarget = (storage as unknown as { validationMetadatas: Map<Target, ValidationMetadata[]> })
    .validationMetadatas;
  for (const target of byTarget.keys()) {
    if (typeof target !== 'function' || described.has(target)) continue;
    described.add(target);
    const metas = storage.getTargetValidationMetadatas(target, '', true, false);
    const byProperty = new Map<string, ValidationMetadata[]>();
    for (const meta of metas) {
      if (!meta.propertyName) continue;
      byProperty.set(meta.propertyName, [...(byProperty.get(meta.propertyName) ?? []), meta]);
    }
    for (const [property, list] of byProperty) {
      const { schema, required } = schemaOf(property, list);
      const prototype = target.prototype as object;
      const explicit = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, prototype, property) as Schema | undefined;
      ApiProperty({ ...schema, required, ...explicit })(prototype, property);
    }
  }
}
