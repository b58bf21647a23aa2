import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One signup of an address that has no verified account yet: its mailed link (only the link's
 * SHA-256), the password submitted with it, and the SHA-256 of the pre-auth cookie of the browser
 * that submitted it. Several can be open for one account; verifying one ends the others.
 */
@Entity('pending_signups')
@Index('pending_signups_user_idx', ['userId'])
export class PendingSignupEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'user_id', type: 'integer' }) userId!: number;
  @Index('pending_signups_token_key', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;
  @Column({ name: 'password_hash', type: 'text' }) passwordHash!: string;
  /** null for links made before signups were tied to a browser: those always need the password step. */
  @Column({ name: 'browser_hash', type: 'char', length: 64, nullable: true }) browserHash!: string | null;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt!: Date;
  /** When it was verified, or ended by another signup's verification, a reset or a deletion. */
  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true }) endedAt!: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
