import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type MessageRole = 'user' | 'assistant' | 'error';

/** The chat log: every visitor message, answer and error, for the owner's logs export. */
@Entity('messages')
@Index('messages_conversation_idx', ['conversationId', 'id'])
@Index('messages_owner_idx', ['ownerId', 'createdAt'])
export class MessageEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'conversation_id', type: 'integer' }) conversationId!: number;
  @Column({ name: 'owner_id', type: 'integer' }) ownerId!: number;
  @Column({ type: 'varchar', length: 16 }) role!: MessageRole;
  @Column({ type: 'text' }) content!: string;
  /** The bot's model tier for assistant messages. */
  @Column({ type: 'varchar', length: 32, nullable: true }) model!: string | null;
  @Column({ type: 'integer', default: 0 }) tokens!: number;
  @Column({ name: 'cost_cents', type: 'integer', default: 0 }) costCents!: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
