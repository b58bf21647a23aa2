import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';

/** Provider event ids already processed (`webhook_events`): each event takes effect once. */
@Injectable()
export class WebhookEventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async seen(id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM webhook_events WHERE id = $1`, [id]);
    return rows.length > 0;
  }

  /** Records the event inside the caller's transaction; false when it was already recorded. */
  async record(tx: Transaction, id: string, type: string): Promise<boolean> {
    const manager = entityManagerOf(tx);
    const rows: unknown[] = await manager.query(
      `INSERT INTO webhook_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [id, type],
    );
    return rows.length === 1;
  }
}
