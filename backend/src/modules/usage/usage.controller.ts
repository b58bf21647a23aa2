import { Controller, Get, Logger, Param, ParseIntPipe, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { AppError } from '../../common/app-error.js';
import { BillingStateGuard } from '../../common/billing-state.guard.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { LogsExportAbortedError, LogsExportService, XLSX_CONTENT_TYPE } from './logs-export.service.js';
import {
  UsageService,
  type BotUsageResponse,
  type UsageHistoryResponse,
  type UserUsageResponse,
} from './usage.service.js';

const MAX_ID = 2_147_483_647;

/** A path id: a positive 32-bit integer, else 400 (a too-large id would otherwise fail in the database). */
const botIdPipe = new ParseIntPipe({
  exceptionFactory: () => AppError.badRequest('The bot id must be a whole number.', 'INVALID_ID'),
});
function checkId(id: number): number {
  if (id < 1 || id > MAX_ID) throw AppError.badRequest('The bot id must be a whole number.', 'INVALID_ID');
  return id;
}

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
  botUsage(@CurrentUser() user: SessionUser, @Param('id', botIdPipe) id: number): Promise<BotUsageResponse> {
    return this.usage.getBotUsage(user.id, checkId(id));
  }

  @Get('bots/:id/usage-history')
  botUsageHistory(@CurrentUser() user: SessionUser, @Param('id', botIdPipe) id: number): Promise<UsageHistoryResponse> {
    return this.usage.getBotUsageHistory(user.id, checkId(id));
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
