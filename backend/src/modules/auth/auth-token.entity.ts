import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Verification links are pending signups (pending-signup.entity.ts); this table holds reset links. */
export type AuthTokenPurpose = 'reset-password';

/** A single-use e-mailed token. Only its SHA-256 is stored, so a database leak reveals no link. */
@Entity('auth_tokens')
@Index('auth_tokens_user_idx', ['userId', 'purpose'])
export class AuthTokenEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'user_id', type: 'integer' }) userId!: number;
  @Column({ type: 'varchar', length: 32 }) purpose!: AuthTokenPurpose;
  @Index('auth_tokens_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt!: Date;
  @Column({ name: 'used_at', type: 'timestamptz', nullable: true }) usedAt!: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
