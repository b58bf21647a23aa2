import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, GATED, ID_IN_PATH } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer, ApiFileAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { Controller, Get, Logger, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import { LogsExportService, sendWorkbook, XLSX_CONTENT_TYPE } from './logs-export.service.js';
import {
  UsageService,
  type BotUsageResponse,
  type UsageForecastResponse,
  type UsageHistoryResponse,
  type UserUsageResponse,
} from './usage.service.js';

const BOT_NOT_FOUND = { 404: ['BOT_NOT_FOUND'] };

@ApiTags('Usage')
@ApiCookieAuth(SECURITY.session)
@Controller()
@UseGuards(BillingStateGuard)
export class UsageController {
  private readonly logger = new Logger(UsageController.name);

  constructor(
    private readonly usage: UsageService,
    private readonly logsExport: LogsExportService,
  ) {}

  @Get('user/usage')
  @ApiOperation({ summary: "The owner's spend this billing period and credits left" })
  @ApiAnswer(200, 'The figures (cents).')
  @ApiErrors(GATED)
  userUsage(@CurrentUser() user: SessionUser): Promise<UserUsageResponse> {
    return this.usage.getUserUsage(user.id);
  }

  @Get('user/usage-history')
  @ApiOperation({ summary: "The owner's usage over time" })
  @ApiAnswer(200, 'Parallel series.')
  @ApiErrors(GATED)
  userUsageHistory(@CurrentUser() user: SessionUser): Promise<UsageHistoryResponse> {
    return this.usage.getUserUsageHistory(user.id);
  }

  @Get('user/usage-forecast')
  @ApiOperation({
    summary: "The account's and each bot's spend at the billing period's end at this pace, against their budgets",
    description: 'Weekdays weighted like the last four weeks. See docs/product.md#spend-forecast.',
  })
  @ApiAnswer(200, 'The forecasts (cents).')
  @ApiErrors(GATED)
  usageForecast(@CurrentUser() user: SessionUser): Promise<UsageForecastResponse> {
    return this.usage.getUsageForecast(user.id);
  }

  @Get('bots/:id/usage')
  @ApiOperation({ summary: "One bot's spend this billing period and its budget" })
  @ApiAnswer(200, 'The figures.')
  @ApiErrors(GATED, ID_IN_PATH, BOT_NOT_FOUND)
  botUsage(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<BotUsageResponse> {
    return this.usage.getBotUsage(user.id, id);
  }

  @Get('bots/:id/usage-history')
  @ApiOperation({ summary: "One bot's usage over time" })
  @ApiAnswer(200, 'Parallel series.')
  @ApiErrors(GATED, ID_IN_PATH, BOT_NOT_FOUND)
  botUsageHistory(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<UsageHistoryResponse> {
    return this.usage.getBotUsageHistory(user.id, id);
  }

  /** The chat log as an .xlsx, streamed (see LogsExportService). */
  @Get('user/logs/download')
  @ApiOperation({ summary: "Every conversation of the owner's bots as an Excel workbook" })
  @ApiFileAnswer(XLSX_CONTENT_TYPE, 'The .xlsx file (an attachment).')
  @ApiErrors(GATED)
  async downloadLogs(@CurrentUser() user: SessionUser, @Res() res: Response): Promise<void> {
    // The first batch is read before any header is sent: a failure there is still a clean JSON error.
    const prepared = await this.logsExport.prepare(user.id);
    await sendWorkbook(res, prepared, this.logger);
  }
}
