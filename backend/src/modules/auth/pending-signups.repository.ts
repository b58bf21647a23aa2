import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type EntityManager, type Repository } from 'typeorm';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import { PendingSignupEntity } from './pending-signup.entity.js';

/** The only place that queries `pending_signups`. Links are looked up by their SHA-256, never stored in clear. */
@Injectable()
export class PendingSignupsRepository {
  constructor(@InjectRepository(PendingSignupEntity) private readonly signups: Repository<PendingSignupEntity>) {}

  private repo(manager?: EntityManager): Repository<PendingSignupEntity> {
    return manager ? manager.getRepository(PendingSignupEntity) : this.signups;
  }

  async open(
    fields: Pick<PendingSignupEntity, 'userId' | 'tokenHash' | 'passwordHash' | 'browserHash' | 'expiresAt'>,
    tx?: Transaction,
  ): Promise<void> {
    const manager = tx && entityManagerOf(tx);
    const repo = this.repo(manager);
    await repo.insert(repo.create({ ...fields, endedAt: null }));
  }

  /** The pending signup a link belongs to, if it is neither ended nor expired. Changes nothing. */
  findOpenByTokenHash(tokenHash: string): Promise<PendingSignupEntity | null> {
    return this.signups
      .createQueryBuilder('s')
      .where('s.token_hash = :tokenHash AND s.ended_at IS NULL AND s.expires_at > now()', { tokenHash })
      .getOne();
  }

  /**
   * Ends one pending signup in one statement, only if it is still open and unexpired: of two
   * concurrent verifications of one link exactly one gets true.
   */
  async spend(id: number, tx: Transaction): Promise<boolean> {
    const manager = entityManagerOf(tx);
    const result = await this.repo(manager)
      .createQueryBuilder()
      .update()
      .set({ endedAt: () => 'now()' })
      .where('id = :id AND ended_at IS NULL AND expires_at > now()', { id })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  /** Ends every open pending signup of the account: their links stop working. */
  async endAllOf(userId: number, tx?: Transaction): Promise<void> {
    const manager = tx && entityManagerOf(tx);
    await this.repo(manager).update({ userId, endedAt: IsNull() }, { endedAt: new Date() });
  }

  async deleteAllOf(userId: number, tx?: Transaction): Promise<void> {
    const manager = tx && entityManagerOf(tx);
    await this.repo(manager).delete({ userId });
  }
}
