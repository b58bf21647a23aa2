import { Controller, Get, Logger, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { BillingStateGuard } from '../../common/billing-state.guard.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import { LogsExportAbortedError, LogsExportService, XLSX_CONTENT_TYPE } from './logs-export.service.js';
import {
  UsageService,
  type BotUsageResponse,
  type UsageHistoryResponse,
  type UserUsageResponse,
} from './usage.service.js';

/** What owners see of their spend and their conversations. Session + billing state, own rows only. */
@Controller()
@UseGuards(BillingStateGuard)
export class UsageController {
  private readonly logger = new Logger(UsageController.name);

  constructor(
    private readonly usage: UsageService,
    private readonly logsExport: LogsExportService,
  ) {}

  @Get('user/usage')
  userUsage(@CurrentUser() user: SessionUser): Promise<UserUsageResponse> {
    return this.usage.getUserUsage(user.id);
  }

  @Get('user/usage-history')
  userUsageHistory(@CurrentUser() user: SessionUser): Promise<UsageHistoryResponse> {
    return this.usage.getUserUsageHistory(user.id);
  }

  @Get('bots/:id/usage')
  botUsage(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<BotUsageResponse> {
    return this.usage.getBotUsage(user.id, id);
  }

  @Get('bots/:id/usage-history')
  botUsageHistory(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<UsageHistoryResponse> {
    return this.usage.getBotUsageHistory(user.id, id);
  }

  /** The chat log as an .xlsx, streamed (see LogsExportService). */
  @Get('user/logs/download')
  async downloadLogs(@CurrentUser() user: SessionUser, @Res() res: Response): Promise<void> {
    // The first batch is read before any header is sent: a failure there is still a clean JSON error.
    const prepared = await this.logsExport.prepare(user.id);
    res.status(200);
    res.setHeader('Content-Type', XLSX_CONTENT_TYPE);
    res.setHeader('Content-Disposition', `attachment; filename="${prepared.fileName}"`);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    try {
      await prepared.writeTo(res);
    } catch (error) {
      // Half a workbook must not look like a complete download: cut the connection.
      if (!(error instanceof LogsExportAbortedError)) {
        this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      }
      res.destroy();
    }
  }
}
