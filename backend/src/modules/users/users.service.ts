import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { UserEntity } from './user.entity.js';
import { UsersRepository } from './users.repository.js';

/** What `GET /api/user/me` answers: never the password hash or tokens. */
export interface MeResponse {
  id: number;
  email: string;
  hasPaid: boolean | null;
  stripeCustomerId: string | null;
  subscriptionItemId: string | null;
}

@Injectable()
export class UsersService {
  constructor(private readonly users: UsersRepository) {}

  findActiveById(id: number): Promise<UserEntity | null> {
    return this.users.findActiveById(id);
  }

  findActiveByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findActiveByEmail(email);
  }

  async recordLogin(id: number): Promise<void> {
    await this.users.update(id, { lastLoginAt: new Date() });
  }

  /** A new, unverified account; credits_cents takes its column default (the free credits). */
  createUnverified(email: string, passwordHash: string, manager?: EntityManager): Promise<UserEntity> {
    return this.users.create({ email, passwordHash, emailVerifiedAt: null }, manager);
  }

  async setPasswordHash(id: number, passwordHash: string, manager?: EntityManager): Promise<void> {
    await this.users.update(id, { passwordHash }, manager);
  }

  markVerified(id: number, manager?: EntityManager): Promise<void> {
    return this.users.markVerified(id, manager);
  }

  markDeleted(id: number, manager: EntityManager): Promise<void> {
    return this.users.markDeleted(id, manager);
  }

  toMe(user: UserEntity): MeResponse {
    return {
      id: user.id,
      email: user.email,
      hasPaid: user.hasPaid,
      stripeCustomerId: user.stripeCustomerId,
      subscriptionItemId: user.subscriptionItemId,
    };
  }
}
