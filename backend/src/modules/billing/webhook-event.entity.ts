import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Provider events already processed: a replayed event id is a no-op. */
@Entity('webhook_events')
export class WebhookEventEntity {
  @PrimaryColumn({ type: 'varchar', length: 255 }) id!: string;
  @Column({ type: 'varchar', length: 100 }) type!: string;
  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' }) receivedAt!: Date;
}
