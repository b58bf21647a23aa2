import { Module, type OnModuleInit } from '@nestjs/common';
import { MailModule } from '../mail/mail.module.js';
import { AccountDataRegistry } from '../users/account-data.js';
import { UsersModule } from '../users/users.module.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Webhooks (docs/product.md#webhooks): the owner's endpoints, the delivery queue and its worker.
 * Other modules publish events through `WebhooksService.publish` / `notify`.
 */
@Module({
  imports: [UsersModule, MailModule],
  controllers: [WebhooksController],
  providers: [WebhooksRepository, WebhooksService, WebhookDeliveryWorker],
  exports: [WebhooksService],
})
export class WebhooksModule implements OnModuleInit {
  constructor(
    private readonly registry: AccountDataRegistry,
    private readonly repository: WebhooksRepository,
  ) {}

  onModuleInit(): void {
    // A deleted account's endpoints go with it: nothing is sent on its behalf any more.
    this.registry.register({ deleteWithinAccount: (ownerId, tx) => this.repository.deleteAllOf(ownerId, tx) });
  }
}
