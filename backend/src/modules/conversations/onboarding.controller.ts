import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import type { OnboardingState } from '@botsmith/contract';
import { ApiErrors, GATED } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { OnboardingRepository } from './onboarding.repository.js';

/** The dashboard's "Next steps" checklist (docs/product.md#next-steps): each step from real state, own rows only. */
@ApiTags('Conversations')
@ApiCookieAuth(SECURITY.session)
@Controller('onboarding')
@UseGuards(BillingStateGuard)
export class OnboardingController {
  constructor(
    private readonly onboarding: OnboardingRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: "Which of a new account's first steps are done: knowledge, a conversation, a site" })
  @ApiAnswer(200, 'Three flags.')
  @ApiErrors(GATED)
  state(@CurrentUser() user: SessionUser): Promise<OnboardingState> {
    return this.onboarding.stateOf(user.id, new URL(this.config.publicUrl).origin);
  }
}
