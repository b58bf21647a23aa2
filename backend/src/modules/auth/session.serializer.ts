import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PassportSerializer } from '@nestjs/passport';
import type { SessionUser } from '../../common/current-user.decorator.js';
import { UsersService } from '../users/users.service.js';

type Done<T> = (error: unknown, value?: T | false) => void;
type Registered = (...args: never[]) => unknown;
/** The two lists passport keeps its (de)serializers in; passport tries them in order. */
interface PassportLists {
  _serializers: Registered[];
  _deserializers: Registered[];
}

/** The session holds only the user id; the user is re-read (and must still exist) per request. */
@Injectable()
export class SessionSerializer extends PassportSerializer implements OnModuleDestroy {
  private readonly registered: { serializer?: Registered; deserializer?: Registered };

  constructor(private readonly users: UsersService) {
    super();
    // The base constructor has just appended our pair to passport's process-wide lists.
    const lists = this.getPassportInstance() as unknown as PassportLists;
    this.registered = { serializer: lists._serializers.at(-1), deserializer: lists._deserializers.at(-1) };
  }

  /**
   * passport is one object per process and asks the first registered deserializer: an app that
   * closed would keep answering for every app started after it in the same process (tests,
   * or two instances side by side) with "Driver not Connected". A closing app removes its pair.
   */
  onModuleDestroy(): void {
    const lists = this.getPassportInstance() as unknown as PassportLists;
    lists._serializers = lists._serializers.filter((f) => f !== this.registered.serializer);
    lists._deserializers = lists._deserializers.filter((f) => f !== this.registered.deserializer);
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
