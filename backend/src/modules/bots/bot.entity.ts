import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { Animation, ModelTier, WidgetLanguageChoice, WidgetPosition } from '../../common/constants.js';
import type { LeadCaptureSettings } from '@botsmith/contract';

/** Relations are plain id columns: repositories join explicitly, and ESM needs no import cycles. */
@Entity('bots')
@Index('bots_owner_idx', ['ownerId'])
export class BotEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'owner_id', type: 'integer' }) ownerId!: number;
  @Column({ name: 'category_id', type: 'integer', nullable: true }) categoryId!: number | null;
  @Column({ type: 'varchar', length: 100 }) name!: string;

  /** Lets the owner's own server call /api/chat without the domain check. Never sent to widgets. */
  @Index('bots_api_key_key', { unique: true })
  @Column({ name: 'api_key', type: 'varchar', length: 64 })
  apiKey!: string;

  /** Signs verified visitors (docs/product.md#verified-visitors), sealed (IdentitySecretBox); never sent anywhere. */
  @Column({ name: 'identity_secret', type: 'varchar', length: 200, nullable: true })
  identitySecret!: string | null;

  @Column({ type: 'text' }) prompt!: string;
  @Column({ name: 'custom_greeting', type: 'text' }) customGreeting!: string;
  /** Up to four questions a visitor can tap to start (docs/product.md#starter-questions). */
  @Column({ name: 'starter_questions', type: 'jsonb', default: () => "'[]'::jsonb" }) starterQuestions!: string[];
  /** The language of the widget's own texts; 'auto' follows the visitor's browser (docs/product.md#widget-languages). */
  @Column({ name: 'widget_language', type: 'varchar', length: 8, default: 'auto' })
  widgetLanguage!: WidgetLanguageChoice;
  @Column({ type: 'varchar', length: 32 }) model!: ModelTier;
  /** Visitors see the model's name under the widget's input only when the owner turns it on (docs/product.md#embedded-widget). */
  @Column({ name: 'show_model_label', type: 'boolean', default: false }) showModelLabel!: boolean;
  @Column({ name: 'allowed_domain', type: 'varchar', length: 253 }) allowedDomain!: string;

  @Column({ name: 'bubble_icon', type: 'varchar', length: 500 }) bubbleIcon!: string;
  @Column({ name: 'bubble_color', type: 'varchar', length: 120 }) bubbleColor!: string;
  @Column({ name: 'bubble_text_color', type: 'varchar', length: 120 }) bubbleTextColor!: string;
  @Column({ name: 'bubble_border_radius', type: 'varchar', length: 16 }) bubbleBorderRadius!: string;
  @Column({ name: 'chat_window_border_radius', type: 'varchar', length: 16 }) chatWindowBorderRadius!: string;
  @Column({ name: 'banner_color', type: 'varchar', length: 120 }) bannerColor!: string;
  @Column({ name: 'banner_text_color', type: 'varchar', length: 120 }) bannerTextColor!: string;
  @Column({ name: 'banner_disclaimer', type: 'varchar', length: 300 }) bannerDisclaimer!: string;
  @Column({ name: 'placeholder_text', type: 'varchar', length: 120 }) placeholderText!: string;
  @Column({ name: 'placeholder_text_color', type: 'varchar', length: 120 }) placeholderTextColor!: string;
  @Column({ name: 'send_button_color', type: 'varchar', length: 120 }) sendButtonColor!: string;
  @Column({ name: 'send_arrow_color', type: 'varchar', length: 120 }) sendArrowColor!: string;
  @Column({ name: 'widget_bubble_color', type: 'varchar', length: 120 }) widgetBubbleColor!: string;
  @Column({ name: 'assistant_bubble_color', type: 'varchar', length: 120 }) assistantBubbleColor!: string;
  @Column({ name: 'assistant_bubble_text_color', type: 'varchar', length: 120 }) assistantBubbleTextColor!: string;
  @Column({ name: 'widget_background_color', type: 'varchar', length: 120 }) widgetBackgroundColor!: string;
  @Column({ type: 'varchar', length: 16 }) animation!: Animation;
  @Column({ name: 'widget_position', type: 'varchar', length: 8 }) widgetPosition!: WidgetPosition;

  @Column({ name: 'max_tokens', type: 'integer' }) maxTokens!: number;
  @Column({ type: 'real' }) temperature!: number;
  /** Whole dollars per billing period; 0 means no limit. */
  @Column({ name: 'usage_limit_dollars', type: 'integer' }) usageLimitDollars!: number;
  /** docs/product.md#leads-and-handoff; the column's default is LEAD_CAPTURE_DEFAULTS (see the migration). */
  @Column({ name: 'lead_capture', type: 'jsonb' }) leadCapture!: LeadCaptureSettings;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
