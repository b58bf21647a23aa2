import { Module, type OnModuleInit } from '@nestjs/common';
import { AccountDataRegistry } from '../users/account-data.js';
import { UsersModule } from '../users/users.module.js';
import { LeadsController } from './leads.controller.js';
import { LeadsExportService } from './leads-export.service.js';
import { LeadsRepository } from './leads.repository.js';
import { LeadsService } from './leads.service.js';

/**
 * The owner's leads (docs/product.md#leads-and-handoff): the `leads` table and the owner's routes.
 * The chat module records leads (POST /api/chat/lead) and expires them with its retention job
 * through LeadsService; the owner's leads go inside the account deletion's transaction.
 */
@Module({
  imports: [UsersModule],
  controllers: [LeadsController],
  providers: [LeadsRepository, LeadsService, LeadsExportService],
  exports: [LeadsService],
})
export class LeadsModule implements OnModuleInit {
  constructor(
    private readonly accountData: AccountDataRegistry,
    private readonly leads: LeadsRepository,
  ) {}

  onModuleInit(): void {
    this.accountData.register({
      deleteWithinAccount: (ownerId, tx) => this.leads.deleteAllOf(ownerId, tx),
    });
  }
}
