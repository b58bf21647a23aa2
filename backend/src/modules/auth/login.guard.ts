import { HttpStatus, Injectable, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { Request } from 'express';
import { AppError } from '../../common/app-error.js';
import { AuthThrottle } from './auth-throttle.js';
import { LoginDto } from './auth.dto.js';
import { INVALID_CREDENTIALS } from './auth.service.js';

/** Same wording as the global validation pipe: "Property remember should not exist." */
function sentence(text: string): string {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/**
 * Runs passport-local and starts the session (passport regenerates the session id at login).
 * Guards run before pipes, so the body is validated here first: a malformed login is a 400
 * naming the field, not passport's bare 401. A blocked e-mail or IP is refused before the
 * password is even checked; each wrong password counts against both.
 */
@Injectable()
export class LoginGuard extends AuthGuard('local') {
  constructor(private readonly throttle: AuthThrottle) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const dto = plainToInstance(LoginDto, request.body ?? {});
    const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
    if (errors.length > 0) {
      const first = Object.values(errors[0].constraints ?? {})[0] ?? 'The request is not valid.';
      throw AppError.badRequest(sentence(first), 'VALIDATION_FAILED');
    }
    const ip = request.ip ?? request.socket.remoteAddress ?? 'unknown';
    await this.throttle.assertLoginAllowed(dto.email, ip);
    request.body = { email: dto.email, password: dto.password };
    try {
      const ok = (await super.canActivate(context)) as boolean;
      await super.logIn(request);
      request.session.authenticatedAt = Date.now();
      return ok;
    } catch (error) {
      if (error instanceof AppError && error.getStatus() === Number(HttpStatus.UNAUTHORIZED)) {
        await this.throttle.recordLoginFailure(dto.email, ip);
      }
      throw error;
    }
  }

  override handleRequest<TUser>(error: unknown, user: TUser): TUser {
    if (error instanceof Error) throw error;
    if (error) throw new Error('Login failed.');
    if (!user) throw AppError.unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    return user;
  }
}
