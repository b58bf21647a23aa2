import { HttpStatus, ValidationPipe, type ValidationError } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { AppError } from './app-error.js';
import { findUnstorableText, unstorableTextMessage } from './storable-text.js';

function firstMessage(errors: ValidationError[], parent = ''): { field: string; message: string } | undefined {
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const constraints = Object.values(error.constraints ?? {});
    if (constraints.length > 0) return { field, message: constraints[0] };
    const nested = firstMessage(error.children ?? [], field);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * The one global pipe: unknown fields are refused (not silently dropped), values are
 * transformed into the DTO's types, and the error names the first bad field.
 * Before any validator runs, text that PostgreSQL cannot store as sent (NUL, lone surrogates) is
 * refused with a sentence naming the field, for every DTO of every route: a database error must
 * never be how bad input is found out, and some validators crash on such text (`isEmail` runs
 * `encodeURI`, which throws on a lone surrogate). Fields where these characters are harmless clean
 * them in their DTO's @Transform, which runs before this check.
 */
export class AppValidationPipe extends ValidationPipe {
  protected override async validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> {
    const found = findUnstorableText(object);
    if (found) {
      throw new AppError(
        HttpStatus.BAD_REQUEST,
        'INVALID_CHARACTERS',
        unstorableTextMessage(found.field, found.problem),
      );
    }
    return super.validate(object, options);
  }
}

export function createValidationPipe(): AppValidationPipe {
  return new AppValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const first = firstMessage(errors);
      const message = first ? sentence(first.message) : 'The request is not valid.';
      return new AppError(HttpStatus.BAD_REQUEST, 'VALIDATION_FAILED', message);
    },
  });
}

function sentence(text: string): string {
  const trimmed = text.trim();
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}
