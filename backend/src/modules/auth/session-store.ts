import session from 'express-session';
import type { SessionsRepository } from './sessions.repository.js';

type Callback<T = void> = (error?: unknown, value?: T) => void;

/**
 * express-session store on the `sessions` table, through the application's own database pool
 * (SessionsRepository). A separate `pg` pool (as connect-pg-simple opens) would need a second
 * connection, which the embedded database cannot serve; one pool also keeps every API instance
 * on the same sessions.
 */
export class DatabaseSessionStore extends session.Store {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly idleMs: number,
  ) {
    super();
  }

  override get(sid: string, callback: Callback<session.SessionData | null>): void {
    this.sessions.find<session.SessionData>(sid).then((data) => callback(undefined, data), callback);
  }

  override set(sid: string, data: session.SessionData, callback?: Callback): void {
    this.sessions.save(sid, data, this.expiry(data)).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  override destroy(sid: string, callback?: Callback): void {
    this.sessions.delete(sid).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  override touch(sid: string, data: session.SessionData, callback?: Callback): void {
    this.sessions.extend(sid, this.expiry(data)).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  private expiry(data: session.SessionData): Date {
    const cookieExpiry = data.cookie?.expires ? new Date(data.cookie.expires) : undefined;
    return cookieExpiry ?? new Date(Date.now() + this.idleMs);
  }
}
