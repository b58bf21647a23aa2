import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesModule } from '../categories/categories.module.js';
import { DocumentsModule } from '../uploads/documents.module.js';
import { StorageModule } from '../uploads/storage/storage.module.js';
import { UsersModule } from '../users/users.module.js';
import { BotEntity } from './bot.entity.js';
import { BotsController } from './bots.controller.js';
import { BotsRepository } from './bots.repository.js';
import { BotsService } from './bots.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([BotEntity]), UsersModule, CategoriesModule, DocumentsModule, StorageModule],
  controllers: [BotsController],
  providers: [BotsRepository, BotsService],
  exports: [BotsService],
})
export class BotsModule {}
