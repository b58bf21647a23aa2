import session from 'express-session';
import type { DataSource } from 'typeorm';

type Callback<T = void> = (error?: unknown, value?: T) => void;

/**
 * express-session store on the `sessions` table, through TypeORM's own pool. A separate `pg`
 * pool (as connect-pg-simple opens) would need a second connection, which the embedded
 * database cannot serve; one pool also keeps every API instance on the same sessions.
 */
export class TypeOrmSessionStore extends session.Store {
  constructor(
    private readonly dataSource: DataSource,
    private readonly idleMs: number,
  ) {
    super();
  }

  override get(sid: string, callback: Callback<session.SessionData | null>): void {
    this.dataSource
      .query<{ sess: session.SessionData }[]>(`SELECT sess FROM sessions WHERE sid = $1 AND expire > now()`, [sid])
      .then((rows) => callback(undefined, rows[0]?.sess ?? null), callback);
  }

  override set(sid: string, data: session.SessionData, callback?: Callback): void {
    this.dataSource
      .query(
        `INSERT INTO sessions (sid, sess, expire) VALUES ($1, $2, $3)
         ON CONFLICT (sid) DO UPDATE SET sess = EXCLUDED.sess, expire = EXCLUDED.expire`,
        [sid, JSON.stringify(data), this.expiry(data)],
      )
      .then(
        () => callback?.(),
        (error: unknown) => callback?.(error),
      );
  }

  override destroy(sid: string, callback?: Callback): void {
    this.dataSource.query(`DELETE FROM sessions WHERE sid = $1`, [sid]).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  override touch(sid: string, data: session.SessionData, callback?: Callback): void {
    this.dataSource.query(`UPDATE sessions SET expire = $2 WHERE sid = $1`, [sid, this.expiry(data)]).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  private expiry(data: session.SessionData): Date {
    const cookieExpiry = data.cookie?.expires ? new Date(data.cookie.expires) : undefined;
    return cookieExpiry ?? new Date(Date.now() + this.idleMs);
  }
}
