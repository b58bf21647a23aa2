import { Controller, Get } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { UsersService, type MeResponse } from './users.service.js';

@Controller('user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('me')
  async me(@CurrentUser() current: SessionUser): Promise<MeResponse> {
    const user = await this.users.findActiveById(current.id);
    if (!user) throw AppError.unauthorized();
    return this.users.toMe(user);
  }
}
