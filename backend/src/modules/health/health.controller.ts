import { Controller, Get } from '@nestjs/common';
import { Public } from '../../common/public.decorator.js';
import { HealthService, type HealthReport } from './health.service.js';

@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Public()
  @Get()
  check(): Promise<HealthReport> {
    return this.health.report();
  }
}
