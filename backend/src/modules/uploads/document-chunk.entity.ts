import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A passage of a bot's document, searchable with PostgreSQL full-text search through the
 * generated `search_vector` column (GIN-indexed in the migration).
 */
@Entity('document_chunks')
@Index('document_chunks_bot_idx', ['botId'])
export class DocumentChunkEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'document_id', type: 'integer' }) documentId!: number;
  @Column({ name: 'bot_id', type: 'integer' }) botId!: number;
  /** 1-based page of the PDF the passage starts on, so answers can cite it. */
  @Column({ type: 'integer' }) page!: number;
  @Column({ type: 'integer' }) ordinal!: number;
  @Column({ type: 'text' }) content!: string;
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
