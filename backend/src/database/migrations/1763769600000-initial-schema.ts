import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole data model (docs/architecture.md#data). Foreign keys that must outlive their parent
 * (the usage ledger, conversation logs) use SET NULL or no cascade on purpose.
 */
export class InitialSchema1763769600000 implements MigrationInterface {
  name = 'InitialSchema1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "users" (
        "id" SERIAL PRIMARY KEY,
        "email" varchar(254) NOT NULL,
        "password_hash" text NOT NULL,
        "email_verified_at" timestamptz,
        "stripe_customer_id" varchar(255),
        "stripe_subscription_id" varchar(255),
        "subscription_item_id" varchar(255),
        "has_paid" boolean,
        "credits_cents" integer NOT NULL DEFAULT 500 CONSTRAINT "users_credits_not_negative" CHECK ("credits_cents" >= 0),
        "is_system" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "last_login_at" timestamptz,
        "deleted_at" timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX "users_email_active_key" ON "users" ("email") WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE "auth_tokens" (
        "id" SERIAL PRIMARY KEY,
        "user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
        "purpose" varchar(32) NOT NULL,
        "token_hash" char(64) NOT NULL,
        "expires_at" timestamptz NOT NULL,
        "used_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX "auth_tokens_hash_key" ON "auth_tokens" ("token_hash")`);
    await q.query(`CREATE INDEX "auth_tokens_user_idx" ON "auth_tokens" ("user_id", "purpose")`);

    // The express-session store (connect-pg-simple's layout).
    await q.query(`
      CREATE TABLE "sessions" (
        "sid" varchar NOT NULL PRIMARY KEY,
        "sess" json NOT NULL,
        "expire" timestamptz(6) NOT NULL
      )`);
    await q.query(`CREATE INDEX "sessions_expire_idx" ON "sessions" ("expire")`);

    await q.query(`
      CREATE TABLE "categories" (
        "id" SERIAL PRIMARY KEY,
        "owner_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
        "name" varchar(100) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "categories_owner_idx" ON "categories" ("owner_id")`);
    await q.query(`CREATE UNIQUE INDEX "categories_owner_name_key" ON "categories" ("owner_id", lower("name"))`);

    await q.query(`
      CREATE TABLE "bots" (
        "id" SERIAL PRIMARY KEY,
        "owner_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
        "category_id" integer REFERENCES "categories"("id") ON DELETE SET NULL,
        "name" varchar(100) NOT NULL,
        "api_key" varchar(64) NOT NULL,
        "prompt" text NOT NULL,
        "custom_greeting" text NOT NULL,
        "model" varchar(32) NOT NULL,
        "allowed_domain" varchar(253) NOT NULL,
        "bubble_icon" varchar(500) NOT NULL,
        "bubble_color" varchar(120) NOT NULL,
        "bubble_text_color" varchar(120) NOT NULL,
        "bubble_border_radius" varchar(16) NOT NULL,
        "chat_window_border_radius" varchar(16) NOT NULL,
        "banner_color" varchar(120) NOT NULL,
        "banner_text_color" varchar(120) NOT NULL,
        "banner_disclaimer" varchar(300) NOT NULL,
        "placeholder_text" varchar(120) NOT NULL,
        "placeholder_text_color" varchar(120) NOT NULL,
        "send_button_color" varchar(120) NOT NULL,
        "send_arrow_color" varchar(120) NOT NULL,
        "widget_bubble_color" varchar(120) NOT NULL,
        "assistant_bubble_color" varchar(120) NOT NULL,
        "assistant_bubble_text_color" varchar(120) NOT NULL,
        "widget_background_color" varchar(120) NOT NULL,
        "animation" varchar(16) NOT NULL,
        "widget_position" varchar(8) NOT NULL,
        "max_tokens" integer NOT NULL,
        "temperature" real NOT NULL,
        "usage_limit_dollars" integer NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "bots_owner_idx" ON "bots" ("owner_id")`);
    await q.query(`CREATE UNIQUE INDEX "bots_api_key_key" ON "bots" ("api_key")`);

    await q.query(`
      CREATE TABLE "bot_documents" (
        "id" SERIAL PRIMARY KEY,
        "bot_id" integer NOT NULL REFERENCES "bots"("id") ON DELETE CASCADE,
        "original_name" varchar(255) NOT NULL,
        "storage_key" varchar(255) NOT NULL,
        "file_path" varchar(500) NOT NULL,
        "size_bytes" integer NOT NULL,
        "page_count" integer NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX "bot_documents_bot_key" ON "bot_documents" ("bot_id")`);

    await q.query(`
      CREATE TABLE "document_chunks" (
        "id" SERIAL PRIMARY KEY,
        "document_id" integer NOT NULL REFERENCES "bot_documents"("id") ON DELETE CASCADE,
        "bot_id" integer NOT NULL REFERENCES "bots"("id") ON DELETE CASCADE,
        "page" integer NOT NULL,
        "ordinal" integer NOT NULL,
        "content" text NOT NULL,
        "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED
      )`);
    await q.query(`CREATE INDEX "document_chunks_bot_idx" ON "document_chunks" ("bot_id")`);
    await q.query(`CREATE INDEX "document_chunks_search_idx" ON "document_chunks" USING GIN ("search_vector")`);

    await q.query(`
      CREATE TABLE "conversations" (
        "id" SERIAL PRIMARY KEY,
        "owner_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
        "bot_id" integer REFERENCES "bots"("id") ON DELETE SET NULL,
        "bot_name" varchar(100) NOT NULL,
        "visitor_id" varchar(64) NOT NULL,
        "page_url" varchar(2048),
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "conversations_owner_idx" ON "conversations" ("owner_id", "created_at")`);
    await q.query(`CREATE INDEX "conversations_bot_visitor_idx" ON "conversations" ("bot_id", "visitor_id")`);

    await q.query(`
      CREATE TABLE "messages" (
        "id" SERIAL PRIMARY KEY,
        "conversation_id" integer NOT NULL REFERENCES "conversations"("id") ON DELETE CASCADE,
        "owner_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
        "role" varchar(16) NOT NULL CONSTRAINT "messages_role_check" CHECK ("role" IN ('user', 'assistant', 'error')),
        "content" text NOT NULL,
        "model" varchar(32),
        "tokens" integer NOT NULL DEFAULT 0,
        "cost_cents" integer NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "messages_conversation_idx" ON "messages" ("conversation_id", "id")`);
    await q.query(`CREATE INDEX "messages_owner_idx" ON "messages" ("owner_id", "created_at")`);

    await q.query(`
      CREATE TABLE "usage_events" (
        "id" SERIAL PRIMARY KEY,
        "owner_id" integer NOT NULL REFERENCES "users"("id"),
        "bot_id" integer REFERENCES "bots"("id") ON DELETE SET NULL,
        "message_id" integer REFERENCES "messages"("id") ON DELETE SET NULL,
        "model_tier" varchar(32) NOT NULL,
        "upstream_model" varchar(100) NOT NULL,
        "price_cents" integer NOT NULL,
        "prompt_tokens" integer NOT NULL DEFAULT 0,
        "completion_tokens" integer NOT NULL DEFAULT 0,
        "total_tokens" integer NOT NULL DEFAULT 0,
        "credits_cents" integer NOT NULL,
        "billable_cents" integer NOT NULL,
        "period_start" date NOT NULL,
        "report_identifier" varchar(64) NOT NULL,
        "reported_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "usage_events_split_check" CHECK ("credits_cents" >= 0 AND "billable_cents" >= 0 AND "credits_cents" + "billable_cents" = "price_cents")
      )`);
    await q.query(`CREATE INDEX "usage_events_owner_time_idx" ON "usage_events" ("owner_id", "created_at")`);
    await q.query(`CREATE INDEX "usage_events_bot_time_idx" ON "usage_events" ("bot_id", "created_at")`);
    await q.query(
      `CREATE INDEX "usage_events_unreported_idx" ON "usage_events" ("period_start") WHERE reported_at IS NULL AND billable_cents > 0`,
    );
    await q.query(`CREATE UNIQUE INDEX "usage_events_report_identifier_key" ON "usage_events" ("report_identifier")`);

    await q.query(`
      CREATE TABLE "webhook_events" (
        "id" varchar(255) PRIMARY KEY,
        "type" varchar(100) NOT NULL,
        "received_at" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'webhook_events',
      'usage_events',
      'messages',
      'conversations',
      'document_chunks',
      'bot_documents',
      'bots',
      'categories',
      'sessions',
      'auth_tokens',
      'users',
    ]) {
      await q.query(`DROP TABLE IF EXISTS "${table}"`);
    }
  }
}
