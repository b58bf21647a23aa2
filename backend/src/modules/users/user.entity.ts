import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity('users')
@Index('users_email_active_key', ['email'], { unique: true, where: 'deleted_at IS NULL' })
export class UserEntity {
  @PrimaryGeneratedColumn() id!: number;

  /** Always stored lowercased. Unique among accounts that are not deleted. */
  @Column({ type: 'varchar', length: 254 }) email!: string;

  @Column({ name: 'password_hash', type: 'text' }) passwordHash!: string;

  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true }) emailVerifiedAt!: Date | null;

  @Column({ name: 'stripe_customer_id', type: 'varchar', length: 255, nullable: true }) stripeCustomerId!:
    string | null;

  @Column({ name: 'stripe_subscription_id', type: 'varchar', length: 255, nullable: true })
  stripeSubscriptionId!: string | null;

  @Column({ name: 'subscription_item_id', type: 'varchar', length: 255, nullable: true })
  subscriptionItemId!: string | null;

  /** null until the first subscription exists; false after a failed payment (docs/product.md#billing-cycle). */
  @Column({ name: 'has_paid', type: 'boolean', nullable: true }) hasPaid!: boolean | null;

  /** Free credits left, in cents; spent before anything is billed. Never below zero. */
  @Column({ name: 'credits_cents', type: 'integer', default: 500 }) creditsCents!: number;

  /** Whole dollars: a mail at each 50 % step of this account spend per billing period; 0 = no mail. */
  @Column({ name: 'spend_alert_dollars', type: 'integer', default: 20 }) spendAlertDollars!: number;

  /**
   * Visitors' conversations are deleted this many days after their last message (30, 90 or 365);
   * null = kept forever. See docs/product.md#retention-and-visitor-privacy.
   */
  @Column({ name: 'conversation_retention_days', type: 'integer', nullable: true, default: 365 })
  conversationRetentionDays!: number | null;

  /** The name visitors see on the owner's replies; null = DEFAULT_AGENT_NAME ('Support'). */
  @Column({ name: 'agent_name', type: 'varchar', length: 60, nullable: true }) agentName!: string | null;

  /**
   * The owner's IANA time zone for analytics' days and hours and the monthly report; null = the
   * browser's (docs/product.md#monthly-report). Checked against Intl and the database on save.
   */
  @Column({ name: 'time_zone', type: 'varchar', length: 64, nullable: true }) timeZone!: string | null;

  /** The monthly report mail (docs/product.md#monthly-report); on by default. */
  @Column({ name: 'monthly_report', type: 'boolean', default: true }) monthlyReport!: boolean;

  /** The system account that owns the landing page's demo bot; never billed. */
  @Column({ name: 'is_system', type: 'boolean', default: false }) isSystem!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true }) lastLoginAt!: Date | null;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt!: Date | null;
}
