import type { MigrationInterface, QueryRunner } from 'typeorm';
import { DEMO_BOT_ID, SYSTEM_ACCOUNT_EMAIL } from '../../common/constants.js';

/**
 * The landing page embeds bot 1: a demo bot about Botsmith itself, owned by the system account.
 * The system account cannot sign in (its password hash is no hash at all), is marked paid and
 * verified so the chat serves it, and is never billed (the usage ledger skips it). The house pays
 * for its answers, so it has a monthly budget of $50 (then it hides until the next period), and
 * with no allowed domain it answers only on the product's own site (chat module). Values are
 * written out here, not read from constants, so this migration means the same thing for ever.
 */
const DEMO_PROMPT = `You are the Botsmith assistant on the Botsmith website. Answer questions about Botsmith briefly and warmly, and suggest signing up when it helps.
Botsmith is a hosted no-code AI chatbot builder: create, style and launch AI chatbots on your own website without writing code.
Pricing is per answered message: 3 cents per message with the base model (GPT-3.5 Turbo), 4 cents with GPT-4 Turbo, 4 cents with GPT-4o Mini and 5 cents with GPT-4 Omni.
There is no monthly fee and no separate OpenAI bill: the model key is hosted by Botsmith.
Every new account gets $5 of free credits, about 165 messages, which are spent before anything is billed.
Billing is monthly: usage is counted from the 3rd of each month and the card is charged on the 3rd for the previous period.
To embed a bot, open it in the dashboard, click Generate Code on the Deploy tab and paste the one-line script tag into your website's HTML.
Each bot can answer from a prompt and from an uploaded PDF document, and cites the page it used.
You can style the widget: colors, bubble icon, corner radii, banner text, position and animation.
For safety each bot has rate limits, a monthly budget you choose after which it hides itself, an allowed domain, and one message at a time per visitor.
Sign up at the Get Started button to create your first bot.`;

const GREETING = "Hi! I'm the Botsmith assistant. Ask me about pricing, free credits or how to embed a bot.";

const green = 'linear-gradient(to right, #2ecc71, #2ecc71)';
const white = 'linear-gradient(to right, #ffffff, #ffffff)';
const black = 'linear-gradient(to right, #000000, #000000)';

export class SystemAccountAndDemoBot1795305978000 implements MigrationInterface {
  name = 'SystemAccountAndDemoBot1795305978000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO users (email, password_hash, email_verified_at, has_paid, credits_cents, is_system)
       SELECT $1::varchar, '!system-account-no-login', now(), true, 0, true
        WHERE NOT EXISTS (SELECT 1 FROM users WHERE email = $1::varchar AND deleted_at IS NULL)`,
      [SYSTEM_ACCOUNT_EMAIL],
    );
    await q.query(
      `INSERT INTO bots (id, owner_id, category_id, name, api_key, prompt, custom_greeting, model, allowed_domain,
         bubble_icon, bubble_color, bubble_text_color, bubble_border_radius, chat_window_border_radius, banner_color,
         banner_text_color, banner_disclaimer, placeholder_text, placeholder_text_color, send_button_color,
         send_arrow_color, widget_bubble_color, assistant_bubble_color, assistant_bubble_text_color,
         widget_background_color, animation, widget_position, max_tokens, temperature, usage_limit_dollars)
       SELECT $1::integer, u.id, NULL, 'Botsmith Assistant',
              replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''),
              $2, $3, 'gpt-3.5-turbo', '',
              '', $4, $5, '50%', '10px', $4,
              $5, 'AI answers may be inaccurate.', 'Type your message here...', $6, $4,
              $5, 'linear-gradient(to right, #ff9800, #ff9800)', 'linear-gradient(to right, #f1f0f0, #f1f0f0)', $6,
              $5, 'none', 'right', 300, 0.3, 50
         FROM users u
        WHERE u.email = $7 AND u.is_system AND u.deleted_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM bots WHERE id = $1::integer)`,
      [DEMO_BOT_ID, DEMO_PROMPT, GREETING, green, white, black, SYSTEM_ACCOUNT_EMAIL],
    );
    // The explicit id must not collide with the next bot an owner creates.
    await q.query(
      `SELECT setval(pg_get_serial_sequence('bots', 'id'), GREATEST((SELECT COALESCE(MAX(id), 1) FROM bots), 1))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DELETE FROM bots WHERE id = $1 AND owner_id IN (SELECT id FROM users WHERE email = $2 AND is_system)`,
      [DEMO_BOT_ID, SYSTEM_ACCOUNT_EMAIL],
    );
    await q.query(`DELETE FROM users WHERE email = $1 AND is_system`, [SYSTEM_ACCOUNT_EMAIL]);
  }
}
