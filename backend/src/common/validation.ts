import { HttpStatus, ValidationPipe, type ValidationError } from '@nestjs/common';
import { AppError } from './app-error.js';

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
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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
