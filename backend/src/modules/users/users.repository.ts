import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type EntityManager, type Repository } from 'typeorm';
import { UserEntity } from './user.entity.js';

/** The only place that queries `users`. Deleted accounts are invisible to every method here. */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  findActiveById(id: number): Promise<UserEntity | null> {
    return this.users.findOneBy({ id, deletedAt: IsNull() });
  }

  findActiveByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ email: email.toLowerCase(), deletedAt: IsNull() });
  }

  create(fields: Pick<UserEntity, 'email' | 'passwordHash'> & Partial<UserEntity>, manager?: EntityManager) {
    const repo = manager ? manager.getRepository(UserEntity) : this.users;
    return repo.save(repo.create({ ...fields, email: fields.email.toLowerCase() }));
  }

  async update(id: number, fields: Partial<UserEntity>, manager?: EntityManager): Promise<void> {
    const repo = manager ? manager.getRepository(UserEntity) : this.users;
    await repo.update({ id }, fields);
  }

  /** Sets email_verified_at once; a later verification keeps the first date. */
  async markVerified(id: number, manager?: EntityManager): Promise<void> {
    const repo = manager ? manager.getRepository(UserEntity) : this.users;
    await repo.update({ id, emailVerifiedAt: IsNull() }, { emailVerifiedAt: new Date() });
  }

  /**
   * Soft delete: the row stays (the final period's usage is still billed to its customer), the
   * e-mail becomes free (the unique index only covers rows with deleted_at IS NULL) and the
   * password hash is wiped so the row can never sign in again.
   */
  async markDeleted(id: number, manager: EntityManager): Promise<void> {
    await manager
      .getRepository(UserEntity)
      .update({ id, deletedAt: IsNull() }, { deletedAt: new Date(), passwordHash: '' });
  }
}
