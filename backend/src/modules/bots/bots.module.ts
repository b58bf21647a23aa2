import { Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesModule } from '../categories/categories.module.js';
import { StorageModule } from '../storage/storage.module.js';
import { AccountDataRegistry } from '../users/account-data.js';
import { UsersModule } from '../users/users.module.js';
import { BotEntity } from './bot.entity.js';
import { BotsController } from './bots.controller.js';
import { BotsRepository } from './bots.repository.js';
import { BotsService } from './bots.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([BotEntity]), UsersModule, CategoriesModule, StorageModule],
  controllers: [BotsController],
  providers: [BotsRepository, BotsService],
  exports: [BotsService],
})
export class BotsModule implements OnModuleInit {
  constructor(
    private readonly accountData: AccountDataRegistry,
    private readonly bots: BotsService,
  ) {}

  /** Account deletion removes the owner's bots, categories and files first, in their own transaction. */
  onModuleInit(): void {
    this.accountData.register({
      deleteBeforeAccount: async (ownerId) => {
        const removed = await this.bots.deleteAllOwnedBy(ownerId);
        return [`${removed.bots} bots`, `${removed.categories} categories`];
      },
    });
  }
}
