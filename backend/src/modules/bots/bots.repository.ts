import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import { QUOTA_LOCKS } from '../../common/constants.js';
import { waitForAdvisoryLock } from '../../database/advisory-locks.js';
import { BotEntity } from './bot.entity.js';

export type NewBot = Omit<BotEntity, 'id' | 'createdAt' | 'updatedAt'>;
export type BotChanges = Partial<
  Omit<BotEntity, 'id' | 'ownerId' | 'apiKey' | 'identitySecret' | 'createdAt' | 'updatedAt'>
>;

/** The only place that queries `bots`; every read and write is scoped by owner. */
@Injectable()
export class BotsRepository {
  constructor(@InjectRepository(BotEntity) private readonly bots: Repository<BotEntity>) {}

  listOwned(ownerId: number): Promise<BotEntity[]> {
    return this.bots.find({ where: { ownerId }, order: { id: 'ASC' } });
  }

  findOwned(ownerId: number, id: number, tx?: Transaction): Promise<BotEntity | null> {
    const manager = tx && entityManagerOf(tx);
    const repo = manager ? manager.getRepository(BotEntity) : this.bots;
    return repo.findOneBy({ ownerId, id });
  }

  /** The owner's bot, its row locked until the transaction ends (updates and uploads queue up). */
  findOwnedForUpdate(tx: Transaction, ownerId: number, id: number): Promise<BotEntity | null> {
    const manager = entityManagerOf(tx);
    return manager
      .getRepository(BotEntity)
      .createQueryBuilder('bot')
      .setLock('pessimistic_write')
      .where('bot.id = :id AND bot.owner_id = :ownerId', { id, ownerId })
      .getOne();
  }

  create(bot: NewBot, tx?: Transaction): Promise<BotEntity> {
    const repo = tx ? entityManagerOf(tx).getRepository(BotEntity) : this.bots;
    return repo.save(repo.create(bot));
  }

  /**
   * Holds the owner's "adding a bot" lock until the transaction ends (a transaction advisory lock,
   * so no row lock of the chat or the uploads is in its way): two creations at once are counted
   * one after the other.
   */
  async lockOwnerBotCount(tx: Transaction, ownerId: number): Promise<void> {
    await waitForAdvisoryLock(tx, QUOTA_LOCKS.bots, ownerId);
  }

  countOwned(tx: Transaction, ownerId: number): Promise<number> {
    return entityManagerOf(tx).getRepository(BotEntity).countBy({ ownerId });
  }

  /** One UPDATE statement for all the changed columns. */
  async update(tx: Transaction, ownerId: number, id: number, changes: BotChanges): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.getRepository(BotEntity).update({ id, ownerId }, changes);
  }

  /** Replaces the bot's API key; false when the bot is not the owner's. */
  async replaceApiKey(ownerId: number, id: number, apiKey: string): Promise<boolean> {
    const result = await this.bots.update({ id, ownerId }, { apiKey });
    return (result.affected ?? 0) > 0;
  }

  /** Replaces the bot's sealed identity secret; false when the bot is not the owner's. */
  async replaceIdentitySecret(ownerId: number, id: number, sealed: string): Promise<boolean> {
    const result = await this.bots.update({ id, ownerId }, { identitySecret: sealed });
    return (result.affected ?? 0) > 0;
  }

  /** Whether the owner's bot has an identity secret, and the proofs refused since `since` (a UTC day); null when not theirs. */
  async identityStatus(
    ownerId: number,
    id: number,
    since: Date,
  ): Promise<{ secretSet: boolean; refused: number } | null> {
    const rows: Array<{ secret_set: boolean; refused: string }> = await this.bots.query(
      `SELECT b.identity_secret IS NOT NULL AS secret_set,
              (SELECT COALESCE(SUM(r.count), 0) FROM identity_refusals r WHERE r.bot_id = b.id AND r.day >= $3::date) AS refused
         FROM bots b WHERE b.id = $1 AND b.owner_id = $2`,
      [id, ownerId, since.toISOString().slice(0, 10)],
    );
    return rows[0] ? { secretSet: rows[0].secret_set === true, refused: Number(rows[0].refused) } : null;
  }

  async deleteOwned(tx: Transaction, ownerId: number, id: number): Promise<boolean> {
    const manager = entityManagerOf(tx);
    const result = await manager.getRepository(BotEntity).delete({ id, ownerId });
    return (result.affected ?? 0) > 0;
  }

  listOwnedIcons(tx: Transaction, ownerId: number): Promise<string[]> {
    const manager = entityManagerOf(tx);
    return manager
      .getRepository(BotEntity)
      .find({ select: { bubbleIcon: true }, where: { ownerId } })
      .then((bots) => bots.map((bot) => bot.bubbleIcon).filter(Boolean));
  }

  async deleteAllOwned(tx: Transaction, ownerId: number): Promise<number> {
    const manager = entityManagerOf(tx);
    const result = await manager.getRepository(BotEntity).delete({ ownerId });
    return result.affected ?? 0;
  }
}
