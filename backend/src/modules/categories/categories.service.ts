import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../database/transaction.js';
import { AppError } from '../../common/app-error.js';
import { isUniqueViolation } from '../../common/postgres-errors.js';
import type { CategoryEntity } from './category.entity.js';
import { CategoriesRepository } from './categories.repository.js';
import type { CategoryResponse } from './categories.dto.js';

@Injectable()
export class CategoriesService {
  constructor(private readonly categories: CategoriesRepository) {}

  async list(ownerId: number): Promise<CategoryResponse[]> {
    return (await this.categories.listOwned(ownerId)).map((category) => this.toResponse(category));
  }

  /** `name` arrives trimmed and non-empty (DTO). A case-insensitive duplicate is 409. */
  async create(ownerId: number, name: string): Promise<CategoryResponse> {
    try {
      return this.toResponse(await this.categories.create(ownerId, name));
    } catch (error) {
      if (isUniqueViolation(error, 'categories_owner_name_key')) {
        throw AppError.conflict('You already have a category with this name.', 'CATEGORY_EXISTS');
      }
      throw error;
    }
  }

  async delete(ownerId: number, id: number): Promise<void> {
    if (!(await this.categories.deleteOwned(ownerId, id))) throw this.notFound();
  }

  /** For a bot update: the category must be the owner's own (404 otherwise), and stays until commit. */
  async assertOwnedForUpdate(tx: Transaction, ownerId: number, id: number): Promise<void> {
    if (!(await this.categories.lockOwned(tx, ownerId, id))) throw this.notFound();
  }

  deleteAllOwnedBy(tx: Transaction, ownerId: number): Promise<number> {
    return this.categories.deleteAllOwned(tx, ownerId);
  }

  private notFound(): AppError {
    return AppError.notFound('Category not found.', 'CATEGORY_NOT_FOUND');
  }

  private toResponse(category: CategoryEntity): CategoryResponse {
    return { id: category.id, name: category.name };
  }
}
