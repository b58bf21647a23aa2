import type { ApiErrorBody, ErrorCode } from '@botsmith/contract';
import { Catch, HttpException, HttpStatus, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { AppError } from './app-error.js';
import { isServiceOutage, serviceUnavailable } from './outage.js';
import { describeError, describeErrorWithStack } from './error-description.js';

/** `{error, code}`: the contract's ApiErrorBody. */
export type ErrorBody = ApiErrorBody;

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/** Errors raised by Express middleware (body parser, multer) carry a status of their own. */
interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

/**
 * Every error leaves the API as `{error, code}` with a fitting status. An unreachable database or
 * Redis is a 503 SERVICE_UNAVAILABLE with Retry-After (the client may simply try again); other
 * unknown errors are logged with their stack and answered with a generic sentence: a stack never
 * reaches a client. It also handles what Express middleware passes on (the session store), as
 * Nest's final error handler runs this filter.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');
  private lastOutageLog = 0;

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body, headers } = this.describe(exception);
    if (response.headersSent) {
      response.end();
      return;
    }
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    response.status(status).json(body);
  }

  describe(exception: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
    if (exception instanceof AppError) {
      return { status: exception.getStatus(), body: exception.getResponse() as ErrorBody, headers: exception.headers };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const cause = exception.cause as HttpLikeError | undefined;
      if (
        cause &&
        typeof cause === 'object' &&
        (cause.type || cause instanceof SyntaxError || cause instanceof URIError)
      ) {
        return { status, body: this.middlewareError(status, cause), headers: {} };
      }
      const payload = exception.getResponse();
      const code = CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'ERROR');
      const headers: Record<string, string> = {};
      if (status === 429 && typeof payload === 'object' && payload && 'retryAfter' in payload) {
        headers['Retry-After'] = String((payload as { retryAfter: number }).retryAfter);
      }
      return { status, body: { error: this.sentence(payload, exception.message), code }, headers };
    }
    const httpLike = exception as HttpLikeError | undefined;
    const status = httpLike?.status ?? httpLike?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return { status, body: this.middlewareError(status, httpLike!), headers: {} };
    }
    if (isServiceOutage(exception)) {
      this.logOutage(exception);
      const unavailable = serviceUnavailable();
      return {
        status: unavailable.getStatus(),
        body: unavailable.getResponse() as ErrorBody,
        headers: unavailable.headers,
      };
    }
    this.logger.error(describeErrorWithStack(exception));
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' },
      headers: {},
    };
  }

  /** One line per 10 s at most: an outage fails every request, and the log must stay readable. */
  private logOutage(exception: unknown): void {
    if (Date.now() - this.lastOutageLog < 10_000) return;
    this.lastOutageLog = Date.now();
    const reason = describeError(exception);
    this.logger.error(`A backing service is unreachable; answering 503 SERVICE_UNAVAILABLE (${reason})`);
  }

  private middlewareError(status: number, error: HttpLikeError): ErrorBody {
    if (error.type === 'entity.parse.failed' || error instanceof SyntaxError)
      return { error: 'The request body is not valid JSON.', code: 'INVALID_JSON' };
    if (error.type === 'entity.too.large')
      return { error: 'The request body is too large.', code: 'PAYLOAD_TOO_LARGE' };
    if (error instanceof URIError) return { error: 'The address is not valid.', code: 'BAD_REQUEST' };
    const code = CODE_BY_STATUS[status] ?? 'BAD_REQUEST';
    return { error: error.expose && error.message ? error.message : 'The request could not be processed.', code };
  }

  private sentence(payload: string | object, fallback: string): string {
    if (typeof payload === 'string') return payload;
    const record = payload as { error?: unknown; message?: unknown };
    if (typeof record.error === 'string' && record.message === undefined) return record.error;
    if (Array.isArray(record.message)) return String(record.message[0]);
    if (typeof record.message === 'string') return record.message;
    return fallback;
  }
}
