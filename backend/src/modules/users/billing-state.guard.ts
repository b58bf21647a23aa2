import { HttpStatus, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '../../common/app-error.js';
import { UsersService } from './users.service.js';

/**
 * The dashboard is open only to owners whose billing is set up and paid (docs/product.md#dashboard-gate).
 * The codes let the frontend route: SETUP_REQUIRED -> /complete-setup,
 * SUBSCRIPTION_PENDING -> /setup-success, PAYMENT_FAILED -> /billing-issue.
 * Use after the session guard: `@UseGuards(BillingStateGuard)` on dashboard controllers.
 */
@Injectable()
export class BillingStateGuard implements CanActivate {
  constructor(private readonly users: UsersService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    if (!request.user) throw AppError.unauthorized();
    const user = await this.users.findActiveById(request.user.id);
    if (!user) throw AppError.unauthorized();
    if (!user.stripeCustomerId) {
      throw new AppError(HttpStatus.FORBIDDEN, 'SETUP_REQUIRED', 'Please add a payment method to continue.');
    }
    if (!user.subscriptionItemId) {
      throw new AppError(HttpStatus.FORBIDDEN, 'SUBSCRIPTION_PENDING', 'Your subscription is being set up.');
    }
    if (user.hasPaid === false) {
      throw new AppError(HttpStatus.FORBIDDEN, 'PAYMENT_FAILED', 'Your last payment failed. Please update your card.');
    }
    return true;
  }
}
