import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BotDocumentEntity } from './bot-document.entity.js';
import { DocumentChunkEntity } from './document-chunk.entity.js';
import { DocumentsRepository } from './documents.repository.js';
import { DocumentsService } from './documents.service.js';

/** Bot documents and their searchable passages. Import it to call DocumentsService.searchChunks. */
@Module({
  imports: [TypeOrmModule.forFeature([BotDocumentEntity, DocumentChunkEntity])],
  providers: [DocumentsRepository, DocumentsService],
  exports: [DocumentsService],
})
export class DocumentsModule {}
