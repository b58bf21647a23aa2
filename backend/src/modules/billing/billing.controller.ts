import { Body, Controller, Get, HttpCode, HttpStatus, Post, UseGuards } from '@nestjs/common';
import { BillingStateGuard } from '../../common/billing-state.guard.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { BillingService, type SubscriptionResponse } from './billing.service.js';
import { EmptyBody } from './billing.dto.js';

/** The setup calls of API.md "Billing" (signed-in owner; no billing-state guard: they ARE the setup). */
@Controller()
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Post('auth/create-stripe-customer')
  @HttpCode(HttpStatus.OK)
  createCustomer(@CurrentUser() user: SessionUser, @Body() _body: EmptyBody): Promise<{ url: string }> {
    return this.billing.createCustomer(user.id);
  }

  @Get('auth/has-payment-method')
  hasPaymentMethod(@CurrentUser() user: SessionUser): Promise<{ hasPaymentMethod: boolean }> {
    return this.billing.hasPaymentMethod(user.id);
  }

  @Post('auth/create-payment-method-session')
  @HttpCode(HttpStatus.OK)
  createPaymentMethodSession(@CurrentUser() user: SessionUser, @Body() _body: EmptyBody): Promise<{ url: string }> {
    return this.billing.createPaymentMethodSession(user.id);
  }

  @Post('auth/create-stripe-subscription')
  @HttpCode(HttpStatus.OK)
  createSubscription(
    @CurrentUser() user: SessionUser,
    @Body() _body: EmptyBody,
  ): Promise<{ subscriptionItemId: string }> {
    return this.billing.createSubscription(user.id);
  }

  /** A dashboard call: behind the billing-state guard like the rest of the dashboard. */
  @Get('subscription')
  @UseGuards(BillingStateGuard)
  getSubscription(@CurrentUser() user: SessionUser): Promise<SubscriptionResponse> {
    return this.billing.getSubscription(user.id);
  }
}
