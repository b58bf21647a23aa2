import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Delete, Get, HttpCode, Logger, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import type { LeadsPage } from '@botsmith/contract';
import { ApiErrors, GATED, ID_IN_PATH, SAME_SITE } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer, ApiFileAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { sendWorkbook, XLSX_CONTENT_TYPE } from '../usage/logs-export.service.js';
import { LeadFiltersDto, LeadsPageQueryDto } from './leads.dto.js';
import { LeadsExportService } from './leads-export.service.js';
import { LeadsService } from './leads.service.js';

const FILTERS = { 400: ['VALIDATION_FAILED', 'INVALID_CHARACTERS'], 404: ['BOT_NOT_FOUND'] };

/** The owner's leads (docs/product.md#leads-and-handoff). Session + billing state, own rows only. */
@ApiTags('Leads')
@ApiCookieAuth(SECURITY.session)
@Controller('leads')
@UseGuards(BillingStateGuard)
export class LeadsController {
  private readonly logger = new Logger(LeadsController.name);

  constructor(
    private readonly leads: LeadsService,
    private readonly exports: LeadsExportService,
  ) {}

  @Get()
  @ApiOperation({ summary: "The owner's leads, newest first, one page at a time" })
  @ApiAnswer(200, 'A page; pass nextCursor back as cursor (with the same botId) for the next one.')
  @ApiErrors(GATED, FILTERS, { 400: ['INVALID_CURSOR'] })
  list(@CurrentUser() user: SessionUser, @Query() query: LeadsPageQueryDto): Promise<LeadsPage> {
    return this.leads.list(user.id, query);
  }

  /** Declared before `:id`, which would otherwise take "export" for an id. */
  @Get('export')
  @ApiOperation({ summary: "The owner's leads (of one bot, or all) as an Excel workbook, newest first" })
  @ApiFileAnswer(XLSX_CONTENT_TYPE, 'The .xlsx file (an attachment).')
  @ApiErrors(GATED, FILTERS)
  async export(@CurrentUser() user: SessionUser, @Query() query: LeadFiltersDto, @Res() res: Response): Promise<void> {
    // The filter is checked and the first batch read before any header is sent: errors stay JSON.
    const prepared = await this.exports.prepare(user.id, await this.leads.botFilter(user.id, query));
    await sendWorkbook(res, prepared, this.logger);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deletes a lead (its conversation stays)' })
  @ApiAnswer(204, 'Deleted.')
  @ApiErrors(GATED, SAME_SITE, ID_IN_PATH, { 404: ['LEAD_NOT_FOUND'] })
  @HttpCode(204)
  async delete(@CurrentUser() user: SessionUser, @IdParam('id') id: number): Promise<void> {
    await this.leads.delete(user.id, id);
  }
}
