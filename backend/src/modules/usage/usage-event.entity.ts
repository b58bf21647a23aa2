import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The ledger: exactly one row per answered message. Every usage figure is a sum over it.
 * `creditsCents + billableCents = priceCents`. A row may record an answer without charging it
 * (`UsageLedgerService.recordUnchargedAnswer`): 0 cents, and `notChargedReason` says why. Rows are never deleted, not even with the
 * account, so the final period can still be billed.
 */
@Entity('usage_events')
@Index('usage_events_owner_time_idx', ['ownerId', 'createdAt'])
@Index('usage_events_bot_time_idx', ['botId', 'createdAt'])
@Index('usage_events_unreported_idx', ['periodStart'], { where: 'reported_at IS NULL AND billable_cents > 0' })
export class UsageEventEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'owner_id', type: 'integer' }) ownerId!: number;
  @Column({ name: 'bot_id', type: 'integer', nullable: true }) botId!: number | null;
  @Column({ name: 'message_id', type: 'integer', nullable: true }) messageId!: number | null;
  /** The price tier (the bot's model) and the upstream model actually called. */
  @Column({ name: 'model_tier', type: 'varchar', length: 32 }) modelTier!: string;
  @Column({ name: 'upstream_model', type: 'varchar', length: 100 }) upstreamModel!: string;
  @Column({ name: 'price_cents', type: 'integer' }) priceCents!: number;
  @Column({ name: 'prompt_tokens', type: 'integer', default: 0 }) promptTokens!: number;
  @Column({ name: 'completion_tokens', type: 'integer', default: 0 }) completionTokens!: number;
  @Column({ name: 'total_tokens', type: 'integer', default: 0 }) totalTokens!: number;
  @Column({ name: 'credits_cents', type: 'integer' }) creditsCents!: number;
  @Column({ name: 'billable_cents', type: 'integer' }) billableCents!: number;
  /** First day (the 3rd, UTC) of the billing period the message belongs to. */
  @Column({ name: 'period_start', type: 'date' }) periodStart!: string;
  /** Stable identifier sent with the meter event, so a retry never bills twice. */
  @Index('usage_events_report_identifier_key', { unique: true })
  @Column({ name: 'report_identifier', type: 'varchar', length: 64 })
  reportIdentifier!: string;
  /** Why this answer was not charged ('unanswered'); null on a charged row. */
  @Column({ name: 'not_charged_reason', type: 'varchar', length: 32, nullable: true })
  notChargedReason!: string | null;
  @Column({ name: 'reported_at', type: 'timestamptz', nullable: true }) reportedAt!: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
