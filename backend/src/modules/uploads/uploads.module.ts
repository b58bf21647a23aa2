import { Module } from '@nestjs/common';
import { BotsModule } from '../bots/bots.module.js';
import { UsersModule } from '../users/users.module.js';
import { DocumentsModule } from '../knowledge/documents.module.js';
import { StorageModule } from '../storage/storage.module.js';
import { UploadsController } from './uploads.controller.js';
import { UploadsService } from './uploads.service.js';

@Module({
  imports: [UsersModule, BotsModule, DocumentsModule, StorageModule],
  controllers: [UploadsController],
  providers: [UploadsService],
})
export class UploadsModule {}
