import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type EntityManager, type Repository } from 'typeorm';
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
    manager?: EntityManager,
  ): Promise<void> {
    const repo = this.repo(manager);
    await repo.insert(repo.create({ userId, purpose, tokenHash, expiresAt, usedAt: null }));
  }

  /** Marks every still-usable token of that purpose as used: only the newest link may work. */
  async revokeAll(userId: number, purpose: AuthTokenPurpose, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ userId, purpose, usedAt: IsNull() }, { usedAt: new Date() });
  }

  /**
   * Spends a token in one statement: it must exist, have this purpose, be unused and unexpired.
   * Two concurrent requests with the same token cannot both succeed (the row is updated once).
   * Returns the owner's id, or null.
   */
  async consume(purpose: AuthTokenPurpose, tokenHash: string, manager?: EntityManager): Promise<number | null> {
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

  async deleteAllOf(userId: number, manager?: EntityManager): Promise<void> {
    await this.repo(manager).delete({ userId });
  }
}
