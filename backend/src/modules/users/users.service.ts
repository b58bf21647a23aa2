import { Injectable } from '@nestjs/common';
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
