import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AnalyticsResponse } from '@botsmith/contract';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { ApiErrors, GATED } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { AnalyticsAdmission } from './analytics-admission.js';
import { AnalyticsQueryDto } from './analytics.dto.js';
import { AnalyticsService } from './analytics.service.js';

@ApiTags('Analytics')
@ApiCookieAuth(SECURITY.session)
@Controller('analytics')
@UseGuards(BillingStateGuard)
export class AnalyticsController {
  constructor(
    private readonly analytics: AnalyticsService,
    private readonly admission: AnalyticsAdmission,
  ) {}

  @Get()
  @ApiOperation({
    summary: "What the owner's money bought over a period: conversations by outcome, spend, cost per resolved one",
    description:
      'One bot (botId) or all of the owner’s; days from..to (both included, default the last 30) counted in timeZone ' +
      '(IANA, default UTC); the series by day or week. See docs/product.md#analytics.',
  })
  @ApiAnswer(200, 'The figures.')
  @ApiErrors(GATED, { 400: ['VALIDATION_FAILED', 'INVALID_RANGE'], 404: ['BOT_NOT_FOUND'], 429: ['RATE_LIMITED'] })
  get(@CurrentUser() user: SessionUser, @Query() query: AnalyticsQueryDto): Promise<AnalyticsResponse> {
    return this.admission.run(user.id, () => this.analytics.analytics(user.id, query));
  }
}
