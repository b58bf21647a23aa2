import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { RefreshSchedule, SourceFormat, SourceKind, SourceStatus } from '@botsmith/contract';

// The kinds, statuses, formats and schedules are the contract's (contract/src/knowledge.ts).
export { REFRESH_SCHEDULES, SOURCE_FORMATS, SOURCE_KINDS, SOURCE_STATUSES } from '@botsmith/contract';
export type { RefreshSchedule, SourceFormat, SourceKind, SourceStatus };

/**
 * One thing a bot knows: a file, a website or a written answer. Its passages live in
 * `document_chunks` (deleted with it). A source in status 'processing' is also a job: the
 * `job_*` columns say which instance holds it and until when.
 */
@Entity('bot_sources')
export class BotSourceEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'bot_id', type: 'integer' }) botId!: number;
  @Column({ type: 'varchar', length: 16 }) kind!: SourceKind;
  /** The owner's name for it (a file's name, a page title, a written answer's title); display only. */
  @Column({ type: 'varchar', length: 255 }) name!: string;
  @Column({ type: 'varchar', length: 16 }) status!: SourceStatus;
  /** Why it failed, as a sentence the owner can act on. */
  @Column({ type: 'varchar', length: 500, nullable: true }) error!: string | null;
  @Column({ type: 'varchar', length: 16, nullable: true }) format!: SourceFormat | null;
  /** A PDF's page count; null for sources without pages. */
  @Column({ type: 'integer', nullable: true }) pages!: number | null;
  @Column({ type: 'integer', default: 0 }) chunks!: number;
  /** Size of the file or text, counted against the bot's quota. */
  @Column({ type: 'integer', default: 0 }) bytes!: number;
  @Column({ type: 'varchar', length: 2048, nullable: true }) url!: string | null;
  /** A website source: how many pages a crawl reads at most. */
  @Column({ name: 'max_pages', type: 'integer', nullable: true }) maxPages!: number | null;
  /** Generated storage key of a file source (uploads port); never the client's name. */
  @Column({ name: 'storage_key', type: 'varchar', length: 255, nullable: true }) storageKey!: string | null;
  /** The bot's "reference document", replaced by POST /api/upload/update-document. */
  @Column({ name: 'is_reference', type: 'boolean', default: false }) isReference!: boolean;
  /** An owner's correction of an answer (kept apart so a later feature can list them). */
  @Column({ name: 'is_correction', type: 'boolean', default: false }) isCorrection!: boolean;
  /** A correction: the visitor question it answers (its text is the owner's answer). */
  @Column({ type: 'varchar', length: 1000, nullable: true }) question!: string | null;
  /** A written answer or correction: the text as its owner wrote it (read only to edit it). */
  @Column({ type: 'text', nullable: true, select: false }) text?: string | null;
  /** A website source: how often it is read again by itself ('off' for other kinds). */
  @Column({ name: 'refresh_schedule', type: 'varchar', length: 8, default: 'off' }) refreshSchedule!: RefreshSchedule;
  /** A website source: when a crawl last finished reading it. */
  @Column({ name: 'last_refreshed_at', type: 'timestamptz', nullable: true }) lastRefreshedAt!: Date | null;
  /** When the schedule next reads it; null when no refresh is due (schedule 'off', or a crawl under way). */
  @Column({ name: 'next_refresh_at', type: 'timestamptz', nullable: true }) nextRefreshAt!: Date | null;
  /** A sentence about a ready source the owner should know (the quota stopped a crawl, a refresh failed). */
  @Column({ type: 'varchar', length: 500, nullable: true }) notice!: string | null;
  @Column({ name: 'job_token', type: 'uuid', nullable: true }) jobToken!: string | null;
  @Column({ name: 'job_lease_until', type: 'timestamptz', nullable: true }) jobLeaseUntil!: Date | null;
  @Column({ name: 'job_attempts', type: 'integer', default: 0 }) jobAttempts!: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
