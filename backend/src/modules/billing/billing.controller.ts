import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, GATED, JSON_BODY, SAME_SITE, SIGNED_IN } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { Body, Controller, Get, HttpCode, HttpStatus, Post, UseGuards } from '@nestjs/common';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { BillingService, type BillingOverviewResponse, type SubscriptionResponse } from './billing.service.js';
import { EmptyBody } from './billing.dto.js';

/** The setup calls (docs/product.md#billing-api): signed-in owner; no billing-state guard, they ARE the setup. */
const PROVIDER_FAILED = { 502: ['PAYMENT_PROVIDER_ERROR'] };

@ApiTags('Billing')
@ApiCookieAuth(SECURITY.session)
@Controller()
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Post('auth/create-stripe-customer')
  @ApiOperation({ summary: 'Creates the payment customer (once) and answers the card page to add a card' })
  @ApiAnswer(200, 'The card page.')
  @ApiErrors(SIGNED_IN, SAME_SITE, JSON_BODY, PROVIDER_FAILED)
  @HttpCode(HttpStatus.OK)
  createCustomer(@CurrentUser() user: SessionUser, @Body() _body: EmptyBody): Promise<{ url: string }> {
    return this.billing.createCustomer(user.id);
  }

  @Get('auth/has-payment-method')
  @ApiOperation({ summary: 'Whether the owner has a card on file' })
  @ApiAnswer(200, 'Whether a card is on file.')
  @ApiErrors(SIGNED_IN, PROVIDER_FAILED)
  hasPaymentMethod(@CurrentUser() user: SessionUser): Promise<{ hasPaymentMethod: boolean }> {
    return this.billing.hasPaymentMethod(user.id);
  }

  @Post('auth/create-payment-method-session')
  @ApiOperation({ summary: 'A card page to change the card (after a failed payment it returns to /billing-issue)' })
  @ApiAnswer(200, 'The card page.')
  @ApiErrors(SIGNED_IN, SAME_SITE, JSON_BODY, PROVIDER_FAILED)
  @HttpCode(HttpStatus.OK)
  createPaymentMethodSession(@CurrentUser() user: SessionUser, @Body() _body: EmptyBody): Promise<{ url: string }> {
    return this.billing.createPaymentMethodSession(user.id);
  }

  @Post('auth/create-stripe-subscription')
  @ApiOperation({ summary: 'Starts the metered subscription (a second call answers the same one)' })
  @ApiAnswer(200, 'The subscription item.')
  @ApiErrors(SIGNED_IN, SAME_SITE, JSON_BODY, PROVIDER_FAILED, {
    400: ['SETUP_REQUIRED', 'PAYMENT_METHOD_REQUIRED'],
    402: ['CARD_DECLINED'],
  })
  @HttpCode(HttpStatus.OK)
  createSubscription(
    @CurrentUser() user: SessionUser,
    @Body() _body: EmptyBody,
  ): Promise<{ subscriptionItemId: string }> {
    return this.billing.createSubscription(user.id);
  }

  /**
   * The Settings' Billing section. Signed in, not gated: an owner whose payment failed must still
   * see the card and the invoices, and change the card.
   */
  @Get('billing')
  @ApiOperation({ summary: 'The card on file and the latest invoices' })
  @ApiAnswer(200, 'The card and the invoices, newest first.')
  @ApiErrors(SIGNED_IN, PROVIDER_FAILED)
  getOverview(@CurrentUser() user: SessionUser): Promise<BillingOverviewResponse> {
    return this.billing.getOverview(user.id);
  }

  @Post('billing/portal')
  @ApiOperation({ summary: "A page to change the card: Stripe's customer portal, or the test-mode card page" })
  @ApiAnswer(200, 'The page to send the browser to.')
  @ApiErrors(SIGNED_IN, SAME_SITE, JSON_BODY, PROVIDER_FAILED, {
    400: ['SETUP_REQUIRED'],
    429: ['PORTAL_LIMIT_REACHED'],
  })
  @HttpCode(HttpStatus.OK)
  createPortalSession(@CurrentUser() user: SessionUser, @Body() _body: EmptyBody): Promise<{ url: string }> {
    return this.billing.createPortalSession(user.id);
  }

  /** A dashboard call: behind the billing-state guard like the rest of the dashboard. */
  @Get('subscription')
  @ApiOperation({ summary: "The owner's subscription, credits and usage period" })
  @ApiAnswer(200, 'The subscription.')
  @ApiErrors(GATED, PROVIDER_FAILED)
  @UseGuards(BillingStateGuard)
  getSubscription(@CurrentUser() user: SessionUser): Promise<SubscriptionResponse> {
    return this.billing.getSubscription(user.id);
  }
}
