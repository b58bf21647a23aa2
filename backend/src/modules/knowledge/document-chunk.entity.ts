import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A passage of one of a bot's sources, searchable with PostgreSQL full-text search through the
 * generated `search_vector` column (GIN-indexed in the migration).
 */
@Entity('document_chunks')
@Index('document_chunks_bot_idx', ['botId'])
export class DocumentChunkEntity {
  @PrimaryGeneratedColumn() id!: number;
  /** Set for passages of the bot's reference document only. */
  @Column({ name: 'document_id', type: 'integer', nullable: true }) documentId!: number | null;
  @Column({ name: 'source_id', type: 'integer' }) sourceId!: number;
  @Column({ name: 'bot_id', type: 'integer' }) botId!: number;
  /** 1-based page of the PDF the passage starts on, so answers can cite it (1 for sources without pages). */
  @Column({ type: 'integer' }) page!: number;
  @Column({ type: 'integer' }) ordinal!: number;
  @Column({ type: 'text' }) content!: string;
  /** A website source's passage: the page it comes from. */
  @Column({ name: 'page_url', type: 'varchar', length: 2048, nullable: true }) pageUrl!: string | null;
  @Column({ name: 'page_title', type: 'varchar', length: 300, nullable: true }) pageTitle!: string | null;
  @Column({
    name: 'search_vector',
    type: 'tsvector',
    generatedType: 'STORED',
    asExpression: "to_tsvector('english', content)",
    insert: false,
    update: false,
    select: false,
  })
  searchVector?: string;
}
