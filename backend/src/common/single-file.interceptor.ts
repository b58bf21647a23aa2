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
import { obj } from './openapi/schemas.js';

/** Room for the multipart boundary and part headers around the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

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
      // A body declared far larger than the limit is refused before a byte of it is read; the
      // connection then closes instead of receiving the rest. (Without a declared length, multer
      // stops storing at the limit and discards the remainder as it arrives.)
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes + MULTIPART_OVERHEAD_BYTES) {
        response.setHeader('Connection', 'close');
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
