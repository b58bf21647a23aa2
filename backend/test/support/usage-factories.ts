import crypto from 'node:crypto';
import { isoDate, periodStartFor } from '../../src/common/billing-period.js';
import { BOT_DEFAULTS } from '../../src/common/constants.js';
import type { TestApp } from './test-app.js';

/**
 * Rows for the usage read side, inserted directly with chosen times: ledger rows, bots,
 * conversations and messages. Timestamps may be given as text to keep microseconds exactly.
 */

export async function insertBot(
  t: TestApp,
  ownerId: number,
  options: { name?: string; usageLimitDollars?: number } = {},
): Promise<number> {
  const d = BOT_DEFAULTS;
  const rows: Array<{ id: number }> = await t.dataSource.query(
    `INSERT INTO bots (owner_id, name, api_key, prompt, custom_greeting, model, allowed_domain, bubble_icon,
       bubble_color, bubble_text_color, bubble_border_radius, chat_window_border_radius, banner_color,
       banner_text_color, banner_disclaimer, placeholder_text, placeholder_text_color, send_button_color,
       send_arrow_color, widget_bubble_color, assistant_bubble_color, assistant_bubble_text_color,
       widget_background_color, animation, widget_position, max_tokens, temperature, usage_limit_dollars)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
             $23, $24, $25, $26, $27, $28)
     RETURNING id`,
    [
      ownerId,
      options.name ?? 'Test bot',
      crypto.randomBytes(24).toString('hex'),
      d.prompt,
      d.customGreeting,
      d.model,
      d.allowedDomain,
      d.bubbleIcon,
      d.bubbleColor,
      d.bubbleTextColor,
      d.bubbleBorderRadius,
      d.chatWindowBorderRadius,
      d.bannerColor,
      d.bannerTextColor,
      d.bannerDisclaimer,
      d.placeholderText,
      d.placeholderTextColor,
      d.sendButtonColor,
      d.sendArrowColor,
      d.widgetBubbleColor,
      d.assistantBubbleColor,
      d.assistantBubbleTextColor,
      d.widgetBackgroundColor,
      d.animation,
      d.widgetPosition,
      d.maxTokens,
      d.temperature,
      options.usageLimitDollars ?? 0,
    ],
  );
  return Number(rows[0].id);
}

export interface LedgerRow {
  ownerId: number;
  botId: number | null;
  priceCents: number;
  totalTokens: number;
  /** ISO text (microseconds allowed) or a Date. */
  at: string | Date;
  /** Defaults to the period the time falls in (as the write path files it). */
  periodStart?: string;
}

/** One `usage_events` row, as the write path would have written it for an answered message. */
export async function insertUsageEvent(t: TestApp, row: LedgerRow): Promise<void> {
  const at = typeof row.at === 'string' ? row.at : row.at.toISOString();
  const periodStart = row.periodStart ?? isoDate(periodStartFor(new Date(at)));
  await t.dataSource.query(
    `INSERT INTO usage_events (owner_id, bot_id, model_tier, upstream_model, price_cents, prompt_tokens,
       completion_tokens, total_tokens, credits_cents, billable_cents, period_start, report_identifier, created_at)
     VALUES ($1, $2, 'gpt-4o', 'gpt-4o', $3, $4, 0, $4, $3, 0, $5, $6, $7::timestamptz)`,
    [row.ownerId, row.botId, row.priceCents, row.totalTokens, periodStart, `usage_${crypto.randomUUID()}`, at],
  );
}

export async function insertConversation(
  t: TestApp,
  c: { ownerId: number; botId: number | null; botName: string; at?: string },
): Promise<number> {
  const rows: Array<{ id: number }> = await t.dataSource.query(
    `INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id, created_at)
     VALUES ($1, $2, $3, $4, COALESCE($5::timestamptz, now())) RETURNING id`,
    [c.ownerId, c.botId, c.botName, crypto.randomUUID(), c.at ?? null],
  );
  return Number(rows[0].id);
}

export interface LoggedMessage {
  conversationId: number;
  ownerId: number;
  role: 'user' | 'assistant' | 'error';
  content: string;
  model?: string | null;
  tokens?: number;
  costCents?: number;
  at: string;
}

export async function insertMessage(t: TestApp, m: LoggedMessage): Promise<number> {
  const rows: Array<{ id: number }> = await t.dataSource.query(
    `INSERT INTO messages (conversation_id, owner_id, role, content, model, tokens, cost_cents, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz) RETURNING id`,
    [m.conversationId, m.ownerId, m.role, m.content, m.model ?? null, m.tokens ?? 0, m.costCents ?? 0, m.at],
  );
  return Number(rows[0].id);
}
