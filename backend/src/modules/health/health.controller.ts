import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import type { Response } from 'express';
import { SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../common/outage.js';
import { Public } from '../../common/public.decorator.js';
import { HealthService, type HealthOutage, type HealthReport } from './health.service.js';

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** 200 with the database's engine and latency, or 503 with Retry-After saying the database is down. */
  @Public()
  @Get()
  @ApiOperation({ summary: 'Whether the server and its database answer' })
  @ApiAnswer(200, 'The database answers.')
  @ApiErrors()
  async check(@Res({ passthrough: true }) res: Response): Promise<HealthReport | HealthOutage> {
    const report = await this.health.report();
    if (report.status !== 'ok') {
      res.status(HttpStatus.SERVICE_UNAVAILABLE);
      res.setHeader('Retry-After', String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS));
      res.setHeader('Cache-Control', 'no-store');
    }
    return report;
  }
}
