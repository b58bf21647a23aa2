import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A message in flight. The row is two things at once:
 * - the visitor's lock: unique per (bot, visitor), so a second message of the same visitor is
 *   refused while the first is answered, across every API instance;
 * - the budget reservation: `amount_cents` is set, under a lock of the bot row, only when the
 *   bot's period spend plus every other reservation leaves room for this message's price.
 * It is deleted when the message is answered (in the charging transaction), refused, fails or is
 * aborted. A crashed instance's rows stop counting at `expires_at`.
 */
@Entity('chat_reservations')
@Index('chat_reservations_bot_visitor_key', ['botId', 'visitorId'], { unique: true })
export class ChatReservationEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'bot_id', type: 'integer' }) botId!: number;
  @Column({ name: 'visitor_id', type: 'varchar', length: 64 }) visitorId!: string;
  /** 0 until the budget check reserved the message's price. */
  @Column({ name: 'amount_cents', type: 'integer', default: 0 }) amountCents!: number;
  @Column({ name: 'period_start', type: 'date', nullable: true }) periodStart!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt!: Date;
}
