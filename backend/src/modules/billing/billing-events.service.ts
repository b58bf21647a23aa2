import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { UsersService } from '../users/users.service.js';
import { PAYMENTS, type BillingEvent, type PaymentsPort } from './payments.port.js';
import { WebhookEventsRepository } from './webhook-events.repository.js';
import { TransactionRunner } from '../../database/transaction.js';

export type EventOutcome = 'processed' | 'duplicate' | 'ignored';

/**
 * Acts on the payment provider's events: Stripe's verified webhooks, or the test mode's events
 * delivered in-process. Each event id takes effect once:
 * 1. an id already recorded is a no-op (replays, retries, duplicates);
 * 2. calls to the provider come first (all idempotent), so a failure leaves the event unrecorded
 *    and the provider's retry does the work;
 * 3. recording the id and the database changes commit together.
 */
@Injectable()
export class BillingEventsService implements OnModuleInit {
  private readonly logger = new Logger('BillingEvents');

  constructor(
    @Inject(PAYMENTS) private readonly payments: PaymentsPort,
    private readonly users: UsersService,
    private readonly processed: WebhookEventsRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  onModuleInit(): void {
    this.payments.setEventSink((event) => this.handle(event).then(() => undefined));
  }

  async handle(event: BillingEvent): Promise<EventOutcome> {
    if (await this.processed.seen(event.id)) return 'duplicate';
    const customerId = event.customerId;

    // Provider-side effects (idempotent), before anything is recorded.
    let hasOverdue = false;
    if (customerId && event.type === 'checkout.session.completed' && event.checkoutMode === 'setup') {
      if (event.checkoutSessionId) {
        await this.payments.useNewPaymentMethod({ customerId, checkoutSessionId: event.checkoutSessionId });
      }
    } else if (customerId && event.type === 'invoice.paid') {
      // Another invoice may still be unpaid: access comes back only when none is.
      hasOverdue = await this.payments.hasOverdueInvoices(customerId);
    }

    return this.transactions.run(async (tx) => {
      if (!(await this.processed.record(tx, event.id, event.type))) return 'duplicate';
      if (!customerId) return 'ignored';
      switch (event.type) {
        case 'invoice.paid':
          await this.users.setPaymentStatus(customerId, !hasOverdue, event.created, tx);
          return 'processed';
        case 'invoice.payment_failed':
          await this.users.setPaymentStatus(customerId, false, event.created, tx);
          this.logger.warn(`Payment failed for customer ${customerId} (invoice ${event.invoiceId ?? '?'})`);
          return 'processed';
        case 'customer.subscription.deleted':
          if (event.subscriptionId) await this.users.clearSubscription(customerId, event.subscriptionId, tx);
          return 'processed';
        case 'checkout.session.completed':
        case 'payment_method.attached':
          // The card itself lives at the provider; has-payment-method asks it directly.
          return 'processed';
        default:
          return 'ignored';
      }
    });
  }
}
