import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DATABASE_TARGET } from '../../database/database.module.js';
import type { DatabaseTarget } from '../../database/database.options.js';

export interface HealthReport {
  status: 'ok';
  database: { status: 'up'; engine: 'pglite' | 'postgresql'; latencyMs: number };
}

@Injectable()
export class HealthService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
  ) {}

  async report(): Promise<HealthReport> {
    const started = performance.now();
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableException({ error: 'The database is not reachable.', code: 'DATABASE_DOWN' });
    }
    return {
      status: 'ok',
      database: {
        status: 'up',
        engine: this.target.embedded ? 'pglite' : 'postgresql',
        latencyMs: Math.round((performance.now() - started) * 10) / 10,
      },
    };
  }
}
