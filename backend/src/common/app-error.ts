import type { ErrorCode } from '@botsmith/contract';
import { HttpException, HttpStatus } from '@nestjs/common';
import { secondsToNextUtcDay } from './utc-day.js';

/**
 * An error a person can act on: a short sentence plus a stable machine-readable code.
 * Services throw these; the global filter turns them into `{error, code}` (the contract's
 * ApiErrorBody and ErrorCode).
 */
export class AppError extends HttpException {
  constructor(
    status: HttpStatus,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super({ error: message, code }, status);
  }

  static badRequest(message: string, code: ErrorCode = 'BAD_REQUEST'): AppError {
    return new AppError(HttpStatus.BAD_REQUEST, code, message);
  }
  static unauthorized(message = 'Please sign in.', code: ErrorCode = 'UNAUTHORIZED'): AppError {
    return new AppError(HttpStatus.UNAUTHORIZED, code, message);
  }
  static forbidden(message: string, code: ErrorCode = 'FORBIDDEN'): AppError {
    return new AppError(HttpStatus.FORBIDDEN, code, message);
  }
  static notFound(message: string, code: ErrorCode = 'NOT_FOUND'): AppError {
    return new AppError(HttpStatus.NOT_FOUND, code, message);
  }
  static conflict(message: string, code: ErrorCode = 'CONFLICT'): AppError {
    return new AppError(HttpStatus.CONFLICT, code, message);
  }
  /**
   * 429 past a daily quota: `Retry-After` counts down to 00:00 UTC after `at`, when the quota
   * starts again (docs/product.md#quotas).
   */
  static dailyLimit(code: ErrorCode, message: string, at: Date): AppError {
    return new AppError(HttpStatus.TOO_MANY_REQUESTS, code, message, {
      'Retry-After': String(secondsToNextUtcDay(at)),
    });
  }
}
