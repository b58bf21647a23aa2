import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { ConversationOutcome } from '@botsmith/contract';

/**
 * One visitor's conversation with a bot. The owner is kept beside the bot so that the logs
 * of a deleted bot still belong to (and are exported for) its owner.
 */
@Entity('conversations')
@Index('conversations_owner_idx', ['ownerId', 'createdAt'])
@Index('conversations_owner_visitor_idx', ['ownerId', 'visitorId', 'createdAt'])
@Index('conversations_bot_visitor_idx', ['botId', 'visitorId', 'createdAt'])
export class ConversationEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'owner_id', type: 'integer' }) ownerId!: number;
  @Column({ name: 'bot_id', type: 'integer', nullable: true }) botId!: number | null;
  /** The bot's name when the conversation started, for logs that outlive the bot. */
  @Column({ name: 'bot_name', type: 'varchar', length: 100 }) botName!: string;
  /** Opaque id the widget keeps in session storage. */
  @Column({ name: 'visitor_id', type: 'varchar', length: 64 }) visitorId!: string;
  @Column({ name: 'page_url', type: 'varchar', length: 2048, nullable: true }) pageUrl!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  // Running totals kept as messages are logged and rated, so the inbox list reads one row each.
  @Column({ name: 'last_message_at', type: 'timestamptz', default: () => 'now()' }) lastMessageAt!: Date;
  @Column({ name: 'message_count', type: 'integer', default: 0 }) messageCount!: number;
  /** The visitor's first message, cut to 200 characters. */
  @Column({ type: 'varchar', length: 200, nullable: true }) preview!: string | null;
  @Column({ name: 'unanswered_count', type: 'integer', default: 0 }) unansweredCount!: number;
  @Column({ name: 'up_count', type: 'integer', default: 0 }) upCount!: number;
  @Column({ name: 'down_count', type: 'integer', default: 0 }) downCount!: number;
  /** Set while a person handles the conversation (lead left, or the owner replied): the bot stays quiet. */
  // Who the visitor says they are (the host page's Botsmith.identify): display only, never mailed.
  @Column({ name: 'visitor_name', type: 'varchar', length: 100, nullable: true }) visitorName!: string | null;
  @Column({ name: 'visitor_email', type: 'varchar', length: 254, nullable: true }) visitorEmail!: string | null;
  @Column({ name: 'handoff_at', type: 'timestamptz', nullable: true }) handoffAt!: Date | null;
  /** What it came to (conversation-outcome.ts), once quiet; decided again after it resumed. */
  @Column({ type: 'varchar', length: 16, nullable: true }) outcome!: ConversationOutcome | null;
  @Column({ name: 'outcome_at', type: 'timestamptz', nullable: true }) outcomeAt!: Date | null;
}
