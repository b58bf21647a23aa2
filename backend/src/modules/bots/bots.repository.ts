import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import { BotEntity } from './bot.entity.js';

export type NewBot = Omit<BotEntity, 'id' | 'createdAt' | 'updatedAt'>;
export type BotChanges = Partial<Omit<BotEntity, 'id' | 'ownerId' | 'apiKey' | 'createdAt' | 'updatedAt'>>;

/** The only place that queries `bots`; every read and write is scoped by owner. */
@Injectable()
export class BotsRepository {
  constructor(
    @InjectRepository(BotEntity) private readonly bots: Repository<BotEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Runs `work` in one transaction; inside, use only the manager it is given. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  listOwned(ownerId: number): Promise<BotEntity[]> {
    return this.bots.find({ where: { ownerId }, order: { id: 'ASC' } });
  }

  findOwned(ownerId: number, id: number, manager?: EntityManager): Promise<BotEntity | null> {
    const repo = manager ? manager.getRepository(BotEntity) : this.bots;
    return repo.findOneBy({ ownerId, id });
  }

  /** The owner's bot, its row locked until the transaction ends (updates and uploads queue up). */
  findOwnedForUpdate(manager: EntityManager, ownerId: number, id: number): Promise<BotEntity | null> {
    return manager
      .getRepository(BotEntity)
      .createQueryBuilder('bot')
      .setLock('pessimistic_write')
      .where('bot.id = :id AND bot.owner_id = :ownerId', { id, ownerId })
      .getOne();
  }

  create(bot: NewBot): Promise<BotEntity> {
    return this.bots.save(this.bots.create(bot));
  }

  /** One UPDATE statement for all the changed columns. */
  async update(manager: EntityManager, ownerId: number, id: number, changes: BotChanges): Promise<void> {
    await manager.getRepository(BotEntity).update({ id, ownerId }, changes);
  }

  async deleteOwned(manager: EntityManager, ownerId: number, id: number): Promise<boolean> {
    const result = await manager.getRepository(BotEntity).delete({ id, ownerId });
    return (result.affected ?? 0) > 0;
  }

  listOwnedIcons(manager: EntityManager, ownerId: number): Promise<string[]> {
    return manager
      .getRepository(BotEntity)
      .find({ select: { bubbleIcon: true }, where: { ownerId } })
      .then((bots) => bots.map((bot) => bot.bubbleIcon).filter(Boolean));
  }

  async deleteAllOwned(manager: EntityManager, ownerId: number): Promise<number> {
    const result = await manager.getRepository(BotEntity).delete({ ownerId });
    return result.affected ?? 0;
  }
}
