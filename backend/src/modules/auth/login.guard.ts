import { Injectable, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { Request } from 'express';
import { AppError } from '../../common/app-error.js';
import { LoginDto } from './auth.dto.js';

/**
 * Runs passport-local and starts the session (passport regenerates the session id at login).
 * Guards run before pipes, so the body is validated here first: a malformed login is a 400
 * naming the field, not passport's bare 401.
 */
@Injectable()
export class LoginGuard extends AuthGuard('local') {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const dto = plainToInstance(LoginDto, request.body ?? {});
    const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
    if (errors.length > 0) {
      const first = Object.values(errors[0].constraints ?? {})[0] ?? 'The request is not valid.';
      throw AppError.badRequest(first, 'VALIDATION_FAILED');
    }
    request.body = { email: dto.email, password: dto.password };
    const ok = (await super.canActivate(context)) as boolean;
    await super.logIn(request);
    return ok;
  }

  override handleRequest<TUser>(error: unknown, user: TUser): TUser {
    if (error instanceof Error) throw error;
    if (error) throw AppError.unauthorized('Invalid email or password.', 'INVALID_CREDENTIALS');
    if (!user) throw AppError.unauthorized('Invalid email or password.', 'INVALID_CREDENTIALS');
    return user;
  }
}
