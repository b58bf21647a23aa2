import { ApiCookieAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Get, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { MailUsageResponse, NotifyEmailsResponse } from '@botsmith/contract';
import { AppError } from '../../common/app-error.js';
import { ApiErrors, GATED, ID_IN_PATH, JSON_BODY, SAME_SITE } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import { Public } from '../../common/public.decorator.js';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { confirmationPage, invalidLinkPage } from './confirmation.page.js';
import { ResendConfirmationDto } from './mail-consent.dto.js';
import { MailConsentService, type ConfirmationView } from './mail-consent.service.js';
import { MailQuotaService } from './mail-quota.service.js';

const LINK_ERRORS = { 404: ['CONFIRMATION_LINK_INVALID'] };

/** The owner's side of mail consent (docs/product.md#mail-consent): lead address states and the day's mail. */
@ApiTags('Mail consent')
@ApiCookieAuth(SECURITY.session)
@Controller()
@UseGuards(BillingStateGuard)
export class MailConsentController {
  constructor(
    private readonly consent: MailConsentService,
    private readonly quota: MailQuotaService,
  ) {}

  @Get('bots/:id/notify-emails')
  @ApiOperation({ summary: "The bot's lead addresses: each the owner's own, confirmed or pending" })
  @ApiAnswer(200, 'In the order of the bot setting.')
  @ApiErrors(GATED, ID_IN_PATH, { 404: ['BOT_NOT_FOUND'] })
  statuses(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<NotifyEmailsResponse> {
    return this.consent.statuses(user.id, id);
  }

  @Post('bots/:id/notify-emails/resend')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mails a pending lead address its confirmation request again' })
  @ApiAnswer(200, 'Sent; the addresses with their states.')
  @ApiErrors(GATED, SAME_SITE, JSON_BODY, ID_IN_PATH, {
    404: ['BOT_NOT_FOUND'],
    409: ['NOTIFY_EMAIL_NOT_PENDING', 'CONFIRMATION_REQUESTS_SPENT'],
    429: ['CONFIRMATION_RECENTLY_SENT', 'MAIL_DAILY_LIMIT'],
  })
  resend(
    @CurrentUser() user: SessionUser,
    @IdParam('id') id: number,
    @Body() body: ResendConfirmationDto,
  ): Promise<NotifyEmailsResponse> {
    return this.consent.resend(user.id, id, body.email);
  }

  @Get('mail/usage')
  @ApiOperation({ summary: 'The mails the account triggered today (UTC) against its daily limit' })
  @ApiAnswer(200, 'limitReached: later mails wait for tomorrow; leads and replies stay in the inbox.')
  @ApiErrors(GATED)
  usage(@CurrentUser() user: SessionUser): Promise<MailUsageResponse> {
    return this.quota.usage(user.id);
  }
}

/**
 * The link of a confirmation mail (docs/product.md#mail-consent): a public HTML page. GET only asks;
 * the page's form POSTs to the same address to confirm. A client that does not ask for HTML gets
 * JSON errors like every other route.
 */
@ApiTags('Mail consent')
@Controller('mail/confirm')
export class MailConfirmationController {
  constructor(private readonly consent: MailConsentService) {}

  @Public()
  @Get(':token')
  @ApiOperation({ summary: 'The page of a confirmation link: asks to confirm, or shows the confirmed state' })
  @ApiProduces('text/html')
  @ApiAnswer(200, 'An HTML page.')
  @ApiErrors(LINK_ERRORS)
  async view(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.render(req, res, () => this.consent.view(token));
  }

  @Public()
  @Post(':token')
  @HttpCode(200)
  @ApiOperation({ summary: "Confirms the link's address; for a visitor, shows the owner's replies" })
  @ApiProduces('text/html')
  @ApiAnswer(200, 'An HTML page.')
  @ApiErrors(SAME_SITE, LINK_ERRORS)
  async confirm(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.render(req, res, () => this.consent.confirm(token));
  }

  private async render(req: Request, res: Response, load: () => Promise<ConfirmationView>): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    // The page's own button posts back to it: under the app-wide "no-referrer", a browser sends
    // that POST with `Origin: null`, which the origin check refuses. "same-origin" lets it name
    // our origin (and still sends nothing to other sites).
    res.setHeader('Referrer-Policy', 'same-origin');
    try {
      const view = await load();
      res.type('html').send(confirmationPage(view));
    } catch (error) {
      if (!(error instanceof AppError) || !(req.headers.accept ?? '').includes('text/html')) throw error;
      const { error: sentence } = error.getResponse() as { error: string };
      res.status(error.getStatus()).type('html').send(invalidLinkPage(sentence));
    }
  }
}
