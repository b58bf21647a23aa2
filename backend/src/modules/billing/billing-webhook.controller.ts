import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { Controller, Headers, HttpCode, HttpStatus, Inject, Post, Req, type RawBodyRequest } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '../../common/app-error.js';
import { Public } from '../../common/public.decorator.js';
import { SkipOriginCheck } from '../../common/skip-origin-check.decorator.js';
import { BillingEventsService } from './billing-events.service.js';
import { PAYMENTS, WebhookSignatureError, type PaymentsPort } from './payments.port.js';

/**
 * POST /api/billing/webhook: the provider's events. No session (it is the provider calling), so
 * the only proof is the signature, checked on the exact bytes received (the app keeps
 * `req.rawBody`); anything not verified is 400 and changes nothing. Not subject to the Origin
 * check for cookie requests (it carries no cookie and no browser Origin).
 */
@ApiTags('Billing')
@Controller('billing')
export class BillingWebhookController {
  constructor(
    @Inject(PAYMENTS) private readonly payments: PaymentsPort,
    private readonly events: BillingEventsService,
  ) {}

  @Public()
  @SkipOriginCheck()
  @Post('webhook')
  @ApiOperation({ summary: "The payment provider's events (signed; each event id acts once)" })
  @ApiHeader({ name: 'stripe-signature', required: true, description: "The provider's signature of the raw body." })
  @ApiAnswer(200, 'The event was received.')
  @ApiErrors({ 400: ['WEBHOOK_SIGNATURE_INVALID', 'INVALID_JSON'], 413: ['PAYLOAD_TOO_LARGE'] })
  @HttpCode(HttpStatus.OK)
  async receive(
    @Req() req: RawBodyRequest<Request>,
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<{ received: true; duplicate: boolean }> {
    if (!req.rawBody) {
      throw new AppError(
        HttpStatus.BAD_REQUEST,
        'WEBHOOK_SIGNATURE_INVALID',
        'A signed JSON webhook body is required.',
      );
    }
    let event;
    try {
      event = await this.payments.parseWebhook(req.rawBody, signature);
    } catch (error) {
      if (error instanceof WebhookSignatureError) {
        throw new AppError(
          HttpStatus.BAD_REQUEST,
          'WEBHOOK_SIGNATURE_INVALID',
          'The webhook signature could not be verified.',
        );
      }
      throw error;
    }
    const outcome = await this.events.handle(event);
    return { received: true, duplicate: outcome === 'duplicate' };
  }
}
