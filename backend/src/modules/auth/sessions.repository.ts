import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';

/**
 * The only place that queries `sessions`: by id for the express-session store
 * (session-store.ts), by owner for signing out everywhere. Passport keeps the owner's id at
 * sess.passport.user.
 */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The stored session `sid`, unless it expired. */
  async find<T>(sid: string): Promise<T | null> {
    const rows = await this.dataSource.query<{ sess: T }[]>(
      `SELECT sess FROM sessions WHERE sid = $1 AND expire > now()`,
      [sid],
    );
    return rows[0]?.sess ?? null;
  }

  async save(sid: string, data: unknown, expire: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO sessions (sid, sess, expire) VALUES ($1, $2, $3)
       ON CONFLICT (sid) DO UPDATE SET sess = EXCLUDED.sess, expire = EXCLUDED.expire`,
      [sid, JSON.stringify(data), expire],
    );
  }

  async delete(sid: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM sessions WHERE sid = $1`, [sid]);
  }

  async extend(sid: string, expire: Date): Promise<void> {
    await this.dataSource.query(`UPDATE sessions SET expire = $2 WHERE sid = $1`, [sid, expire]);
  }

  /** Ends every session of the owner, on every device and API instance. */
  async deleteAllOf(userId: number, tx?: Transaction): Promise<void> {
    const manager = tx && entityManagerOf(tx);
    await (manager ?? this.dataSource.manager).query(
      `DELETE FROM sessions WHERE (sess -> 'passport' ->> 'user') = $1`,
      [String(userId)],
    );
  }
}
