import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { DocumentChunkEntity } from './document-chunk.entity.js';
import { BotSourceEntity } from './bot-source.entity.js';
import { EMBEDDINGS, type EmbeddingsPort } from './embeddings/embeddings.port.js';
import { OpenAiEmbeddingsAdapter } from './embeddings/openai-embeddings.adapter.js';
import { KnowledgeSearchService } from './knowledge-search.service.js';
import { PassageVectorsRepository } from './passage-vectors.repository.js';
import { PassagesRepository } from './passages.repository.js';
import { SourcePagesRepository } from './source-pages.repository.js';
import { SourcesRepository } from './sources.repository.js';

/** The embeddings adapter when OPENAI_EMBEDDING_MODEL is set; null keeps retrieval full-text only. */
export function createEmbeddings(config: AppConfig): EmbeddingsPort | null {
  if (!config.embeddings) return null;
  return new OpenAiEmbeddingsAdapter(config.embeddings);
}

/**
 * Sources and their passages, and retrieval over them, with no dependency on bots or owners, so
 * the bots, uploads and chat modules can all import it without a cycle.
 */
@Module({
  imports: [TypeOrmModule.forFeature([BotSourceEntity, DocumentChunkEntity])],
  providers: [
    SourcesRepository,
    PassagesRepository,
    SourcePagesRepository,
    PassageVectorsRepository,
    KnowledgeSearchService,
    { provide: EMBEDDINGS, inject: [APP_CONFIG], useFactory: createEmbeddings },
  ],
  exports: [
    SourcesRepository,
    PassagesRepository,
    SourcePagesRepository,
    PassageVectorsRepository,
    KnowledgeSearchService,
    EMBEDDINGS,
  ],
})
export class KnowledgeDataModule {}
