import { HttpStatus, Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import type { SessionUser } from '../../common/current-user.decorator.js';
import { UsersService } from '../users/users.service.js';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './passwords.js';

export const INVALID_CREDENTIALS = 'Invalid email or password.';

@Injectable()
export class AuthService {
  constructor(private readonly users: UsersService) {}

  /** Same answer and similar time whether the e-mail is unknown or the password is wrong. */
  async validateCredentials(email: string, password: string): Promise<SessionUser> {
    const user = await this.users.findActiveByEmail(email);
    const ok = await verifyPassword(user?.passwordHash ?? DUMMY_PASSWORD_HASH, password);
    if (!user || !ok || user.isSystem) throw new AppError(HttpStatus.UNAUTHORIZED, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
    if (!user.emailVerifiedAt) {
      throw new AppError(HttpStatus.FORBIDDEN, 'EMAIL_NOT_VERIFIED', 'Please verify your email before logging in.');
    }
    await this.users.recordLogin(user.id);
    return { id: user.id, email: user.email };
  }
}
