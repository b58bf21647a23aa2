import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * The `sessions` table seen by owner (the express-session store reads and writes it by id).
 * Passport keeps the owner's id at sess.passport.user.
 */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Ends every session of the owner, on every device and API instance. */
  async deleteAllOf(userId: number, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      `DELETE FROM sessions WHERE (sess -> 'passport' ->> 'user') = $1`,
      [String(userId)],
    );
  }
}
