import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Password reset and account deletion end every session of one owner
 * (`WHERE sess->'passport'->>'user' = $1`): an expression index keeps that from scanning the table.
 */
export class SessionsOwnerIndex1795306470000 implements MigrationInterface {
  name = 'SessionsOwnerIndex1795306470000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "sessions_owner_idx" ON "sessions" ((sess -> 'passport' ->> 'user'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "sessions_owner_idx"`);
  }
}
