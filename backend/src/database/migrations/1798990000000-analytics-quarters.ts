import type { MigrationInterface, QueryRunner } from 'typeorm';
import { AnalyticsHours1798960000000 } from './1798960000000-analytics-hours.js';

/**
 * The analytics' rollup counts quarter hours instead of hours
 * (docs/decisions/0019-analytics-at-a-million-messages.md): `analytics_hours` becomes
 * `analytics_quarters`, one row per owner, bot and UTC quarter hour (:00, :15, :30, :45). Every
 * zone in use is a whole number of quarter hours from UTC (India +05:30, Nepal +05:45, Chatham
 * +12:45 …), so its days and hours are made of whole UTC quarters and GET /api/analytics reads the
 * rollup for all of them; with hours it had to count the rows themselves for those zones.
 *
 * The columns, the bot ids (-1 all the owner's bots, 0 deleted bots) and what the triggers count
 * are those of 1798960000000-analytics-hours; only the bucket changes. Its start is
 * date_bin('15 minutes', at, 2000-01-01 UTC): the instant's own quarter, whatever the session's
 * time zone (extract(minute …) of a timestamptz would read the session's zone, a quarter off in
 * Nepal). The old table, its functions and triggers are dropped and the new table is counted
 * afresh from the rows, in this migration's transaction: no write falls between the count and the
 * triggers.
 */
