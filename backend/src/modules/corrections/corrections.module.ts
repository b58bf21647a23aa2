import { Module } from '@nestjs/common';
import { BotsModule } from '../bots/bots.module.js';
import { KnowledgeDataModule } from '../knowledge/knowledge-data.module.js';
import { KnowledgeModule } from '../knowledge/knowledge.module.js';
import { UsersModule } from '../users/users.module.js';
import { CorrectionsController } from './corrections.controller.js';
import { CorrectionsService } from './corrections.service.js';
import { QuestionsRepository } from './questions.repository.js';

/** The owner's corrections and the unanswered-questions report (docs/product.md#corrections). */
@Module({
  imports: [UsersModule, BotsModule, KnowledgeModule, KnowledgeDataModule],
  controllers: [CorrectionsController],
  providers: [CorrectionsService, QuestionsRepository],
  exports: [CorrectionsService],
})
export class CorrectionsModule {}
