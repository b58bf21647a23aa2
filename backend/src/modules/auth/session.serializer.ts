import { Injectable } from '@nestjs/common';
import { PassportSerializer } from '@nestjs/passport';
import type { SessionUser } from '../../common/current-user.decorator.js';
import { UsersService } from '../users/users.service.js';

type Done<T> = (error: unknown, value?: T | false) => void;

/** The session holds only the user id; the user is re-read (and must still exist) per request. */
@Injectable()
export class SessionSerializer extends PassportSerializer {
  constructor(private readonly users: UsersService) {
    super();
  }

  serializeUser(user: SessionUser, done: Done<number>): void {
    done(null, user.id);
  }

  deserializeUser(id: number, done: Done<SessionUser>): void {
    this.users.findActiveById(id).then(
      (user) => done(null, user ? { id: user.id, email: user.email } : false),
      (error: unknown) => done(error),
    );
  }
}
