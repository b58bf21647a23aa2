import { Module } from '@nestjs/common';
import { BotsModule } from '../bots/bots.module.js';
import { UsersModule } from '../users/users.module.js';
import { ActionsController } from './actions.controller.js';
import { ActionsRepository } from './actions.repository.js';
import { ActionsService } from './actions.service.js';

/**
 * Actions (docs/product.md#actions): a bot's HTTP actions and the runner that calls them. A
 * bot's actions go with it (ON DELETE CASCADE), and so with its owner's account.
 */
@Module({
  imports: [UsersModule, BotsModule],
  controllers: [ActionsController],
  providers: [ActionsRepository, ActionsService],
  exports: [ActionsService],
})
export class ActionsModule {}
