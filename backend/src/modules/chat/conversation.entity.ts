import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One visitor's conversation with a bot. The owner is kept beside the bot so that the logs
 * of a deleted bot still belong to (and are exported for) its owner.
 */
@Entity('conversations')
@Index('conversations_owner_idx', ['ownerId', 'createdAt'])
@Index('conversations_bot_visitor_idx', ['botId', 'visitorId'])
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
}
