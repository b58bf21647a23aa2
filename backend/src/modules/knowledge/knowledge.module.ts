import { Module } from '@nestjs/common';
import { BotsModule } from '../bots/bots.module.js';
import { DocumentsModule } from './documents.module.js';
import { StorageModule } from '../storage/storage.module.js';
import { UsersModule } from '../users/users.module.js';
import { KnowledgeDataModule } from './knowledge-data.module.js';
import { KnowledgeController } from './knowledge.controller.js';
import { KnowledgeService } from './knowledge.service.js';
import { PassageEmbeddingsService } from './passage-embeddings.service.js';
import { SourceJobsService } from './source-jobs.service.js';
import { SourceJobsWorker } from './source-jobs.worker.js';
import { WebsiteCrawlerModule } from './website/website-crawler.module.js';
import { QuotasModule } from '../quotas/quotas.module.js';

/** A bot's knowledge sources (files, websites, written answers), their extraction and embedding jobs. */
@Module({
  imports: [
    UsersModule,
    BotsModule,
    DocumentsModule,
    StorageModule,
    KnowledgeDataModule,
    WebsiteCrawlerModule,
    QuotasModule,
  ],
  controllers: [KnowledgeController],
  providers: [KnowledgeService, SourceJobsService, SourceJobsWorker, PassageEmbeddingsService],
  exports: [KnowledgeService],
})
export class KnowledgeModule {}
