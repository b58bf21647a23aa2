import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** The one reference PDF of a bot. Replacing it replaces the row and its chunks. */
@Entity('bot_documents')
export class BotDocumentEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Index('bot_documents_bot_key', { unique: true })
  @Column({ name: 'bot_id', type: 'integer' })
  botId!: number;
  /** The client's file name, for display only; never used on disk. */
  @Column({ name: 'original_name', type: 'varchar', length: 255 }) originalName!: string;
  /** Generated storage key (uploads port). */
  @Column({ name: 'storage_key', type: 'varchar', length: 255 }) storageKey!: string;
  /** URL path the file is served back from. */
  @Column({ name: 'file_path', type: 'varchar', length: 500 }) filePath!: string;
  @Column({ name: 'size_bytes', type: 'integer' }) sizeBytes!: number;
  @Column({ name: 'page_count', type: 'integer' }) pageCount!: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
