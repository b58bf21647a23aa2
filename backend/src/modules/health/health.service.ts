import { Inject, Injectable, Logger } from '@nestjs/common';
import { SERVICE_UNAVAILABLE_SENTENCE } from '../../common/outage.js';
import { DatabasePing } from '../../database/database-ping.js';
import { DATABASE_TARGET } from '../../database/database.module.js';
import type { DatabaseTarget } from '../../database/database.options.js';
import { describeError } from '../../common/error-description.js';

type Engine = 'pglite' | 'postgresql';

export interface HealthReport {
  status: 'ok';
  database: { status: 'up'; engine: Engine; latencyMs: number };
}

/** The answer while the database cannot be reached: the outage sentence, and which part is down. */
export interface HealthOutage {
  error: string;
  code: 'SERVICE_UNAVAILABLE';
  status: 'unavailable';
  database: { status: 'down'; engine: Engine };
}

@Injectable()
export class HealthService {
  private readonly logger = new Logger(HealthService.name);

  constructor(
    private readonly database: DatabasePing,
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
  ) {}

  async report(): Promise<HealthReport | HealthOutage> {
    const engine = this.target.embedded ? 'pglite' : 'postgresql';
    const started = performance.now();
    try {
      await this.database.ping();
    } catch (error) {
      this.logger.warn(`Health check: the database is down (${describeError(error)})`);
      return {
        error: SERVICE_UNAVAILABLE_SENTENCE,
        code: 'SERVICE_UNAVAILABLE',
        status: 'unavailable',
        database: { status: 'down', engine },
      };
    }
    return {
      status: 'ok',
      database: { status: 'up', engine, latencyMs: Math.round((performance.now() - started) * 10) / 10 },
    };
  }
}
