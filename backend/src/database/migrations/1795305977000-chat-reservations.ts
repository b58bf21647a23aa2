import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Messages in flight: the per-visitor lock and the per-bot budget reservation (chat module). */
export class ChatReservations1795305977000 implements MigrationInterface {
  name = 'ChatReservations1795305977000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "chat_reservations" (
        "id" uuid PRIMARY KEY,
        "bot_id" integer NOT NULL REFERENCES "bots"("id") ON DELETE CASCADE,
        "visitor_id" varchar(64) NOT NULL,
        "amount_cents" integer NOT NULL DEFAULT 0 CONSTRAINT "chat_reservations_amount_check" CHECK ("amount_cents" >= 0),
        "period_start" date,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "expires_at" timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "chat_reservations_bot_visitor_key" ON "chat_reservations" ("bot_id", "visitor_id")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "chat_reservations"`);
  }
}
