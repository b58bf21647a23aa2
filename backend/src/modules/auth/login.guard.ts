import { HttpStatus, Injectable, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { AppError } from '../../common/app-error.js';
import { createValidationPipe } from '../../common/validation.js';
import { AuthThrottle } from './auth-throttle.js';
import { LoginDto } from './auth.dto.js';
import { INVALID_CREDENTIALS } from './auth.service.js';

/**
 * Runs passport-local and starts the session (passport regenerates the session id at login).
 * Guards run before pipes, so the body is validated here first, by the same pipe as every other
 * body (same rules, same sentences): a malformed login is a 400 naming the field, not passport's
 * bare 401 or a crash inside the strategy. A blocked e-mail or IP is refused before the
 * password is even checked; each wrong password counts against both.
 */
@Injectable()
export class LoginGuard extends AuthGuard('local') {
  private readonly validation = createValidationPipe();

  constructor(private readonly throttle: AuthThrottle) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const dto = (await this.validation.transform(request.body ?? {}, {
      type: 'body',
      metatype: LoginDto,
    })) as LoginDto;
    const ip = request.ip ?? request.socket.remoteAddress;
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
    // Kept as the cause: the filter tells an unreachable database (503) from a bug (500) by it.
    if (error) throw new Error('Login failed.', { cause: error });
    if (!user) throw AppError.unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    return user;
  }
}
