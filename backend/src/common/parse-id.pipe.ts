import { createParamDecorator, Injectable, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import type { Request } from 'express';
import { AppError } from './app-error.js';

const MAX_ID = 2_147_483_647;

/**
 * Ids in paths are positive integers that fit the `integer` columns; anything else is 400
 * (never a database error for `99999999999` or `1e3`).
 */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value)) {
      const id = Number(value);
      if (id <= MAX_ID) return id;
    }
    throw AppError.badRequest('The id in the address must be a whole number.', 'INVALID_ID');
  }
}

const rawParam = createParamDecorator((name: string, context: ExecutionContext): unknown => {
  return context.switchToHttp().getRequest<Request>().params[name];
});

/**
 * `@IdParam('id') id: number`: the path parameter checked by {@link ParseIdPipe}. A custom
 * decorator, because the global ValidationPipe would otherwise turn `1e3` into 1000 and `01`
 * into 1 before any id pipe sees the text.
 */
export function IdParam(name: string): ParameterDecorator {
  const param = rawParam(name, ParseIdPipe);
  return (target, key, index) => {
    param(target, key, index);
    // A custom parameter is invisible to the OpenAPI explorer: describe it on the route here.
    const descriptor = key === undefined ? undefined : Object.getOwnPropertyDescriptor(target, key);
    if (key !== undefined && descriptor) {
      ApiParam({ name, schema: { type: 'integer', minimum: 1, maximum: MAX_ID }, description: 'A whole number id.' })(
        target,
        key,
        descriptor,
      );
    }
  };
}
