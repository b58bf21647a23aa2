import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import { CategoryEntity } from './category.entity.js';

/** The only place that queries `categories`; every method is scoped by owner. */
@Injectable()
export class CategoriesRepository {
  constructor(@InjectRepository(CategoryEntity) private readonly categories: Repository<CategoryEntity>) {}

  listOwned(ownerId: number): Promise<CategoryEntity[]> {
    return this.categories.find({ where: { ownerId }, order: { id: 'ASC' } });
  }

  findOwned(ownerId: number, id: number): Promise<CategoryEntity | null> {
    return this.categories.findOneBy({ ownerId, id });
  }

  /** Unique per owner, case-insensitively (index categories_owner_name_key): throws 23505 on a duplicate. */
  create(ownerId: number, name: string): Promise<CategoryEntity> {
    return this.categories.save(this.categories.create({ ownerId, name }));
  }

  /**
   * True when the owner has this category; the row is locked against deletion until the
   * caller's transaction ends, so a bot cannot be moved into a category being deleted.
   */
  async lockOwned(tx: Transaction, ownerId: number, id: number): Promise<boolean> {
    const manager = entityManagerOf(tx);
    const rows: unknown[] = await manager.query(
      'SELECT id FROM categories WHERE id = $1 AND owner_id = $2 FOR KEY SHARE',
      [id, ownerId],
    );
    return rows.length > 0;
  }

  /** Bots in it become uncategorised through the foreign key (ON DELETE SET NULL). */
  async deleteOwned(ownerId: number, id: number): Promise<boolean> {
    const result = await this.categories.delete({ ownerId, id });
    return (result.affected ?? 0) > 0;
  }

  async deleteAllOwned(tx: Transaction, ownerId: number): Promise<number> {
    const manager = entityManagerOf(tx);
    const result = await manager.getRepository(CategoryEntity).delete({ ownerId });
    return result.affected ?? 0;
  }
}