export class AnalyticsQuarters1798990000000 implements MigrationInterface {
  name = 'AnalyticsQuarters1798990000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS "analytics_hours_usage_events" ON "usage_events"`);
    await q.query(`DROP TRIGGER IF EXISTS "analytics_hours_conversations" ON "conversations"`);
    await q.query(`DROP FUNCTION IF EXISTS analytics_hours_charge()`);
    await q.query(`DROP FUNCTION IF EXISTS analytics_hours_conversation()`);
    await q.query(
      `DROP FUNCTION IF EXISTS analytics_hours_add(integer, integer, timestamptz, integer, varchar, integer, integer, integer, bigint)`,
    );
    await q.query(`DROP TABLE IF EXISTS "analytics_hours"`);
    await q.query(
      `CREATE TABLE "analytics_quarters" (
         "owner_id" integer NOT NULL,
         "bot_id" integer NOT NULL,
         "quarter" timestamptz NOT NULL,
         "conversations" integer NOT NULL DEFAULT 0,
         "resolved" integer NOT NULL DEFAULT 0,
         "handed_off" integer NOT NULL DEFAULT 0,
         "unanswered" integer NOT NULL DEFAULT 0,
         "abandoned" integer NOT NULL DEFAULT 0,
         "rated_down" integer NOT NULL DEFAULT 0,
         "messages" integer NOT NULL DEFAULT 0,
         "up_count" integer NOT NULL DEFAULT 0,
         "down_count" integer NOT NULL DEFAULT 0,
         "spend_cents" bigint NOT NULL DEFAULT 0,
         PRIMARY KEY ("owner_id", "bot_id", "quarter")
       )`,
    );
    // The UTC quarter hour holding an instant.
    await q.query(
      `CREATE FUNCTION analytics_quarter(p_at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
         SELECT date_bin('15 minutes', p_at, TIMESTAMPTZ '2000-01-01 00:00:00+00')
       $$`,
    );
    // Adds one contribution (negative: takes it off) to the bot's row and the owner's (-1) row of
    // the quarter of `at`; a row left with nothing in it is deleted, so a row exists only where
    // something was counted.
    await q.query(
      `CREATE FUNCTION analytics_quarters_add(p_owner integer, p_bot integer, p_at timestamptz, p_n integer,
                                              p_outcome varchar, p_messages integer, p_up integer, p_down integer,
                                              p_spend bigint) RETURNS void LANGUAGE plpgsql AS $$
       DECLARE
         v_quarter timestamptz := analytics_quarter(p_at);
       BEGIN
         -- Answers that charged nothing (the offline model) leave no row.
         IF p_n = 0 AND p_messages = 0 AND p_up = 0 AND p_down = 0 AND p_spend = 0 THEN
           RETURN;
         END IF;
         INSERT INTO analytics_quarters AS h (owner_id, bot_id, quarter, conversations, resolved, handed_off, unanswered,
                                              abandoned, rated_down, messages, up_count, down_count, spend_cents)
         SELECT p_owner, b.id, v_quarter, p_n,
                CASE WHEN p_outcome = 'resolved' THEN p_n ELSE 0 END,
                CASE WHEN p_outcome = 'handed_off' THEN p_n ELSE 0 END,
                CASE WHEN p_outcome = 'unanswered' THEN p_n ELSE 0 END,
                CASE WHEN p_outcome = 'abandoned' THEN p_n ELSE 0 END,
                CASE WHEN p_outcome = 'rated_down' THEN p_n ELSE 0 END,
                p_messages, p_up, p_down, p_spend
           FROM (VALUES (COALESCE(p_bot, 0)), (-1)) AS b(id)
         ON CONFLICT (owner_id, bot_id, quarter) DO UPDATE SET
           conversations = h.conversations + EXCLUDED.conversations,
           resolved = h.resolved + EXCLUDED.resolved,
           handed_off = h.handed_off + EXCLUDED.handed_off,
           unanswered = h.unanswered + EXCLUDED.unanswered,
           abandoned = h.abandoned + EXCLUDED.abandoned,
           rated_down = h.rated_down + EXCLUDED.rated_down,
           messages = h.messages + EXCLUDED.messages,
           up_count = h.up_count + EXCLUDED.up_count,
           down_count = h.down_count + EXCLUDED.down_count,
           spend_cents = h.spend_cents + EXCLUDED.spend_cents;
         IF p_n < 0 OR p_spend < 0 THEN
           DELETE FROM analytics_quarters
            WHERE owner_id = p_owner AND bot_id IN (COALESCE(p_bot, 0), -1) AND quarter = v_quarter
              AND conversations = 0 AND messages = 0 AND up_count = 0 AND down_count = 0 AND spend_cents = 0;
         END IF;
       END $$`,
    );
    // A conversation counts as decided when its outcome is not older than its last message (as
    // AnalyticsRepository reads it).
    await q.query(
      `CREATE FUNCTION analytics_quarters_conversation() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE
         old_outcome varchar;
         new_outcome varchar;
       BEGIN
         IF TG_OP <> 'INSERT' THEN
           old_outcome := CASE WHEN OLD.outcome_at >= OLD.last_message_at THEN OLD.outcome END;
         END IF;
         IF TG_OP <> 'DELETE' THEN
           new_outcome := CASE WHEN NEW.outcome_at >= NEW.last_message_at THEN NEW.outcome END;
         END IF;
         IF TG_OP = 'UPDATE'
            AND (OLD.owner_id, OLD.bot_id, OLD.created_at, old_outcome, OLD.message_count, OLD.up_count, OLD.down_count)
                IS NOT DISTINCT FROM
                (NEW.owner_id, NEW.bot_id, NEW.created_at, new_outcome, NEW.message_count, NEW.up_count, NEW.down_count)
         THEN
           RETURN NULL;
         END IF;
         IF TG_OP <> 'INSERT' THEN
           PERFORM analytics_quarters_add(OLD.owner_id, OLD.bot_id, OLD.created_at, -1, old_outcome,
                                          -OLD.message_count, -OLD.up_count, -OLD.down_count, 0);
         END IF;
         IF TG_OP <> 'DELETE' THEN
           PERFORM analytics_quarters_add(NEW.owner_id, NEW.bot_id, NEW.created_at, 1, new_outcome,
                                          NEW.message_count, NEW.up_count, NEW.down_count, 0);
         END IF;
         RETURN NULL;
       END $$`,
    );
    await q.query(
      `CREATE FUNCTION analytics_quarters_charge() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP = 'UPDATE'
            AND (OLD.owner_id, OLD.bot_id, OLD.created_at, OLD.credits_cents + OLD.billable_cents)
                IS NOT DISTINCT FROM (NEW.owner_id, NEW.bot_id, NEW.created_at, NEW.credits_cents + NEW.billable_cents)
         THEN
           RETURN NULL;
         END IF;
         IF TG_OP <> 'INSERT' THEN
           PERFORM analytics_quarters_add(OLD.owner_id, OLD.bot_id, OLD.created_at, 0, NULL, 0, 0, 0,
                                          -(OLD.credits_cents + OLD.billable_cents));
         END IF;
         IF TG_OP <> 'DELETE' THEN
           PERFORM analytics_quarters_add(NEW.owner_id, NEW.bot_id, NEW.created_at, 0, NULL, 0, 0, 0,
                                          NEW.credits_cents + NEW.billable_cents);
         END IF;
         RETURN NULL;
       END $$`,
    );
    // What is already there, before the triggers count what comes next (in the same transaction).
    await q.query(
      `INSERT INTO analytics_quarters (owner_id, bot_id, quarter, conversations, resolved, handed_off, unanswered,
                                       abandoned, rated_down, messages, up_count, down_count, spend_cents)
       SELECT r.owner_id, b.id, r.quarter, SUM(r.n), SUM(CASE WHEN r.outcome = 'resolved' THEN r.n ELSE 0 END),
              SUM(CASE WHEN r.outcome = 'handed_off' THEN r.n ELSE 0 END),
              SUM(CASE WHEN r.outcome = 'unanswered' THEN r.n ELSE 0 END),
              SUM(CASE WHEN r.outcome = 'abandoned' THEN r.n ELSE 0 END),
              SUM(CASE WHEN r.outcome = 'rated_down' THEN r.n ELSE 0 END),
              SUM(r.messages), SUM(r.up), SUM(r.down), SUM(r.spend)
         FROM (
           SELECT owner_id, bot_id, analytics_quarter(created_at) AS quarter, 1 AS n,
                  CASE WHEN outcome_at >= last_message_at THEN outcome END AS outcome,
                  message_count AS messages, up_count AS up, down_count AS down, 0::bigint AS spend
             FROM conversations
           UNION ALL
           SELECT owner_id, bot_id, analytics_quarter(created_at), 0, NULL, 0, 0, 0,
                  credits_cents + billable_cents
             FROM usage_events
         ) r
        CROSS JOIN LATERAL (VALUES (COALESCE(r.bot_id, 0)), (-1)) AS b(id)
        GROUP BY r.owner_id, b.id, r.quarter
       HAVING SUM(r.n) <> 0 OR SUM(r.messages) <> 0 OR SUM(r.up) <> 0 OR SUM(r.down) <> 0 OR SUM(r.spend) <> 0`,
    );
    await q.query(
      `CREATE TRIGGER "analytics_quarters_conversations" AFTER INSERT OR UPDATE OR DELETE ON "conversations"
       FOR EACH ROW EXECUTE FUNCTION analytics_quarters_conversation()`,
    );
    await q.query(
      `CREATE TRIGGER "analytics_quarters_usage_events" AFTER INSERT OR UPDATE OR DELETE ON "usage_events"
       FOR EACH ROW EXECUTE FUNCTION analytics_quarters_charge()`,
    );
  }

  /** Back to the hourly rollup exactly as 1798960000000 left it: its own down and up, which count the hours afresh. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS "analytics_quarters_usage_events" ON "usage_events"`);
    await q.query(`DROP TRIGGER IF EXISTS "analytics_quarters_conversations" ON "conversations"`);
    await q.query(`DROP FUNCTION IF EXISTS analytics_quarters_charge()`);
    await q.query(`DROP FUNCTION IF EXISTS analytics_quarters_conversation()`);
    await q.query(
      `DROP FUNCTION IF EXISTS analytics_quarters_add(integer, integer, timestamptz, integer, varchar, integer, integer, integer, bigint)`,
    );
    await q.query(`DROP TABLE IF EXISTS "analytics_quarters"`);
    await q.query(`DROP FUNCTION IF EXISTS analytics_quarter(timestamptz)`);
    const hours = new AnalyticsHours1798960000000();
    await hours.down(q);
    await hours.up(q);
  }
}
