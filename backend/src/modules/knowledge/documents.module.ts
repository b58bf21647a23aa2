import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BOT_FILES } from '../bots/bot-files.port.js';
import { KnowledgeDataModule } from './knowledge-data.module.js';
import { BotDocumentEntity } from './bot-document.entity.js';
import { DocumentChunkEntity } from './document-chunk.entity.js';
import { DocumentsRepository } from './documents.repository.js';
import { DocumentsService } from './documents.service.js';

/**
 * A bot's reference document (one of its sources). Global for one reason: it provides the bots
 * module's BOT_FILES port, which bots must not import (knowledge depends on bots, not back).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([BotDocumentEntity, DocumentChunkEntity]), KnowledgeDataModule],
  providers: [DocumentsRepository, DocumentsService, { provide: BOT_FILES, useExisting: DocumentsService }],
  exports: [DocumentsService, BOT_FILES],
})
export class DocumentsModule {}
