import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type EntityManager, type Repository } from 'typeorm';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import { AuthTokenEntity, type AuthTokenPurpose } from './auth-token.entity.js';

/** The only place that queries `auth_tokens`. Tokens are looked up by their SHA-256, never stored in clear. */
@Injectable()
export class AuthTokensRepository {
  constructor(@InjectRepository(AuthTokenEntity) private readonly tokens: Repository<AuthTokenEntity>) {}

  private repo(manager?: EntityManager): Repository<AuthTokenEntity> {
    return manager ? manager.getRepository(AuthTokenEntity) : this.tokens;
  }

  async issue(
    userId: number,
    purpose: AuthTokenPurpose,
    tokenHash: string,
    expiresAt: Date,
    tx?: Transaction,
  ): Promise<void> {
    const manager = tx && entityManagerOf(tx);
    const repo = this.repo(manager);
    await repo.insert(repo.create({ userId, purpose, tokenHash, expiresAt, usedAt: null }));
  }

  /** Marks every still-usable token of that purpose as used: only the newest link may work. */
  async revokeAll(userId: number, purpose: AuthTokenPurpose, tx?: Transaction): Promise<void> {
    const manager = tx && entityManagerOf(tx);
    await this.repo(manager).update({ userId, purpose, usedAt: IsNull() }, { usedAt: new Date() });
  }

  /**
   * Spends a token in one statement: it must exist, have this purpose, be unused and unexpired.
   * Two concurrent requests with the same token cannot both succeed (the row is updated once).
   * Returns the owner's id, or null.
   */
  async consume(purpose: AuthTokenPurpose, tokenHash: string, tx?: Transaction): Promise<number | null> {
    const manager = tx && entityManagerOf(tx);
    const result = await this.repo(manager)
      .createQueryBuilder()
      .update()
      .set({ usedAt: () => 'now()' })
      .where('token_hash = :tokenHash AND purpose = :purpose AND used_at IS NULL AND expires_at > now()', {
        tokenHash,
        purpose,
      })
      .returning(['userId'])
      .execute();
    const row = (result.raw as { user_id?: number; userId?: number }[])[0];
    return row ? (row.user_id ?? row.userId ?? null) : null;
  }

  /** Whether a token could be spent now (exists, this purpose, unused, unexpired). Changes nothing. */
  async isUsable(purpose: AuthTokenPurpose, tokenHash: string): Promise<boolean> {
    return this.tokens
      .createQueryBuilder('t')
      .where('t.token_hash = :tokenHash AND t.purpose = :purpose AND t.used_at IS NULL AND t.expires_at > now()', {
        tokenHash,
        purpose,
      })
      .getExists();
  }

  async deleteAllOf(userId: number, tx?: Transaction): Promise<void> {
    const manager = tx && entityManagerOf(tx);
    await this.repo(manager).delete({ userId });
  }
}
