import {
  applyDecorators,
  HttpStatus,
  Injectable,
  mixin,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type Type,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';
import type { Observable } from 'rxjs';
import { AppError } from './app-error.js';
import { REFUSED_UPLOAD_DRAIN } from './constants.js';
import { obj } from './openapi/schemas.js';

/** Room for the multipart boundary and part headers around the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * Reads and drops the rest of a refused request's body, then closes its connection. Closing while
 * the client still sends makes the kernel reset the connection, and the client usually sees EPIPE
 * or ECONNRESET, never the 413 sentence; so the answer goes out on a connection kept open (no
 * `Connection: close`, which would make Node close it as soon as the answer is written) while the
 * body is read, up to REFUSED_UPLOAD_DRAIN's bytes and time, and it is closed once both are done.
 * Past a bound it is cut off: nobody may make the API read forever.
 */
function drainThenClose(request: Request, response: Response): void {
  const socket = request.socket;
  let read = 0;
  const cutOff = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(cutOff, REFUSED_UPLOAD_DRAIN.maxMs);
  timer.unref();
  const answered = new Promise<void>((resolve) => {
    response.once('finish', resolve);
    response.once('close', resolve);
  });
  const drained = new Promise<void>((resolve) => {
    request.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > REFUSED_UPLOAD_DRAIN.maxBytes) cutOff();
    });
    request.once('end', resolve);
    request.once('close', resolve);
  });
  request.resume();
  void Promise.all([answered, drained]).then(() => {
    clearTimeout(timer);
    if (!socket.destroyed) socket.end();
  });
}

/** The one file a SingleFileInterceptor read, as services receive it. */
export interface UploadedFileLike {
  buffer: Buffer;
  originalname: string;
  size: number;
}

export interface SingleFileOptions {
  /** The multipart field that carries the file. */
  field: string;
  /** Largest accepted size in bytes; the upload is cut off while streaming past it. */
  maxBytes: number;
  /** The sentence for a file over `maxBytes` (413). */
  tooLargeMessage: string;
}

/**
 * A route that takes one file as multipart/form-data in `options.field`: SingleFileInterceptor,
 * and the request body the OpenAPI document shows for it. Read the file with `@UploadedFile()`.
 */
export function SingleFileUpload(options: SingleFileOptions): MethodDecorator {
  return applyDecorators(
    ApiConsumes('multipart/form-data'),
    ApiBody({ schema: obj({ [options.field]: { type: 'string', format: 'binary' } }) }),
    UseInterceptors(SingleFileInterceptor(options)),
  );
}

/**
 * Reads exactly one file from a multipart request into memory, never more than `maxBytes`:
 * multer stops at the limit while the body streams in and discards the rest without keeping it. Runs after
 * the guards, so nothing is read for a visitor without a session. Errors become `{error, code}`.
 */
export function SingleFileInterceptor(options: SingleFileOptions): Type<NestInterceptor> {
  @Injectable()
  class SingleFileMixin implements NestInterceptor {
    private readonly middleware = multer({
      storage: multer.memoryStorage(),
      defParamCharset: 'utf8',
      limits: {
        fileSize: options.maxBytes,
        files: 1,
        fields: 0,
        parts: 1,
        fieldNameSize: 100,
        headerPairs: 20,
      },
    }).single(options.field);

    async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const http = context.switchToHttp();
      const request = http.getRequest<Request>();
      const response = http.getResponse<Response>();
      // A body declared far larger than the limit is refused before a byte of it is stored: the
      // 413 goes out at once, and the rest is read and dropped, within bounds, before the
      // connection closes (drainThenClose). (Without a declared length, multer stops storing at
      // the limit and discards the remainder as it arrives.)
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes + MULTIPART_OVERHEAD_BYTES) {
        drainThenClose(request, response);
        throw tooLarge();
      }
      await new Promise<void>((resolve, reject) => {
        this.middleware(request, response, (error: unknown) => (error ? reject(toAppError(error)) : resolve()));
      });
      if (!request.file) {
        throw AppError.badRequest(`Attach the file in the multipart field "${options.field}".`, 'FILE_REQUIRED');
      }
      return next.handle();
    }
  }

  function tooLarge(): AppError {
    return new AppError(HttpStatus.PAYLOAD_TOO_LARGE, 'FILE_TOO_LARGE', options.tooLargeMessage);
  }

  function toAppError(error: unknown): AppError {
    if (error instanceof MulterError) {
      if (error.code === 'LIMIT_FILE_SIZE') return tooLarge();
      return AppError.badRequest(
        `Send exactly one file, in the multipart field "${options.field}", and nothing else.`,
        'INVALID_UPLOAD',
      );
    }
    return AppError.badRequest('The upload is not a valid multipart form.', 'INVALID_UPLOAD');
  }

  return mixin(SingleFileMixin);
}
